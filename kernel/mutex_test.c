/* Self-tests of mutexes: exclusion under contention, ownership rules. */
#include <kernel/ktest.h>
#include <kernel/errno.h>
#include <kernel/mutex.h>
#include <kernel/sched.h>
#include <kernel/thread.h>
#include <kernel/time.h>

#define NR_RACERS 4
#define ROUNDS 300

struct race_ctx {
	struct mutex lock;
	unsigned long counter;
	int inside;		/* threads inside the critical section */
	int max_inside;
};

/* Read, yield, write back: without the mutex, increments get lost. */
static int race(void *arg)
{
	struct race_ctx *r = arg;

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

	mutex_init(&r.lock, "ktest-race");
	r.counter = 0;
	r.inside = r.max_inside = 0;
	for (int i = 0; i < NR_RACERS; i++)
		ts[i] = kthread_run(race, &r, "kt-race");
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
	msleep(30);
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
