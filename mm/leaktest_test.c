/*
 * Self-tests of the leak collector: every built-in scenario is set up,
 * scanned, and what the scan reports is compared with what the scenario
 * expects, exactly: nothing missing, nothing extra. Suspects that were
 * there before the scenario (real leaks elsewhere) are left out.
 */
#include <kernel/errno.h>
#include <kernel/ktest.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include "leaktest.h"
#include "kmemleak/internal.h"

#define MAX_SUSPECTS 256

/* Suspect addresses, masked like leaktest's (this array is scanned). */
struct suspect_set {
	unsigned int nr;
	bool overflow;
	unsigned long masked[MAX_SUSPECTS];
	size_t size[MAX_SUSPECTS];
};

static struct suspect_set before, after;

static void add_if_suspect(struct memleak_block *b, unsigned long start,
			   void *ctx)
{
	struct suspect_set *set = ctx;

	if (!(b->flags & MEMLEAK_SUSPECT))
		return;
	if (set->nr == MAX_SUSPECTS) {
		set->overflow = true;
		return;
	}
	set->masked[set->nr] = start ^ LEAKTEST_MASK;
	set->size[set->nr++] = block_size(b);
}

static bool scan_into(struct suspect_set *set)
{
	if (memleak_scan_wait())
		return false;
	set->nr = 0;
	set->overflow = false;
	memleak_walk_blocks(add_if_suspect, set);
	return true;
}

static int find_in(const struct suspect_set *set, unsigned long masked)
{
	for (unsigned int i = 0; i < set->nr; i++)
		if (set->masked[i] == masked)
			return i;
	return -1;
}

/* Every expected block reported with its size, every other one not. */
static void check_expected(struct ktest *t)
{
	for (unsigned int i = 0; i < leaktest_nr_blocks; i++) {
		const struct leaktest_block *b = &leaktest_blocks[i];
		int k = find_in(&after, b->masked);

		if (b->expected && (k < 0 || after.size[k] != b->size))
			ktest_fail(t, __FILE__, __LINE__,
				   "block %u (size %zu) reported", i, b->size);
		if (!b->expected && k >= 0)
			ktest_fail(t, __FILE__, __LINE__,
				   "block %u (size %zu) not reported", i,
				   b->size);
	}
}

/* Nothing reported that is new and not one of the scenario's blocks. */
static void check_nothing_extra(struct ktest *t)
{
	for (unsigned int i = 0; i < after.nr; i++) {
		bool ours = false;

		if (find_in(&before, after.masked[i]) >= 0)
			continue;
		for (unsigned int j = 0; j < leaktest_nr_blocks; j++)
			ours |= leaktest_blocks[j].masked == after.masked[i];
		if (!ours)
			ktest_fail(t, __FILE__, __LINE__,
				   "no extra report (0x%08lx, size %zu)",
				   after.masked[i] ^ LEAKTEST_MASK,
				   after.size[i]);
	}
}

/* How often the type findings are read again (see below). */
#define FINDINGS_TRIES 10

/*
 * The type findings of the scan that is checked, read before the
 * scenario is taken apart. With automatic scans on, another scan may be
 * running, or ending: each counts them again, from 0 at its start to
 * the scenario's (still in place) at its end. So they are read with
 * scans held, and read again a few times while they differ from want.
 */
static unsigned long settled_findings(unsigned long want)
{
	unsigned long n;

	for (unsigned int i = 0;; i++) {
		memleak_hold_scans();
		n = memleak.nr_type_findings;
		memleak_allow_scans();
		if (n == want || i == FINDINGS_TRIES)
			return n;
		msleep(20);
	}
}

/* How often a scenario's change is made again (see below). */
#define BETWEEN_SCANS_TRIES 10

/*
 * The scan that is checked, the comparison with the expectation, and
 * the scenario taken apart (the age it ran with given back). scans: the
 * number of scans before the scenario's change between two scans, if it
 * has one. With automatic scans on ('memleak scan=1', as memleak_smp.t
 * runs every suite), one of them may come between the change and the
 * scan that is checked, and see the change first (a block whose
 * contents changed is then found unchanged): the change is made again
 * until no other scan came in between.
 */
static void check_and_teardown(struct ktest *t,
			       const struct leaktest_scenario *s,
			       unsigned long saved_age, unsigned long scans,
			       long findings)
{
	KEXPECT(t, scan_into(&after));
	for (unsigned int i = 0;
	     s->between_scans && READ_ONCE(memleak.scans) != scans + 1; i++) {
		if (i == BETWEEN_SCANS_TRIES) {
			ktest_fail(t, __FILE__, __LINE__,
				   "no other scan between the change and the "
				   "check, in %u tries", i);
			break;
		}
		scans = READ_ONCE(memleak.scans);
		s->between_scans();
		task_wipe_dead_stack();
		KEXPECT(t, scan_into(&after));
	}
	KEXPECT(t, !before.overflow && !after.overflow);
	check_expected(t);
	check_nothing_extra(t);
	if (findings >= 0)
		KEXPECT_EQ(t, settled_findings(findings),
			   (unsigned long)findings);
	/* Freeing reported blocks would print orphan notices: not here. */
	memleak_clear_reports();
	leaktest_teardown(s);
	memleak.min_age_jiffies = saved_age;
}

/*
 * Sets a scenario up, scans, compares, takes it apart; with findings 0
 * or more, the scan's type findings must be that many.
 */
static void run_scenario(struct ktest *t, const char *name, long findings)
{
	const struct leaktest_scenario *s = leaktest_find(name);
	unsigned long saved_age = memleak.min_age_jiffies, scans = 0;

	KEXPECT(t, s != NULL);
	if (!s)
		return;
	memleak.min_age_jiffies = 0;
	KEXPECT(t, scan_into(&before));
	KEXPECT_EQ(t, leaktest_setup(s), 0);
	task_wipe_dead_stack();
	if (s->between_scans) {
		KEXPECT(t, scan_into(&after));
		scans = READ_ONCE(memleak.scans);
		s->between_scans();
		task_wipe_dead_stack();
	}
	check_and_teardown(t, s, saved_age, scans, findings);
}

/*
 * A scenario's case; with findings 0 or more (the typed scenarios), the
 * pointer findings its scan must leave: all of the kernel's, so a false
 * finding anywhere fails it too.
 */
#define SCENARIO_CASE_FINDINGS(fn, name, findings)  \
	static void fn(struct ktest *t)             \
	{                                           \
		run_scenario(t, name, findings);    \
	}
#define SCENARIO_CASE(fn, name) SCENARIO_CASE_FINDINGS(fn, name, -1)

SCENARIO_CASE(test_seed, "seed")
SCENARIO_CASE(test_orphans, "orphans")
SCENARIO_CASE(test_list, "list")
SCENARIO_CASE(test_list_orphaned, "list-orphaned")
SCENARIO_CASE(test_container2, "container2")
SCENARIO_CASE(test_vmalloc_ref, "vmalloc-ref")
SCENARIO_CASE(test_padding, "padding")
SCENARIO_CASE(test_not_leak, "not-leak")
SCENARIO_CASE(test_ignore, "ignore")
SCENARIO_CASE(test_scan_area, "scan-area")
SCENARIO_CASE(test_stale_copy, "stale-copy")
SCENARIO_CASE(test_inside_orphan, "inside-orphan")
SCENARIO_CASE(test_cycle, "cycle")
SCENARIO_CASE(test_interior_only, "interior-only")
SCENARIO_CASE(test_changing, "changing")
SCENARIO_CASE(test_not_pointers, "not-pointers")
SCENARIO_CASE(test_typed_list_orphaned, "typed-list-orphaned")

SCENARIO_CASE_FINDINGS(test_typed_hidden, "typed-hidden", 0)
SCENARIO_CASE_FINDINGS(test_typed_confusion, "typed-confusion", 1)
SCENARIO_CASE_FINDINGS(test_typed_dangling, "typed-dangling", 1)
SCENARIO_CASE_FINDINGS(test_typed_list, "typed-list", 0)

/*
 * With typed scanning off the owner is read whole, its integer field
 * taken for a pointer: the leak is missed, as by every conservative
 * collector, and no pointer is checked.
 */
static void test_typed_off(struct ktest *t)
{
	const struct leaktest_scenario *s = leaktest_find("typed-hidden");
	unsigned long saved_age = memleak.min_age_jiffies;

	memleak.min_age_jiffies = 0;
	memleak.typed = false;
	KEXPECT_EQ(t, leaktest_setup(s), 0);
	task_wipe_dead_stack();
	KEXPECT(t, scan_into(&after));
	KEXPECT(t, find_in(&after, leaktest_blocks[1].masked) < 0);
	KEXPECT_EQ(t, memleak.bytes_precise, 0);
	memleak.typed = true;
	leaktest_teardown(s);
	memleak.min_age_jiffies = saved_age;
}

/*
 * The same pattern with thread-stack scanning on, then off: reported in
 * neither case, and with it off, found only with the world stopped.
 */
static void run_with_stack_scan(struct ktest *t, bool on)
{
	bool saved = memleak.stack_scan;
	unsigned long rescued = memleak.nr_rescued;

	memleak.stack_scan = on;
	run_scenario(t, "stack", -1);
	memleak.stack_scan = saved;
	if (!on)
		KEXPECT(t, memleak.nr_rescued > rescued);
}

static void test_stack_scan_on(struct ktest *t)
{
	run_with_stack_scan(t, true);
}

static void test_stack_scan_off(struct ktest *t)
{
	run_with_stack_scan(t, false);
}

/*
 * Per-CPU roots: while CPU 1's copy (see leaktest_percpu_cpu()) holds
 * both pointers neither block is reported; once slot 1 is cleared, its
 * block and nothing else is.
 */
static void test_percpu(struct ktest *t)
{
	const struct leaktest_scenario *s = leaktest_find("percpu");
	unsigned long saved_age = memleak.min_age_jiffies, scans;

	KEXPECT(t, s != NULL && s->between_scans != NULL);
	if (!s || !s->between_scans)
		return;
	memleak.min_age_jiffies = 0;
	KEXPECT(t, scan_into(&before));
	KEXPECT_EQ(t, leaktest_setup(s), 0);
	KEXPECT_EQ(t, leaktest_nr_blocks, 2);
	task_wipe_dead_stack();
	KEXPECT(t, scan_into(&after));
	for (unsigned int i = 0; i < leaktest_nr_blocks; i++)
		if (find_in(&after, leaktest_blocks[i].masked) >= 0)
			ktest_fail(t, __FILE__, __LINE__,
				   "block %u (size %zu) not reported while "
				   "CPU %u's copy points to it", i,
				   leaktest_blocks[i].size,
				   leaktest_percpu_cpu());
	check_nothing_extra(t);
	scans = READ_ONCE(memleak.scans);
	s->between_scans();
	task_wipe_dead_stack();
	check_and_teardown(t, s, saved_age, scans, -1);
}

/* A reported block that is then freed is not reported again. */
static void test_freed_after_report(struct ktest *t)
{
	const struct leaktest_scenario *s = leaktest_find("freed-after-report");
	unsigned long saved_age = memleak.min_age_jiffies, masked;

	memleak.min_age_jiffies = 0;
	KEXPECT_EQ(t, leaktest_setup(s), 0);
	task_wipe_dead_stack();
	masked = leaktest_blocks[0].masked;
	KEXPECT(t, scan_into(&after));
	KEXPECT(t, find_in(&after, masked) >= 0);
	leaktest_teardown(s);	/* prints the orphan-freeing notice */
	KEXPECT(t, scan_into(&after));
	KEXPECT(t, find_in(&after, masked) < 0);
	memleak.min_age_jiffies = saved_age;
}

/*
 * memleak_hold_scans() keeps every scan out, the background thread's
 * and this one's alike, until memleak_allow_scans().
 */
static void test_scans_held(struct ktest *t)
{
	memleak_hold_scans();
	KEXPECT_EQ(t, memleak_scan(), -EBUSY);
	memleak_allow_scans();
	KEXPECT_EQ(t, memleak_scan_wait(), 0);
}

/* Every scenario above is also in the table, and the other way round. */
static void test_scenario_table(struct ktest *t)
{
	KEXPECT_EQ(t, leaktest_nr_scenarios, 24);
	KEXPECT(t, leaktest_find("nosuch") == NULL);
}

static const struct ktest_case leaktest_cases[] = {
	KTEST_CASE(test_seed),
	KTEST_CASE(test_orphans),
	KTEST_CASE(test_list),
	KTEST_CASE(test_list_orphaned),
	KTEST_CASE(test_container2),
	KTEST_CASE(test_vmalloc_ref),
	KTEST_CASE(test_padding),
	KTEST_CASE(test_not_leak),
	KTEST_CASE(test_ignore),
	KTEST_CASE(test_scan_area),
	KTEST_CASE(test_stale_copy),
	KTEST_CASE(test_inside_orphan),
	KTEST_CASE(test_cycle),
	KTEST_CASE(test_interior_only),
	KTEST_CASE(test_changing),
	KTEST_CASE(test_not_pointers),
	KTEST_CASE(test_stack_scan_on),
	KTEST_CASE(test_stack_scan_off),
	KTEST_CASE(test_percpu),
	KTEST_CASE(test_freed_after_report),
	KTEST_CASE(test_scans_held),
	KTEST_CASE(test_typed_hidden),
	KTEST_CASE(test_typed_off),
	KTEST_CASE(test_typed_confusion),
	KTEST_CASE(test_typed_dangling),
	KTEST_CASE(test_typed_list),
	KTEST_CASE(test_typed_list_orphaned),
	KTEST_CASE(test_scenario_table),
	{ 0 },
};
KTEST_SUITE("memleak", leaktest_cases);
