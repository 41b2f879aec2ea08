/* Self-tests of the scheduler: sleep and wake-up, timeouts, preemption. */
#include <kernel/ktest.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/thread.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include <kernel/wait.h>

struct waiter_ctx {
	struct wait_queue_head wq;
	bool go;
};

static int wait_for_go(void *arg)
{
	struct waiter_ctx *w = arg;

	wait_event(w->wq, READ_ONCE(w->go));
	return 42;
}

static void test_wait_queue_sleep_and_wake(struct ktest *t)
{
	struct waiter_ctx w = { .go = false };
	struct thread *a, *b;
	int code_a = 0, code_b = 0;

	init_waitqueue_head(&w.wq);
	a = kthread_run(wait_for_go, &w, "kt-wait-a");
	b = kthread_run(wait_for_go, &w, "kt-wait-b");
	KEXPECT(t, a && b);
	if (!a || !b)
		return;
	msleep(30);
	KEXPECT_EQ(t, a->state, THREAD_SLEEPING);
	KEXPECT_EQ(t, b->state, THREAD_SLEEPING);
	/* A wake-up with the condition still false: back to sleep. */
	KEXPECT_EQ(t, wake_up(&w.wq), 2);
	msleep(30);
	KEXPECT_EQ(t, a->state, THREAD_SLEEPING);
	WRITE_ONCE(w.go, true);
	KEXPECT_EQ(t, wake_up(&w.wq), 2);
	KEXPECT_EQ(t, kthread_join(a, &code_a), 0);
	KEXPECT_EQ(t, kthread_join(b, &code_b), 0);
	KEXPECT_EQ(t, code_a, 42);
	KEXPECT_EQ(t, code_b, 42);
	KEXPECT_EQ(t, wake_up(&w.wq), 0);	/* nobody left */
}

static void test_wait_event_timeout(struct ktest *t)
{
	DEFINE_WAIT_QUEUE(wq);
	unsigned long j0 = jiffies;
	long left;
	bool never = false;

	left = wait_event_timeout(wq, READ_ONCE(never), msecs_to_jiffies(50));
	KEXPECT_EQ(t, left, 0);
	KEXPECT(t, jiffies - j0 >= msecs_to_jiffies(50));
	KEXPECT(t, wait_event_timeout(wq, true, 5) > 0);
	KEXPECT_EQ(t, current->state, THREAD_RUNNING);
}

struct timer_ctx {
	int fired;
	unsigned long at;
};

static void note_fired(struct timer *timer)
{
	struct timer_ctx *c = timer->data;

	c->fired++;
	c->at = jiffies;
}

static void test_timers(struct ktest *t)
{
	struct timer_ctx c1 = { 0 }, c2 = { 0 };
	struct timer t1, t2;
	unsigned long due = jiffies + 3;

	timer_init(&t1, note_fired, &c1);
	timer_init(&t2, note_fired, &c2);
	timer_add(&t1, due);
	timer_add(&t2, due + 1000);
	msleep(100);
	KEXPECT_EQ(t, c1.fired, 1);
	KEXPECT(t, time_after_eq(c1.at, due));
	KEXPECT(t, !timer_del(&t1));	/* already ran */
	KEXPECT(t, timer_del(&t2));	/* still pending */
	KEXPECT_EQ(t, c2.fired, 0);
}

struct spinner_ctx {
	volatile unsigned long count;
	volatile bool stop;
};

static int spin_until_stopped(void *arg)
{
	struct spinner_ctx *s = arg;

	while (!s->stop)
		s->count++;
	return 0;
}

/* Two threads that never yield: only the tick can share the CPU. */
static void test_preemption(struct ktest *t)
{
	struct spinner_ctx a = { 0 }, b = { 0 };
	struct thread *ta = kthread_run(spin_until_stopped, &a, "kt-spin-a");
	struct thread *tb = kthread_run(spin_until_stopped, &b, "kt-spin-b");
	unsigned long a1, b1, switches0 = sched_switches(0);

	KEXPECT(t, ta && tb);
	if (!ta || !tb)
		return;
	msleep(200);
	a1 = a.count;
	b1 = b.count;
	msleep(200);
	KEXPECT(t, a1 > 0 && b1 > 0);
	KEXPECT(t, a.count > a1 && b.count > b1);
	/* Slices of CONFIG_SCHED_SLICE_MS: several switches in 400 ms. */
	KEXPECT(t, sched_switches(0) - switches0 >= 4);
	a.stop = b.stop = true;
	KEXPECT_EQ(t, kthread_join(ta, NULL), 0);
	KEXPECT_EQ(t, kthread_join(tb, NULL), 0);
}

struct yield_ctx {
	int turns;
	volatile int *last;
	int me;
	int alternations;
};

static int yield_a_lot(void *arg)
{
	struct yield_ctx *y = arg;

	for (int i = 0; i < y->turns; i++) {
		if (*y->last != y->me)
			y->alternations++;
		*y->last = y->me;
		yield();
	}
	return 0;
}

static void test_yield_shares_cpu(struct ktest *t)
{
	volatile int last = 0;
	struct yield_ctx a = { 200, &last, 1, 0 }, b = { 200, &last, 2, 0 };
	struct thread *ta = kthread_run(yield_a_lot, &a, "kt-yield-a");
	struct thread *tb = kthread_run(yield_a_lot, &b, "kt-yield-b");

	KEXPECT(t, ta && tb);
	if (!ta || !tb)
		return;
	KEXPECT_EQ(t, kthread_join(ta, NULL), 0);
	KEXPECT_EQ(t, kthread_join(tb, NULL), 0);
	/* Each yield hands over to the other: they mostly alternate. */
	KEXPECT(t, a.alternations + b.alternations > 200);
}

static int yield_n(void *arg)
{
	for (long i = (long)arg; i > 0; i--)
		yield();
	return 0;
}

/* Two threads yielding to each other: every yield is one switch. */
static void test_switch_cost(struct ktest *t)
{
	const long n = 2000;
	unsigned long switches0 = sched_switches(0);
	u64 t0 = ktime_get_ns(), ns;
	struct thread *a = kthread_run(yield_n, (void *)n, "kt-pingpong-a");
	struct thread *b = kthread_run(yield_n, (void *)n, "kt-pingpong-b");
	unsigned long switches;

	KEXPECT(t, a && b);
	if (!a || !b)
		return;
	KEXPECT_EQ(t, kthread_join(a, NULL), 0);
	KEXPECT_EQ(t, kthread_join(b, NULL), 0);
	ns = ktime_get_ns() - t0;
	switches = sched_switches(0) - switches0;
	KEXPECT(t, switches >= (unsigned long)n);
	printk("    # %lu switches in %llu us: %llu ns per yield and switch\n",
	       switches, ns / 1000, switches ? ns / switches : 0);
}

static void test_preempt_disable_nests(struct ktest *t)
{
	unsigned int before = preempt_count();

	preempt_disable();
	preempt_disable();
	KEXPECT_EQ(t, preempt_count(), before + 2);
	preempt_enable();
	preempt_enable();
	KEXPECT_EQ(t, preempt_count(), before);
}

static const struct ktest_case sched_cases[] = {
	KTEST_CASE(test_wait_queue_sleep_and_wake),
	KTEST_CASE(test_wait_event_timeout),
	KTEST_CASE(test_timers),
	KTEST_CASE(test_preemption),
	KTEST_CASE(test_yield_shares_cpu),
	KTEST_CASE(test_switch_cost),
	KTEST_CASE(test_preempt_disable_nests),
	{ 0 },
};
KTEST_SUITE("sched", sched_cases);
