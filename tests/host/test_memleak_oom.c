/*
 * Host tests of the leak collector out of memory, under ASan/UBSan:
 * each list a scan keeps (the gray queue, the white blocks) takes its
 * chunks from the collector's own cache with GFP_ATOMIC, which the
 * wrapper of test_memleak.h refuses while fail_atomic is set. A scan
 * that cannot grow a list must not report what the list would have
 * kept (a gray block missing from the queue would turn everything it
 * points to into a false leak): the collector disables itself with a
 * message and reports nothing. Turned on again, it scans right.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/time.h>
#include "../../mm/kmemleak/internal.h"
#define MEMLEAK_TEST_FAIL_ATOMIC
#include "test_memleak.h"

/* More blocks than the spare chunks of the queues hold. */
#define MANY_BLOCKS 2000

static unsigned long *many[MANY_BLOCKS];

/* A scan with the collector's allocations refused; its result. */
static int scan_failing(void)
{
	int err;

	jiffies += 2 * HZ;
	fail_atomic = true;
	err = memleak_scan();
	fail_atomic = false;
	assert_int_equal(host_irqs_off, 0);
	return err;
}

/*
 * One root block pointing to every other one: the hub's words queue
 * them all at once, more than the gray queue's spare chunks hold.
 * Without the collector off, these blocks, reached only through the
 * queue, would be reported.
 */
static void test_gray_queue(void **state)
{
	unsigned long *hub = track(MANY_BLOCKS * sizeof(long), 1);

	(void)state;
	for (unsigned int i = 0; i < MANY_BLOCKS; i++) {
		many[i] = track(16, 1);
		hub[i] = (unsigned long)many[i];
	}
	roots[0] = (unsigned long)hub;
	scan_failing();
	expect_disabled("out of memory for the scan's gray queue");
	assert_int_equal(count_suspects(), 0);
	/* On again: the same heap, no suspect. */
	scan_later();
	assert_int_equal(count_suspects(), 0);
	assert_int_equal(memleak.nr_suspects, 0);
	roots[0] = 0;
	untrack_all(many, MANY_BLOCKS);
	untrack(hub);
}

/* Unreferenced blocks, more than a spare chunk of the white list holds. */
static void test_white_list(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < MANY_BLOCKS; i++)
		many[i] = track(16, 1);
	scan_failing();
	expect_disabled("out of memory for the list of white blocks");
	assert_int_equal(count_suspects(), 0);
	/* On again: every one of them is a suspect. */
	scan_later();
	assert_int_equal(count_suspects(), MANY_BLOCKS);
	untrack_all(many, MANY_BLOCKS);
}

/*
 * Every point of failure in turn: a scan whose collector allocations
 * after the first n are refused, for n = 0, 1, ... until one scan needs
 * no more than it was given. Each scan either finds exactly the
 * unreferenced blocks or disables the collector; either way no
 * reachable block is ever a suspect.
 */
#define REACHABLE (MANY_BLOCKS / 2)

static unsigned long reachable_suspects(void)
{
	unsigned long n = 0;

	for (unsigned int i = 0; i < REACHABLE; i++)
		n += is_suspect(many[i]);
	return n;
}

static void test_every_failure_point(void **state)
{
	unsigned long granted = 0, disabled = 0;
	bool done = false;

	(void)state;
	track_chain(many, REACHABLE, 16);
	for (unsigned int i = REACHABLE; i < MANY_BLOCKS; i++)
		many[i] = track(16, 1);
	while (!done) {
		jiffies += 2 * HZ;
		atomic_granted = granted;
		fail_atomic = true;
		memleak_scan();
		fail_atomic = false;
		done = atomic_granted > 0;	/* needed fewer than given */
		assert_int_equal(host_irqs_off, 0);
		assert_int_equal(reachable_suspects(), 0);
		if (memleak.enabled) {
			assert_int_equal(count_suspects(),
					 MANY_BLOCKS - REACHABLE);
		} else {
			disabled++;
			turn_collector_on_again();
		}
		granted++;
	}
	/* Some failures were met on the way, and the last scan was whole. */
	assert_true(disabled > 0);
	assert_true(memleak.enabled);
	host_log_clear();
	roots[0] = 0;
	untrack_all(many, MANY_BLOCKS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gray_queue,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_white_list,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_every_failure_point,
						memleak_test_setup,
						memleak_test_teardown),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
