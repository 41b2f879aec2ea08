/* Self-tests of mutexes: exclusion under contention, ownership rules. */
#include <kernel/ktest.h>
#include <kernel/errno.h>
#include <kernel/mutex.h>
#include <kernel/sched.h>
#include <kernel/thread.h>
#include <kernel/time.h>
#include <kernel/wait.h>

#define NR_RACERS 4
#define ROUNDS 300

struct race_ctx {
	struct mutex lock;
	unsigned long counter;
	int inside;		/* threads inside the critical section */
	int max_inside;
	/* The racers start together: see test_counter_race(). */
	struct wait_queue_head gate;
	int arrived;
	bool open;
};

/* Read, yield, write back: without the mutex, increments get lost. */
static int race(void *arg)
{
	struct race_ctx *r = arg;

	__atomic_fetch_add(&r->arrived, 1, __ATOMIC_SEQ_CST);
	wait_event(r->gate, READ_ONCE(r->open));
	for (int i = 0; i < ROUNDS; i++) {
		unsigned long v;

		mutex_lock(&r->lock);
		if (++r->inside > r->max_inside)
			r->max_inside = r->inside;
		v = r->counter;
		yield();
		r->counter = v + 1;
		r->inside--;
		mutex_unlock(&r->lock);
	}
	return 0;
}

static void test_counter_race(struct ktest *t)
{
	static struct race_ctx r;
	struct thread *ts[NR_RACERS];
	int started = 0;

	mutex_init(&r.lock, "ktest-race");
	r.counter = 0;
	r.inside = r.max_inside = 0;
	init_waitqueue_head(&r.gate);
	r.arrived = 0;
	r.open = false;
	/*
	 * All on CPU 0, let go together once all wait at the gate: the
	 * yield inside the critical section must hand the CPU to a racer
	 * that then blocks, whatever CPU this runs on and however late
	 * (kernel/smp_test.c races the CPUs against each other).
	 */
	for (int i = 0; i < NR_RACERS; i++) {
		ts[i] = kthread_create(race, &r, "kt-race");
		if (ts[i] && kthread_bind(ts[i], 0))
			ts[i] = NULL;
		if (ts[i]) {
			kthread_start(ts[i]);
			started++;
		}
	}
	while (__atomic_load_n(&r.arrived, __ATOMIC_SEQ_CST) < started)
		msleep(1);
	WRITE_ONCE(r.open, true);
	wake_up(&r.gate);
	for (int i = 0; i < NR_RACERS; i++)
		KEXPECT(t, ts[i] && kthread_join(ts[i], NULL) == 0);
	KEXPECT_EQ(t, r.counter, NR_RACERS * ROUNDS);
	KEXPECT_EQ(t, r.max_inside, 1);
	KEXPECT(t, r.lock.contended > 0);	/* the yields made them wait */
	KEXPECT(t, !mutex_is_locked(&r.lock));
}

struct hold_ctx {
	struct mutex *m;
	volatile bool release;
};

static int hold_until_told(void *arg)
{
	struct hold_ctx *h = arg;

	mutex_lock(h->m);
	while (!h->release)
		msleep(5);
	return mutex_unlock(h->m);
}

static void test_unlock_by_non_owner_refused(struct ktest *t)
{
	DEFINE_MUTEX(m);
	struct hold_ctx h = { &m, false };
	unsigned long misuse0 = mutex_misuse_count();
	struct thread *holder;
	int code = -1;

	KEXPECT_EQ(t, mutex_unlock(&m), -EPERM);	/* free mutex */
	holder = kthread_run(hold_until_told, &h, "kt-holder");
	KEXPECT(t, holder != NULL);
	if (!holder)
		return;
	/* It may run on another CPU, which the host may hold back a while. */
	for (int polls = 0; polls < 100 && READ_ONCE(m.owner) != holder;
	     polls++)
		msleep(10);
	KEXPECT(t, m.owner == holder);
	KEXPECT(t, !mutex_trylock(&m));
	KEXPECT_EQ(t, mutex_unlock(&m), -EPERM);
	KEXPECT(t, m.owner == holder);			/* still held */
	KEXPECT_EQ(t, mutex_misuse_count(), misuse0 + 2);
	h.release = true;
	KEXPECT_EQ(t, kthread_join(holder, &code), 0);
	KEXPECT_EQ(t, code, 0);
	KEXPECT(t, mutex_trylock(&m));
	KEXPECT_EQ(t, mutex_unlock(&m), 0);
}

static const struct ktest_case mutex_cases[] = {
	KTEST_CASE(test_counter_race),
	KTEST_CASE(test_unlock_by_non_owner_refused),
	{ 0 },
};
KTEST_SUITE("mutex", mutex_cases);
