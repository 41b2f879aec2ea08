/* Self-tests of the interrupt layer: registration, sharing, dispatch. */
#include <kernel/ktest.h>
#include <kernel/errno.h>
#include <kernel/irq.h>
#include <kernel/smp.h>
#include <kernel/time.h>

struct tick_counter {
	unsigned long calls;		/* on CPU 0 */
	unsigned long all_calls;	/* on every CPU (the line is per-CPU) */
	unsigned long in_irq_calls;	/* calls that saw in_irq() */
	unsigned long irqs_off_calls;	/* calls with interrupts off */
};

/* Every CPU's tick calls it, one at a time under the line's lock. */
static enum irqreturn count_tick(unsigned int irq, void *data)
{
	struct tick_counter *c = data;

	(void)irq;
	c->calls += smp_processor_id() == 0;
	c->all_calls++;
	c->in_irq_calls += in_irq();
	c->irqs_off_calls += irqs_disabled();
	return IRQ_NONE;	/* the tick is not ours: the timer claims it */
}

static void test_handler_counts_ticks(struct ktest *t)
{
	struct tick_counter c = { 0 };
	unsigned long ticks0 = tick_count(0), ticks;
	unsigned long count0 = irq_count(tick_irq, 0), registered, removed;
	int err;

	err = request_irq(tick_irq, count_tick, IRQF_SHARED | IRQF_PERCPU,
			  "ktest-tick", &c);
	KEXPECT_EQ(t, err, 0);
	registered = irq_count(tick_irq, 0);
	msleep(100);
	removed = irq_count(tick_irq, 0);
	free_irq(tick_irq, &c);
	ticks = tick_count(0) - ticks0;
	/*
	 * Called at every tick of CPU 0 while registered: all of its ticks
	 * between the two counts taken inside that window, but one at each
	 * end. The registration and its removal may take several ticks (a
	 * background scan holding the collector's lock, or stopping the
	 * world: memleak scan=1 on 4 CPUs), so the window is not counted
	 * from before them. Not counted against the time slept either: on
	 * a loaded host a late ARM tick accounts for several periods in one
	 * interrupt (memleak_smp.t, once, with two QEMUs of 4 CPUs on 2
	 * cores, saw fewer than 5 calls in 100 ms).
	 */
	KEXPECT(t, READ_ONCE(c.calls) >= 1);
	KEXPECT(t, c.calls + 2 >= removed - registered);
	/* A late ARM tick may account for several periods in one call. */
	KEXPECT(t, c.calls <= ticks + 1);
	KEXPECT(t, irq_count(tick_irq, 0) - count0 >= c.calls);
	KEXPECT(t, c.all_calls >= c.calls);
	KEXPECT_EQ(t, c.in_irq_calls, c.all_calls);
	KEXPECT_EQ(t, c.irqs_off_calls, c.all_calls);
	/* Removed: no more calls. */
	ticks = c.all_calls;
	msleep(30);
	KEXPECT_EQ(t, c.all_calls, ticks);
}

static enum irqreturn never_called(unsigned int irq, void *data)
{
	(void)irq;
	(void)data;
	return IRQ_NONE;
}

static void test_request_irq_errors(struct ktest *t)
{
	int dummy;

	KEXPECT_EQ(t, request_irq(NR_IRQS, never_called, 0, "ktest", &dummy),
		   -EINVAL);
	KEXPECT_EQ(t, request_irq(tick_irq, NULL, IRQF_SHARED, "ktest",
				  &dummy), -EINVAL);
	/* The tick is shared, but a newcomer that does not say so fails. */
	KEXPECT_EQ(t, request_irq(tick_irq, never_called, IRQF_PERCPU,
				  "ktest", &dummy), -EBUSY);
	/* Sharing must agree on being per CPU. */
	KEXPECT_EQ(t, request_irq(tick_irq, never_called, IRQF_SHARED,
				  "ktest", &dummy), -EBUSY);
	KEXPECT_EQ(t, irq_count(NR_IRQS, 0), 0);
}

static void test_not_in_irq_here(struct ktest *t)
{
	unsigned long flags;

	KEXPECT(t, !in_irq());
	KEXPECT(t, !irqs_disabled());
	flags = irq_save();
	KEXPECT(t, irqs_disabled());
	irq_restore(flags);
	KEXPECT(t, !irqs_disabled());
}

static const struct ktest_case irq_cases[] = {
	KTEST_CASE(test_handler_counts_ticks),
	KTEST_CASE(test_request_irq_errors),
	KTEST_CASE(test_not_in_irq_here),
	{ 0 },
};
KTEST_SUITE("irq", irq_cases);
