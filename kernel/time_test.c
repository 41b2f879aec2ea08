/* Self-tests of the tick, the nanosecond clock and the delays. */
#include <kernel/ktest.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/time.h>

/* Timeouts only: QEMU's timing is loose, so bounds are generous. */
#define LOOSE_MAX_MS 5000

static void test_msecs_to_jiffies_rounds_up(struct ktest *t)
{
	KEXPECT_EQ(t, msecs_to_jiffies(0), 0);
	KEXPECT_EQ(t, msecs_to_jiffies(1), 1);
	KEXPECT_EQ(t, msecs_to_jiffies(1000), HZ);
	KEXPECT_EQ(t, msecs_to_jiffies(1001), HZ + 1);
	KEXPECT_EQ(t, jiffies_to_msecs(HZ), 1000);
	KEXPECT(t, time_after(1UL, 0UL));
	KEXPECT(t, time_after(0UL, ~0UL));	/* across the wrap */
	KEXPECT(t, !time_after(5UL, 5UL) && time_after_eq(5UL, 5UL));
}

static void test_cycles_to_ns(struct ktest *t)
{
	KEXPECT_EQ(t, clock_cycles_to_ns(62500000, 62500000), NSEC_PER_SEC);
	KEXPECT_EQ(t, clock_cycles_to_ns(1, 1000), 1000000);
	/* A year at 4 GHz: the naive product would overflow. */
	KEXPECT_EQ(t, clock_cycles_to_ns(126144000000000000ULL, 4000000000ULL),
		   31536000ULL * NSEC_PER_SEC);
}

static void test_msleep_advances_jiffies(struct ktest *t)
{
	unsigned long j0, d;

	KEXPECT(t, irqs_running && !irqs_disabled());
	j0 = jiffies;
	msleep(50);
	d = jiffies - j0;
	KEXPECT(t, d >= msecs_to_jiffies(50));
	KEXPECT(t, d < msecs_to_jiffies(LOOSE_MAX_MS));
}

static void test_ktime_monotonic(struct ktest *t)
{
	u64 prev = ktime_get_ns(), now;
	int backwards = 0;

	KEXPECT(t, prev > 0);
	for (int i = 0; i < 10000; i++) {
		now = ktime_get_ns();
		if (now < prev)
			backwards++;
		prev = now;
	}
	KEXPECT_EQ(t, backwards, 0);
}

/*
 * Sleeps 200 ms; whether the nanosecond clock and the ticks counted
 * meanwhile agree within a factor of two, in either direction.
 */
static bool clocks_agree_over_a_sleep(struct ktest *t)
{
	u64 t0 = ktime_get_ns(), ns;
	unsigned long j0 = jiffies, ms_by_ticks;

	msleep(200);
	ns = ktime_get_ns() - t0;
	ms_by_ticks = jiffies_to_msecs(jiffies - j0);
	KEXPECT(t, ns >= 200 * NSEC_PER_MSEC);
	KEXPECT(t, ns < LOOSE_MAX_MS * NSEC_PER_MSEC);
	if (ms_by_ticks * 2 * NSEC_PER_MSEC >= ns &&
	    ns * 2 >= ms_by_ticks * NSEC_PER_MSEC)
		return true;
	printk("        # 200 ms slept: %llu ms by the clock, %lu by the "
	       "ticks\n", ns / NSEC_PER_MSEC, ms_by_ticks);
	return false;
}

/*
 * A clock or a tick set up at the wrong rate disagrees on every try. On
 * a busy host QEMU may deliver the ticks of one sleep late or drop some
 * (i386's PIT): that does not last three sleeps in a row.
 */
static void test_ktime_agrees_with_jiffies(struct ktest *t)
{
	bool agreed = false;

	for (int try = 0; try < 3 && !agreed; try++)
		agreed = clocks_agree_over_a_sleep(t);
	KEXPECT(t, agreed);
}

static void test_udelay_waits(struct ktest *t)
{
	u64 t0 = ktime_get_ns(), ns;

	udelay(3000);
	ns = ktime_get_ns() - t0;
	KEXPECT(t, ns >= 3000000);
	KEXPECT(t, ns < LOOSE_MAX_MS * NSEC_PER_MSEC);
}

static const struct ktest_case time_cases[] = {
	KTEST_CASE(test_msecs_to_jiffies_rounds_up),
	KTEST_CASE(test_cycles_to_ns),
	KTEST_CASE(test_msleep_advances_jiffies),
	KTEST_CASE(test_ktime_monotonic),
	KTEST_CASE(test_ktime_agrees_with_jiffies),
	KTEST_CASE(test_udelay_waits),
	{ 0 },
};
KTEST_SUITE("time", time_cases);
