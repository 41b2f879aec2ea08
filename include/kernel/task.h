/*
 * What the leak collector needs from the threads, in its own terms:
 * the live part of every thread stack (its scan roots), their dead part
 * wiped, and who is allocating (for the allocation records).
 * Implemented in kernel/thread.c over <kernel/thread.h>.
 */
#ifndef KERNEL_TASK_H
#define KERNEL_TASK_H

#include <stddef.h>
#include <kernel/smp.h>
#include <kernel/types.h>

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
 * Overwrites the dead part of the caller's stack, below its frame, as
 * deep as the stack has ever been used (with the stack's paint, so that
 * thread_stack_used() still tells). Code that has just held block
 * addresses in locals (a command, a test case, a report) calls it when
 * done: the next scan's frames will lie there, and a stale copy in an
 * unused slot would pass for a live reference, the classic false
 * negative of a conservative scan.
 */
void task_wipe_dead_stack(void);

/*
 * The name (NUL-terminated, truncated to size) and pid of the running
 * thread; "hardirq" and 0 inside an interrupt handler.
 */
void task_current_identity(char *comm, size_t size, int *pid);

/*
 * Per CPU, a number for who runs there: a count of the context switches
 * (from 1), and 0 while an interrupt handler runs (handlers all have the
 * identity "hardirq"). Two reads on one CPU (interrupts off at each)
 * that give the same number saw the same task_current_identity(): the
 * leak collector keeps the identity with the number and copies it again
 * only when the number moved. An interrupt leaves the thread's number as
 * it was, so a loop of allocations keeps its context through the timer
 * ticks. 64 bits, so that a count never comes round again.
 */
extern u64 task_switch_count[NR_CPUS];
/* The thread's number while an interrupt handler runs on its CPU. */
extern u64 task_switch_count_irq_saved[NR_CPUS];

/* The scheduler, interrupts off, when another thread is to run on cpu. */
static inline void task_switched(unsigned int cpu)
{
	task_switch_count[cpu]++;
}

/* The interrupt entry and exit, on the outermost handler only. */
static inline void task_irq_entered(unsigned int cpu)
{
	task_switch_count_irq_saved[cpu] = task_switch_count[cpu];
	task_switch_count[cpu] = 0;
}

static inline void task_irq_left(unsigned int cpu)
{
	task_switch_count[cpu] = task_switch_count_irq_saved[cpu];
}

#endif
