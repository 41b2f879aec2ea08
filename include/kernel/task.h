/*
 * What the leak collector needs from the threads, in its own terms:
 * the live part of every thread stack (its scan roots) and who is
 * allocating (for the allocation records). Implemented in kernel/thread.c
 * over <kernel/thread.h>.
 */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include <stddef.h>

/*
 * Calls fn(low, high, ctx) for the part of each thread's stack that can
 * hold live data: from the saved stack pointer to the top for a thread
 * that is switched out, from the current stack pointer for the caller,
 * the whole stack for one running on another CPU. With the thread list
 * locked and interrupts off: fn must not sleep.
 */
void task_for_each_live_stack(void (*fn)(const void *low, const void *high,
					 void *ctx),
			      void *ctx);

/*
 * The name (NUL-terminated, truncated to size) and pid of the running
 * thread; "hardirq" and 0 inside an interrupt handler.
 */
void task_current_identity(char *comm, size_t size, int *pid);

/*
 * A number that is the same for two calls exactly when
 * task_current_identity() would give the same: the same thread (not
 * just one that got the same memory later) or both in interrupt
 * handlers. Cheaper than the identity; the leak collector keeps the
 * identity with the key and copies it only when the key changes. Call
 * it with interrupts off.
 */
unsigned long task_current_key(void);

#endif
