/*
 * Host tests of 'memleak refs' and 'memleak why' (mm/kmemleak/explain.c)
 * under ASan/UBSan: small graphs of tracked blocks hung from the test's
 * own root area, and the exact lines the commands print for them. The
 * host has no kernel image, so root locations read "test roots: ADDR"
 * (arch/host/memleak.c).
 */
#include <kernel/kernel.h>
#include <kernel/list.h>
#include <kernel/memleak.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/slab.h>
#include <kernel/time.h>
#include "../../mm/kmemleak/internal.h"
#define MEMLEAK_TEST_FAIL_ATOMIC
#include "test_memleak.h"

#include <stdio.h>

/* A node at offset 8 words: container_of() makes it an alias. */
struct node_elem {
	unsigned long words[8];
	struct list_head node;
};

static struct node_elem *node_elem_of(struct list_head *node)
{
	return container_of(node, struct node_elem, node);
}

/* Runs "memleak CMD ADDR" with every block old enough to be reported. */
static int run(const char *cmd, const void *addr)
{
	char line[64];

	snprintf(line, sizeof(line), "memleak %s %lx", cmd,
		 (unsigned long)addr);
	jiffies += 2 * HZ;
	host_log_clear();
	return shell_run_line(line);
}

/* The log holds the line printf(fmt, ...) makes. */
static void expect_line(const char *fmt, ...)
{
	char want[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (!log_has(want))
		fail_msg("no \"%s\" in:\n%s", want, host_log());
}

/* Lines starting with two spaces: the referrers or the path. */
static unsigned int indented_lines(void)
{
	const char *p = host_log();
	unsigned int n = 0;

	for (; (p = strstr(p, "\n  ")); p++)
		n++;
	return n + (strncmp(host_log(), "  ", 2) == 0);
}

static unsigned long no_marks_left(void)
{
	return count_blocks_flagged(MEMLEAK_EXPLAIN_SEEN);
}

/*
 * roots[3] -> a (start), a+0x10 -> b's node (an alias), b+0 -> c, and a
 * longer way to c through d: why takes the shortest, refs names all.
 */
static void test_chain(void **state)
{
	unsigned long *a = track(64, 1), *c = track(32, 1), *d = track(32, 1);
	struct node_elem *b = track(sizeof(*b), 1);
	const size_t bsize = sizeof(*b);

	(void)state;
	assert_ptr_equal(node_elem_of(&b->node), b);
	roots[3] = (unsigned long)a;
	a[2] = (unsigned long)&b->node;
	a[3] = (unsigned long)d;
	b->words[0] = (unsigned long)c;
	d[1] = (unsigned long)c + 8;	/* interior: no reference */

	assert_int_equal(run("why", (char *)c + 4), 0);
	expect_line("memleak why: block 0x%08lx (size 32) is reachable\n",
		    (unsigned long)c);
	expect_line("memleak why: a path of 3 pointers from a root to "
		    "0x%08lx:\n", (unsigned long)c + 4);
	expect_line("  root test roots: 0x%08lx\n"
		    "  -> block 0x%08lx (size 64)+0x%lx\n"
		    "  -> block 0x%08lx (size %zu)+0x0\n"
		    "  -> 0x%08lx\n",
		    (unsigned long)&roots[3], (unsigned long)a,
		    2 * sizeof(long), (unsigned long)b, bsize,
		    (unsigned long)c + 4);
	assert_int_equal(no_marks_left(), 0);

	assert_int_equal(run("refs", c), 0);
	expect_line("  block 0x%08lx (size %zu)+0x0: 0x%08lx, start; that "
		    "block is reachable\n", (unsigned long)b, bsize,
		    (unsigned long)c);
	expect_line("  block 0x%08lx (size 32)+0x%lx: 0x%08lx, interior "
		    "+0x8, no reference to the scan; that block is reachable\n",
		    (unsigned long)d, sizeof(long), (unsigned long)c + 8);
	expect_line("memleak refs: 2 pointers into block 0x%08lx: 0 in "
		    "roots, 2 in blocks\n", (unsigned long)c);
	assert_int_equal(indented_lines(), 2);

	assert_int_equal(run("refs", b), 0);
	expect_line("  block 0x%08lx (size 64)+0x%lx: 0x%08lx, alias +0x%lx; "
		    "that block is reachable\n", (unsigned long)a,
		    2 * sizeof(long), (unsigned long)&b->node,
		    offsetof(struct node_elem, node));
	assert_int_equal(run("refs", a), 0);
	expect_line("  test roots: 0x%08lx: 0x%08lx, start\n",
		    (unsigned long)&roots[3], (unsigned long)a);
	expect_line("1 pointer into block 0x%08lx: 1 in roots, 0 in blocks",
		    (unsigned long)a);
	untrack(a);
	untrack(b);
	untrack(c);
	untrack(d);
}

/* Orphans: refs names the suspect holding one; why finds no path. */
static void test_suspects(void **state)
{
	unsigned long *outer = track(48, 1), *inner = track(16, 1);

	(void)state;
	outer[1] = (unsigned long)inner;
	assert_int_equal(run("refs", inner), 0);
	expect_line("memleak refs: block 0x%08lx (size 16) is a suspect "
		    "(indirect leak)\n", (unsigned long)inner);
	expect_line("  block 0x%08lx (size 48)+0x%lx: 0x%08lx, start; that "
		    "block is a suspect (direct leak)\n", (unsigned long)outer,
		    sizeof(long), (unsigned long)inner);
	assert_int_equal(run("why", inner), 0);
	expect_line("memleak why: no path from a root: see 'memleak refs "
		    "%lx' for what points at it\n", (unsigned long)inner);
	assert_int_equal(indented_lines(), 0);
	untrack(outer);
	untrack(inner);
}

/* A memleak_not_leak() block starts paths of its own. */
static void test_not_leak_root(void **state)
{
	unsigned long *holder = track(32, 1), *child = track(32, 1);

	(void)state;
	memleak_not_leak(holder);
	holder[2] = (unsigned long)child;
	assert_int_equal(run("why", child), 0);
	expect_line("  root: block 0x%08lx (size 32), never a leak "
		    "(min_count 0, memleak_not_leak())\n"
		    "  -> block 0x%08lx (size 32)+0x%lx\n"
		    "  -> 0x%08lx\n", (unsigned long)holder,
		    (unsigned long)holder, 2 * sizeof(long),
		    (unsigned long)child);
	untrack(holder);
	untrack(child);
}

/* A path longer than the ones named whole: its middle is counted. */
static void test_long_path(void **state)
{
	unsigned long *chain[40];

	(void)state;
	track_chain(chain, 40, 16);
	assert_int_equal(run("why", chain[39]), 0);
	expect_line("a path of 40 pointers from a root");
	expect_line("  root test roots: 0x%08lx\n"
		    "  -> block 0x%08lx (size 16)\n"
		    "  -> ... 7 more blocks\n"
		    "  -> block 0x%08lx (size 16)+0x%lx\n",
		    (unsigned long)&roots[0], (unsigned long)chain[0],
		    (unsigned long)chain[8], sizeof(long));
	expect_line("  -> block 0x%08lx (size 16)+0x%lx\n  -> 0x%08lx\n",
		    (unsigned long)chain[38], sizeof(long),
		    (unsigned long)chain[39]);
	assert_int_equal(no_marks_left(), 0);
	untrack_all(chain, 40);
}

/*
 * 'memleak refs' lists every block before it reads them: with more
 * blocks than the spare chunks hold and no memory for another chunk,
 * it still reads the roots, says its answer is partial and fails; the
 * collector stays on and a scan runs again. The blocks are a chain
 * from a root, so that the scan before the list needs no chunk of its
 * own (no white block, a gray queue one block long).
 */
#define MANY_BLOCKS 2000

static void test_refs_out_of_memory(void **state)
{
	static unsigned long *many[MANY_BLOCKS];
	int status;

	(void)state;
	track_chain(many, MANY_BLOCKS, 16);
	fail_atomic = true;
	status = run("refs", many[0]);
	fail_atomic = false;
	assert_int_equal(status, 1);
	expect_line("memleak refs: out of memory for the list of blocks: "
		    "only the roots were read");
	expect_line("memleak refs: 1 pointer into block 0x%08lx: 1 in roots, "
		    "0 in blocks", (unsigned long)many[0]);
	assert_true(memleak.enabled);
	assert_int_equal(memleak_scan(), 0);
	untrack_all(many, MANY_BLOCKS);
}

static void test_bad_input(void **state)
{
	void *p = track(24, 1);

	(void)state;
	assert_int_equal(shell_run_line("memleak refs zz"), 1);
	assert_true(log_has("memleak refs: 'zz' is not a hex address"));
	assert_int_equal(shell_run_line("memleak why 10"), 1);
	assert_true(log_has("memleak why: 0x00000010 is not inside any "
			    "tracked block"));
	assert_int_equal(shell_run_line("memleak why"), 1);
	assert_true(log_has("usage: memleak why ADDR"));
	/* Nothing held on: a scan can run again. */
	assert_int_equal(memleak_scan(), 0);
	untrack(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_chain, memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_suspects, memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_not_leak_root, memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_long_path, memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_refs_out_of_memory,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_bad_input, memleak_test_setup,
						memleak_test_teardown),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
