/* Between kernel/sched.c and kernel/thread.c only. */
#ifndef KERNEL_SCHED_INTERNAL_H
#define KERNEL_SCHED_INTERNAL_H

#include <kernel/thread.h>

/* thread.c: hands a thread that just died to the reaper. */
void thread_reap_later(struct thread *t);
/* thread.c: CPU cpu's idle thread, running fn; NULL without memory. */
struct thread *thread_create_idle(unsigned int cpu, int (*fn)(void *));
/* thread.c: the thread cache, the boot stack's fill, the reaper. */
void thread_boot_init(void);

/* sched.c: a new thread joins its CPU's run queue. */
void sched_start_thread(struct thread *t);
/* sched.c: the C side of arch_thread_start(). */
void thread_entry(void) __noreturn;

#endif
