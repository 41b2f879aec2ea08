/*
 * Sleeping mutexes: the owner is tracked, waiters sleep in FIFO order
 * and the lock is handed straight to the first of them on unlock, so
 * nobody starves. Unlocking a mutex one does not hold is refused with a
 * warning. Threads only: never from an interrupt handler.
 */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include <kernel/list.h>
#include <kernel/spinlock.h>

struct thread;

struct mutex {
	struct spinlock lock;		/* protects owner and waiters */
	struct thread *owner;		/* NULL when free */
	struct list_head waiters;
	const char *name;
	unsigned long contended;	/* lock calls that had to sleep */
};

#define MUTEX_INIT(m, n) { SPINLOCK_INIT, NULL, LIST_HEAD_INIT((m).waiters), n, 0 }
#define DEFINE_MUTEX(m) struct mutex m = MUTEX_INIT(m, #m)

void mutex_init(struct mutex *m, const char *name);
void mutex_lock(struct mutex *m);
/* True when it took the mutex without waiting. */
bool mutex_trylock(struct mutex *m);
/* Returns 0, or -EPERM (and a warning) when the caller is not the owner. */
int mutex_unlock(struct mutex *m);
bool mutex_is_locked(struct mutex *m);
/* Warnings printed for unlocks by non-owners so far (tests). */
unsigned long mutex_misuse_count(void);

#endif
