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

static unsigned long count_suspects(void)
{
	return count_blocks_flagged(MEMLEAK_SUSPECT);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gray_queue,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_white_list,
						memleak_test_setup,
						memleak_test_teardown),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
