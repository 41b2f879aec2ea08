/* Self-tests of backtraces on the target: unwinder, kallsyms, %pS together. */
#include <kernel/ktest.h>
#include <kernel/kallsyms.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/stacktrace.h>
#include <kernel/string.h>

#define DEPTH_MAX 32

/*
 * A known chain: st_chain_a -> st_chain_b -> st_chain_c ->
 * save_stack_trace. noipa keeps each a real call to an unchanged
 * function (no inlining, no clones with .isra names); the volatile
 * store after each call keeps it from being the last thing done.
 */
#define __chain __attribute__((noipa))

static volatile int chain_guard;

__chain static unsigned int st_chain_c(unsigned long *entries, unsigned int max,
				       unsigned int skip)
{
	unsigned int n = save_stack_trace(entries, max, skip);

	chain_guard++;
	return n;
}

__chain static unsigned int st_chain_b(unsigned long *entries, unsigned int max,
				       unsigned int skip)
{
	unsigned int n = st_chain_c(entries, max, skip);

	chain_guard++;
	return n;
}

__chain static unsigned int st_chain_a(unsigned long *entries, unsigned int max,
				       unsigned int skip)
{
	unsigned int n = st_chain_b(entries, max, skip);

	chain_guard++;
	return n;
}

/* True when addr lies inside the function called name, per kallsyms. */
static bool in_function(unsigned long addr, const char *name)
{
	const char *found = kallsyms_lookup(addr, NULL, NULL);

	if (found && strcmp(found, name) == 0)
		return true;
	printk("        # %08lx is in %s, expected %s\n", addr,
	       found ? found : "no symbol", name);
	return false;
}

static void test_chain_names_in_order(struct ktest *t)
{
	unsigned long entries[DEPTH_MAX];
	unsigned int n = st_chain_a(entries, DEPTH_MAX, 0);

	KEXPECT(t, n >= 5);
	if (n < 5)
		return;
	KEXPECT(t, in_function(entries[0], "st_chain_c"));
	KEXPECT(t, in_function(entries[1], "st_chain_b"));
	KEXPECT(t, in_function(entries[2], "st_chain_a"));
	KEXPECT(t, in_function(entries[3], "test_chain_names_in_order"));
	/* Every chain ends where the entry code cleared the frame pointer. */
	KEXPECT(t, n < DEPTH_MAX && in_function(entries[n - 1], "_start"));
}

/* Three calls deeper than the test itself: exactly three more frames. */
static void test_chain_depth(struct ktest *t)
{
	unsigned long mine[DEPTH_MAX], chain[DEPTH_MAX];
	unsigned int depth = save_stack_trace(mine, DEPTH_MAX, 0);
	unsigned int n = st_chain_a(chain, DEPTH_MAX, 0);

	KEXPECT(t, depth > 1 && depth < DEPTH_MAX - 3);
	KEXPECT_EQ(t, n, depth + 3);
	/* Above the test function the two traces are the same frames. */
	for (unsigned int i = 1; i < depth && i + 3 < n; i++)
		KEXPECT_EQ(t, chain[i + 3], mine[i]);
}

static void test_max_and_skip(struct ktest *t)
{
	unsigned long all[DEPTH_MAX], some[DEPTH_MAX];
	unsigned int n = st_chain_a(all, DEPTH_MAX, 0);

	KEXPECT(t, n > 3);
	if (n <= 3)
		return;
	KEXPECT_EQ(t, st_chain_a(some, 2, 0), 2);
	KEXPECT_EQ(t, some[0], all[0]);
	KEXPECT_EQ(t, some[1], all[1]);
	KEXPECT_EQ(t, st_chain_a(some, DEPTH_MAX, 2), n - 2);
	KEXPECT(t, in_function(some[0], "st_chain_a"));
	KEXPECT_EQ(t, st_chain_a(some, 0, 0), 0);
	KEXPECT_EQ(t, st_chain_a(some, DEPTH_MAX, DEPTH_MAX), 0);
}

static void test_from_a_given_frame(struct ktest *t)
{
	unsigned long entries[DEPTH_MAX], mine[DEPTH_MAX], low, high;
	unsigned long fp = (unsigned long)__builtin_frame_address(0);
	unsigned long pc = (unsigned long)test_from_a_given_frame;
	unsigned int n, depth;

	KEXPECT(t, stack_bounds_of_current(&low, &high));
	KEXPECT(t, fp >= low && fp < high);
	n = save_stack_trace_from(pc, fp, low, high, entries, DEPTH_MAX);
	depth = save_stack_trace(mine, DEPTH_MAX, 0);
	/* pc as given, then the same callers as save_stack_trace finds. */
	KEXPECT_EQ(t, n, depth);
	KEXPECT_EQ(t, entries[0], pc);
	KEXPECT(t, n > 1 && entries[1] == mine[1]);
	/* A frame pointer off the stack, or misaligned: pc only. */
	KEXPECT_EQ(t, save_stack_trace_from(pc, high, low, high, entries,
					    DEPTH_MAX), 1);
	KEXPECT_EQ(t, save_stack_trace_from(pc, fp + 1, low, high, entries,
					    DEPTH_MAX), 1);
	KEXPECT_EQ(t, save_stack_trace_from(pc, 0, low, high, entries,
					    DEPTH_MAX), 1);
}

/*
 * A stack made up in an array, to see each way a chain ends: the
 * records laid out as this arch's (ARCH_FRAME_LAYOUT), frame i's at
 * word FAKE_SPACING * i + FAKE_SPACING / 2, linked upwards from frame 0.
 */
#define FAKE_SPACING 8
#define FAKE_WORDS (FAKE_SPACING * 8)

static unsigned long fake_stack[FAKE_WORDS];
static const struct frame_layout fake_layout = ARCH_FRAME_LAYOUT;

static unsigned long fake_fp(unsigned int i)
{
	return (unsigned long)&fake_stack[FAKE_SPACING * i + FAKE_SPACING / 2];
}

/* The return address in frame i's record. */
static unsigned long fake_ret(unsigned int i)
{
	return 0x1000 + 0x10 * i;
}

static void fake_record(unsigned long fp, unsigned long saved_fp,
			unsigned long ret)
{
	unsigned long *words = (unsigned long *)fp;

	words[fake_layout.saved_fp] = saved_fp;
	words[fake_layout.return_address] = ret;
}

/* Frames 0 .. n - 1, each leading to the next; the last's saved fp is 0. */
static void fake_chain(unsigned int n)
{
	memset(fake_stack, 0, sizeof(fake_stack));
	for (unsigned int i = 0; i < n; i++)
		fake_record(fake_fp(i), i + 1 < n ? fake_fp(i + 1) : 0,
			    fake_ret(i));
}

/*
 * The entries of the walk from frame 0 of the fake stack (after the pc
 * save_stack_trace_from() stores first), checked against stack_prev_frame()
 * stepped by hand; returns how many there were.
 */
static unsigned int fake_walk(struct ktest *t, unsigned int max)
{
	unsigned long low = (unsigned long)fake_stack;
	unsigned long high = (unsigned long)(fake_stack + FAKE_WORDS);
	unsigned long entries[DEPTH_MAX];
	struct stack_frame frame = { .fp = fake_fp(0) };
	unsigned int n, i = 0;

	n = save_stack_trace_from(0, fake_fp(0), low, high, entries, max + 1);
	KEXPECT(t, n >= 1);
	while (i + 1 < n && stack_prev_frame(&frame, low, high)) {
		KEXPECT_EQ(t, entries[i + 1], stack_call_address(&frame));
		i++;
	}
	KEXPECT_EQ(t, i + 1, n);
	return n - 1;
}

static void test_fabricated_chain_ends(struct ktest *t)
{
	unsigned long top = (unsigned long)(fake_stack + FAKE_WORDS) -
			    fake_layout.above * sizeof(unsigned long);

	/* A saved frame pointer of 0 ends the chain after its record. */
	fake_chain(4);
	KEXPECT_EQ(t, fake_walk(t, DEPTH_MAX - 1), 4);
	KEXPECT_EQ(t, fake_walk(t, 3), 3);
	/* A link downwards: the record holding it is not taken. */
	fake_record(fake_fp(2), fake_fp(0), fake_ret(2));
	KEXPECT_EQ(t, fake_walk(t, DEPTH_MAX - 1), 2);
	/* A return address of 0 ends the chain before its record. */
	fake_chain(4);
	fake_record(fake_fp(1), fake_fp(2), 0);
	KEXPECT_EQ(t, fake_walk(t, DEPTH_MAX - 1), 1);
	/* Links past the stack's top or misaligned: the record is the last. */
	fake_chain(4);
	fake_record(fake_fp(1), top + sizeof(unsigned long), fake_ret(1));
	KEXPECT_EQ(t, fake_walk(t, DEPTH_MAX - 1), 2);
	fake_record(fake_fp(1), fake_fp(2) + 1, fake_ret(1));
	KEXPECT_EQ(t, fake_walk(t, DEPTH_MAX - 1), 2);
	/* A record right at the top still fits, and is walked. */
	fake_record(fake_fp(1), top, fake_ret(1));
	fake_record(top, 0, fake_ret(7));
	KEXPECT_EQ(t, fake_walk(t, DEPTH_MAX - 1), 3);
}

static bool formats_as(const char *expected, const char *fmt, const void *p)
{
	char buf[KSYM_NAME_MAX + 64];

	snprintf(buf, sizeof(buf), fmt, p);
	if (strcmp(buf, expected) == 0)
		return true;
	printk("        # \"%s\" gave \"%s\", expected \"%s\"\n", fmt, buf,
	       expected);
	return false;
}

static void test_percent_ps(struct ktest *t)
{
	char want[KSYM_NAME_MAX + 64];
	unsigned long size = 0, offset = 1;
	const char *name = kallsyms_lookup((unsigned long)st_chain_b, &size,
					   &offset);

	KEXPECT(t, name && strcmp(name, "st_chain_b") == 0);
	KEXPECT_EQ(t, offset, 0);
	KEXPECT(t, size > 4);
	snprintf(want, sizeof(want), "st_chain_b+0x0/0x%lx", size);
	KEXPECT(t, formats_as(want, "%pS", st_chain_b));
	snprintf(want, sizeof(want), "st_chain_b+0x4/0x%lx", size);
	KEXPECT(t, formats_as(want, "%pS", (const char *)st_chain_b + 4));
	KEXPECT(t, formats_as("st_chain_b", "%ps", st_chain_b));
	KEXPECT(t, formats_as("[st_chain_b  ]", "[%-12ps]", st_chain_b));
	/* The last byte is still inside; one past it is another symbol. */
	KEXPECT(t, in_function((unsigned long)st_chain_b + size - 1,
			       "st_chain_b"));
	name = kallsyms_lookup((unsigned long)st_chain_b + size, NULL, NULL);
	KEXPECT(t, !name || strcmp(name, "st_chain_b") != 0);
	/* Data and nothing at all: plain pointers. */
	KEXPECT(t, formats_as("0x00000010", "%pS", (void *)0x10));
	snprintf(want, sizeof(want), "%p", &chain_guard);
	KEXPECT(t, formats_as(want, "%ps", (const void *)&chain_guard));
}

static void test_builtin_table(struct ktest *t)
{
	struct kallsyms_table table;
	unsigned long size, offset;
	const char *err = kallsyms_builtin(&table);

	KEXPECT(t, err == NULL);
	if (err)
		return;
	KEXPECT(t, kallsyms_table_check(&table) == NULL);
	KEXPECT(t, table.count > 50);
	for (unsigned int i = 0; i < table.count; i++) {
		const char *name = table.strings + table.names[i];
		unsigned long addr = kallsyms_lookup_name(name);

		/* A name twice (static functions) gives the first one. */
		KEXPECT(t, addr && strcmp(kallsyms_lookup(addr, NULL, NULL),
					  name) == 0);
		KEXPECT(t, kallsyms_lookup(table.addrs[i], &size, &offset) ==
				   name);
		KEXPECT_EQ(t, size, table.sizes[i]);
		KEXPECT_EQ(t, offset, 0);
	}
}

static void test_lookup_name(struct ktest *t)
{
	KEXPECT_EQ(t, kallsyms_lookup_name("st_chain_a"),
		   (unsigned long)st_chain_a);
	KEXPECT_EQ(t, kallsyms_lookup_name("save_stack_trace"),
		   (unsigned long)save_stack_trace);
	KEXPECT_EQ(t, kallsyms_lookup_name("no_such_function_anywhere"), 0);
	KEXPECT_EQ(t, kallsyms_lookup_name(""), 0);
}

static const struct ktest_case stacktrace_cases[] = {
	KTEST_CASE(test_chain_names_in_order),
	KTEST_CASE(test_chain_depth),
	KTEST_CASE(test_max_and_skip),
	KTEST_CASE(test_from_a_given_frame),
	KTEST_CASE(test_fabricated_chain_ends),
	KTEST_CASE(test_percent_ps),
	KTEST_CASE(test_builtin_table),
	KTEST_CASE(test_lookup_name),
	{ 0 },
};
KTEST_SUITE("stacktrace", stacktrace_cases);
