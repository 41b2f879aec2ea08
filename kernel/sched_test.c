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

/*
 * Whether both threads sleep within a second. They may run on other
 * CPUs, which the host may hold back for a while: a fixed pause is not
 * enough to know they got there.
 */
static bool both_asleep_soon(const struct thread *a, const struct thread *b)
{
	for (int polls = 0; polls < 100; polls++) {
		if (READ_ONCE(a->state) == THREAD_SLEEPING &&
		    READ_ONCE(b->state) == THREAD_SLEEPING)
			return true;
		msleep(10);
	}
	return false;
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
	KEXPECT(t, both_asleep_soon(a, b));
	/* A wake-up with the condition still false: back to sleep. */
	KEXPECT_EQ(t, wake_up(&w.wq), 2);
	KEXPECT(t, both_asleep_soon(a, b));
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

/*
 * The tests of one CPU's round-robin run a pair of threads on CPU 0,
 * where sched_switches(0) counts: elsewhere they would each get a CPU.
 * The caller may run on another CPU, one the host can hold back for
 * milliseconds, so the pair waits at a gate until both are there, and
 * then both are woken at once.
 */
struct pair_member {
	struct pair *pair;
	void *arg;
	struct thread *t;
};

struct pair {
	struct wait_queue_head gate;
	int arrived;
	bool open;
	int (*fn)(void *arg);
	struct pair_member m[2];
	u64 opened_ns;			/* when both were let go */
	unsigned long switches_at_open;	/* sched_switches(0) then */
};

static int pair_entry(void *arg)
{
	struct pair_member *m = arg;
	struct pair *p = m->pair;

	__atomic_fetch_add(&p->arrived, 1, __ATOMIC_SEQ_CST);
	wait_event(p->gate, READ_ONCE(p->open));
	return p->fn(m->arg);
}

static bool run_pair_on_cpu0(struct pair *p, int (*fn)(void *), void *arg_a,
			     void *arg_b, const char *name)
{
	init_waitqueue_head(&p->gate);
	p->arrived = 0;
	p->open = false;
	p->fn = fn;
	p->m[0] = (struct pair_member){ p, arg_a, NULL };
	p->m[1] = (struct pair_member){ p, arg_b, NULL };
	for (int i = 0; i < 2; i++) {
		p->m[i].t = kthread_create(pair_entry, &p->m[i], name);
		if (!p->m[i].t || kthread_bind(p->m[i].t, 0))
			return false;
	}
	kthread_start(p->m[0].t);
	kthread_start(p->m[1].t);
	while (__atomic_load_n(&p->arrived, __ATOMIC_SEQ_CST) < 2)
		msleep(1);
	p->opened_ns = ktime_get_ns();
	p->switches_at_open = sched_switches(0);
	WRITE_ONCE(p->open, true);
	wake_up(&p->gate);
	return true;
}

/* Joins both; true when both were joined. */
static bool join_pair(struct pair *p)
{
	return kthread_join(p->m[0].t, NULL) == 0 &&
	       kthread_join(p->m[1].t, NULL) == 0;
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

/*
 * Whether both spinners count past a1 and b1 within 5 s. Not a timing
 * check: a loaded host may stop a virtual CPU for hundreds of ms, and a
 * fixed wait then saw one spinner not move (under memleak_smp.t's load).
 */
static bool both_pass(struct spinner_ctx *a, struct spinner_ctx *b,
		      unsigned long a1, unsigned long b1)
{
	for (unsigned int ms = 0; ms < 5000; ms += 100) {
		msleep(100);
		if (a->count > a1 && b->count > b1)
			return true;
	}
	return false;
}

/* Two threads that never yield: only the tick can share the CPU. */
static void test_preemption(struct ktest *t)
{
	struct spinner_ctx a = { 0 }, b = { 0 };
	unsigned long a1, b1, switches0 = sched_switches(0);
	struct pair p;
	bool started = run_pair_on_cpu0(&p, spin_until_stopped, &a, &b,
					"kt-spin");

	KEXPECT(t, started);
	if (!started)
		return;
	KEXPECT(t, both_pass(&a, &b, 0, 0));
	a1 = a.count;
	b1 = b.count;
	KEXPECT(t, both_pass(&a, &b, a1, b1));
	/* Slices of CONFIG_SCHED_SLICE_MS: several switches meanwhile. */
	KEXPECT(t, sched_switches(0) - switches0 >= 4);
	a.stop = b.stop = true;
	KEXPECT(t, join_pair(&p));
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
	struct pair p;
	bool started = run_pair_on_cpu0(&p, yield_a_lot, &a, &b, "kt-yield");

	KEXPECT(t, started);
	if (!started)
		return;
	KEXPECT(t, join_pair(&p));
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
	unsigned long switches;
	struct pair p;
	bool started = run_pair_on_cpu0(&p, yield_n, (void *)n, (void *)n,
					"kt-pingpong");
	u64 ns;

	KEXPECT(t, started);
	if (!started)
		return;
	KEXPECT(t, join_pair(&p));
	ns = ktime_get_ns() - p.opened_ns;
	switches = sched_switches(0) - p.switches_at_open;
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
