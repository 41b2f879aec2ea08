/*
 * Host tests of 'memleak graph' (mm/kmemleak/graph.c) under ASan/UBSan:
 * the exact nodes and edges it prints for small groups of orphans, and
 * its two bounds (64 nodes, 256 edges), whose overflow must be said
 * both in the graph and in the closing line, never dropped silently.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/slab.h>
#include <kernel/time.h>
#include "../../mm/kmemleak/internal.h"
#define MEMLEAK_TEST_FAIL_ATOMIC
#include "test_memleak.h"

#include <stdio.h>

/* Runs 'memleak graph' with every block old enough to be a suspect. */
static int run_graph(void)
{
	jiffies += 2 * HZ;
	host_log_clear();
	return shell_run_line("memleak graph");
}

static void expect_text(const char *fmt, ...)
{
	char want[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (!log_has(want))
		fail_msg("no \"%s\" in:\n%s", want, host_log());
}

/* How many times text occurs in the log. */
static unsigned int count_text(const char *text)
{
	const char *p = host_log();
	unsigned int n = 0;

	while ((p = strstr(p, text))) {
		n++;
		p += strlen(text);
	}
	return n;
}

static void expect_node(const void *b, size_t size, const char *tier)
{
	expect_text("  \"0x%08lx\" [label=\"0x%08lx\\n%zu bytes, %s\\n",
		    (unsigned long)b, (unsigned long)b, size, tier);
}

static void expect_edge(const void *from, const void *to, unsigned long off)
{
	expect_text("  \"0x%08lx\" -> \"0x%08lx\" [label=\"+0x%lx\"];\n",
		    (unsigned long)from, (unsigned long)to, off);
}

/*
 * a -> b at +0x8 and +0x10, b -> c; while r is reachable from a root,
 * c is too, and b's pointer to it is no edge: only suspects are drawn.
 * (Blocks are written before the first scan only: one whose contents
 * changed since the last scan is never a suspect.)
 */
static void test_exact(void **state)
{
	unsigned long *a = track(64, 1), *b = track(32, 1), *c = track(16, 1);
	unsigned long *r = track(16, 1);

	(void)state;
	roots[0] = (unsigned long)r;
	r[0] = (unsigned long)c;
	a[1] = (unsigned long)b;
	a[2] = (unsigned long)b;
	b[0] = (unsigned long)c;
	assert_int_equal(run_graph(), 0);
	expect_text("memleak: graph begin\ndigraph leaks {\n");
	expect_node(a, 64, "direct");
	expect_node(b, 32, "indirect");
	expect_edge(a, b, sizeof(long));
	expect_edge(a, b, 2 * sizeof(long));
	expect_text("}\nmemleak: graph end\nmemleak: graph of 2 suspects "
		    "and 2 pointers; tools/leak-graph draws it\n");
	assert_int_equal(count_text("[label=\"0x"), 2);
	assert_int_equal(count_text(" -> "), 2);
	assert_int_equal(count_text("left out"), 0);

	roots[0] = 0;
	assert_int_equal(run_graph(), 0);
	expect_node(c, 16, "indirect");
	expect_node(r, 16, "direct");
	expect_edge(b, c, 0);
	expect_edge(r, c, 0);
	expect_text("memleak: graph of 4 suspects and 4 pointers;");
	assert_int_equal(count_text("[label=\"0x"), 4);
	assert_int_equal(count_text(" -> "), 4);
	untrack(a);
	untrack(b);
	untrack(c);
	untrack(r);
}

/* 300 words of a pointing at b: 256 edges drawn, 44 said left out. */
static void test_edge_bound(void **state)
{
	unsigned long *a = track(300 * sizeof(long), 1), *b = track(16, 1);

	(void)state;
	for (unsigned int i = 0; i < 300; i++)
		a[i] = (unsigned long)b;
	assert_int_equal(run_graph(), 0);
	assert_int_equal(count_text(" -> "), 256);
	expect_edge(a, b, 255 * sizeof(long));
	expect_text("  // left out: 0 suspects, 44 pointers\n}\n");
	expect_text("memleak: graph of 2 suspects and 256 pointers (0 "
		    "suspects and 44 pointers left out: at most 64 and 256)");
	untrack(a);
	untrack(b);
}

/* 70 orphans: 64 nodes, 6 said left out, and no edge to those. */
static void test_node_bound(void **state)
{
	unsigned long *orphans[70];

	(void)state;
	for (unsigned int i = 0; i < 70; i++)
		orphans[i] = track(16, 1);
	assert_int_equal(run_graph(), 0);
	assert_int_equal(count_text("[label=\"0x"), 64);
	expect_text("  // left out: 6 suspects, 0 pointers\n}\n");
	expect_text("memleak: graph of 64 suspects and 0 pointers (6 "
		    "suspects and 0 pointers left out: at most 64 and 256)");
	for (unsigned int i = 0; i < 70; i++)
		untrack(orphans[i]);
}

/*
 * p and q possibly lost: reachable r points 8 bytes into p from +0x4
 * and (unaligned, no reference to the scan) into q; p's holder is drawn
 * dashed, q has none. A root pointing into q instead gives it no holder
 * node either: only blocks are drawn.
 */
static void test_holder(void **state)
{
	unsigned long *p = track(32, 1), *q = track(32, 1);
	unsigned long *r = track(32, 1);

	(void)state;
	roots[0] = (unsigned long)r;
	roots[1] = (unsigned long)q + 2 * sizeof(long);
	r[1] = (unsigned long)p + 8;
	r[2] = (unsigned long)q + 5;
	assert_int_equal(run_graph(), 0);
	expect_node(p, 32, "possibly lost");
	expect_node(q, 32, "possibly lost");
	expect_text("  \"0x%08lx\" [label=\"0x%08lx\\n32 bytes, reachable\", "
		    "style=dashed];\n", (unsigned long)r, (unsigned long)r);
	expect_text("  \"0x%08lx\" -> \"0x%08lx\" [label=\"+0x%lx\", "
		    "style=dashed];\n", (unsigned long)r, (unsigned long)p,
		    sizeof(long));
	expect_text("memleak: graph of 2 suspects and 0 pointers, 1 reachable "
		    "block pointing inside; tools/leak-graph draws it\n");
	assert_int_equal(count_text("[label=\"0x"), 3);
	assert_int_equal(count_text(" -> "), 1);
	roots[0] = roots[1] = 0;
	untrack(p);
	untrack(q);
	untrack(r);
}

/*
 * The holders are looked for among every reachable block, listed
 * first: with more of them than the spare chunks hold and no memory
 * for another chunk, the graph is still drawn, and says, in the graph
 * and in its closing line, that no holder could be looked for. The
 * reachable blocks are a chain from a root, so that the scan before
 * needs no chunk of its own.
 */
#define MANY_BLOCKS 2000

static void test_holders_out_of_memory(void **state)
{
	static unsigned long *many[MANY_BLOCKS];
	unsigned long *p = track(32, 1);
	int status;

	(void)state;
	track_chain(many, MANY_BLOCKS, 16);
	many[0][0] = (unsigned long)p + 8;	/* p: possibly lost */
	fail_atomic = true;
	status = run_graph();
	fail_atomic = false;
	assert_int_equal(status, 0);
	expect_node(p, 32, "possibly lost");
	expect_text("  // out of memory for the list of blocks: no reachable "
		    "block pointing inside\n");
	expect_text("memleak: graph of 1 suspects and 0 pointers (out of "
		    "memory: no reachable block pointing inside)");
	assert_true(memleak.enabled);
	roots[0] = 0;
	untrack(p);
	untrack_all(many, MANY_BLOCKS);
}

static void test_bad_input(void **state)
{
	(void)state;
	host_log_clear();
	assert_int_not_equal(shell_run_line("memleak graph extra"), 0);
	assert_int_equal(count_text("graph begin"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exact, memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_edge_bound,
						memleak_test_setup, memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_node_bound,
						memleak_test_setup, memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_holder, memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_holders_out_of_memory,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_bad_input,
						memleak_test_setup, memleak_test_teardown),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
