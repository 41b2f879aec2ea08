/*
 * Wait queues: threads sleep on a queue until a condition holds, and
 * whoever makes it hold calls wake_up() (from a thread or an interrupt
 * handler). The condition is checked after the sleeper is queued and
 * marked sleeping, so a wake-up in between is never lost.
 */
#ifndef KERNEL_WAIT_H
#define KERNEL_WAIT_H

#include <kernel/list.h>
#include <kernel/spinlock.h>

struct thread;

struct wait_queue_head {
	struct spinlock lock;
	struct list_head waiters;
};

struct wait_queue_entry {
	struct thread *thread;
	struct list_head node;	/* empty when on no queue */
};

#define WAIT_QUEUE_HEAD_INIT(name) { SPINLOCK_INIT, LIST_HEAD_INIT((name).waiters) }
#define DEFINE_WAIT_QUEUE(name) \
	struct wait_queue_head name = WAIT_QUEUE_HEAD_INIT(name)

void init_waitqueue_head(struct wait_queue_head *wq);

/* Wakes every thread waiting on wq; returns how many were asleep. */
int wake_up(struct wait_queue_head *wq);

/*
 * The steps of wait_event(): queue the calling thread and mark it
 * sleeping, then (after checking the condition) schedule(), and at the
 * end leave the queue, running again.
 */
void prepare_to_wait(struct wait_queue_head *wq);
void finish_wait(struct wait_queue_head *wq);

/* schedule_timeout() from <kernel/sched.h>, declared here for the macro. */
long schedule_timeout(long ticks);
void schedule(void);

/*
 * Sleeps until cond is true. Only from a thread (not an interrupt
 * handler), with interrupts on.
 */
#define wait_event(wq, cond)                                    \
	do {                                                    \
		if (cond)                                       \
			break;                                  \
		for (;;) {                                      \
			prepare_to_wait(&(wq));                 \
			if (cond)                               \
				break;                          \
			schedule();                             \
		}                                               \
		finish_wait(&(wq));                             \
	} while (0)

/*
 * Sleeps until cond is true or ticks jiffies have passed. Returns the
 * ticks left (at least 1) when cond became true, 0 on timeout.
 */
#define wait_event_timeout(wq, cond, ticks)                     \
	({                                                      \
		long __left = (ticks);                          \
		if (!(cond)) {                                  \
			for (;;) {                              \
				prepare_to_wait(&(wq));         \
				if (cond)                       \
					break;                  \
				__left = schedule_timeout(__left); \
				if (__left == 0) {              \
					if (cond)               \
						__left = 1;     \
					break;                  \
				}                               \
			}                                       \
			finish_wait(&(wq));                     \
		} else if (__left == 0) {                       \
			__left = 1;                             \
		}                                               \
		__left;                                         \
	})

#endif
