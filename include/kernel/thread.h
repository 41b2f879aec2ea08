/*
 * Kernel threads: creation, exit, join, the list of every thread, and
 * their stacks (fixed size, filled with a pattern so that 'ps' can show
 * how deep each one has been used).
 */
#ifndef KERNEL_THREAD_H
#define KERNEL_THREAD_H

#include <kernel/list.h>
#include <kernel/types.h>
#include <kernel/wait.h>
/* <asm/thread.h>: the switch frame (SWITCH_FRAME_*), STACK_ALIGN. */
#include <asm/thread.h>

#define THREAD_NAME_LEN 16
#define THREAD_STACK_SIZE CONFIG_THREAD_STACK_SIZE

/* Fill of unused stack, and the word at its very bottom. */
#define STACK_FILL 0x57ac57acu
#define STACK_END_MAGIC 0x57ace0d0u

enum thread_state {
	THREAD_NEW,		/* created, not started (kthread_start) */
	THREAD_RUNNING,		/* on a CPU or ready to be */
	THREAD_SLEEPING,	/* waits for a wake_up_thread() */
	THREAD_DEAD,		/* exited, its stack not freed yet */
};

/* thread flags */
#define THREAD_IDLE 0x01u	/* a CPU's idle thread: never exits */
#define THREAD_BOOT 0x02u	/* the boot thread: stack is the boot stack */
#define THREAD_PINNED 0x04u	/* kthread_bind(): never leaves its CPU */

struct thread {
	struct arch_context ctx;	/* saved sp while switched out */
	int pid;
	/* Word-aligned: copied as words on every tracked allocation. */
	char name[THREAD_NAME_LEN] __aligned(sizeof(long));
	enum thread_state state;
	unsigned int flags;
	unsigned int cpu;		/* runs (or last ran) there */
	unsigned int preempt_count;	/* preempt_disable() nesting */
	unsigned int slice;		/* ticks left of its time slice */
	void *stack;			/* lowest address */
	size_t stack_size;
	/* Bytes once used, before task_wipe_dead_stack() repainted them. */
	size_t stack_deepest;
	int (*fn)(void *arg);
	void *arg;
	int exit_code;
	bool detached;			/* the reaper frees it, nobody joins */
	bool reaped;			/* stack freed; join may free the rest */
	unsigned long switches;		/* times switched in */
	struct list_head run_node;	/* run queue, or the reaper's list */
	struct list_head all_node;	/* every live thread */
	struct wait_queue_entry wait;	/* for wait_event() on any queue */
};

/*
 * A new thread that will run fn(arg), named name (truncated to
 * THREAD_NAME_LEN - 1), on this CPU. It does not run until
 * kthread_start(). Returns NULL (with a message) when memory is short.
 */
struct thread *kthread_create(int (*fn)(void *), void *arg, const char *name);
/* Lets a thread made by kthread_create() run. */
void kthread_start(struct thread *t);
/* kthread_create() + kthread_start(). */
struct thread *kthread_run(int (*fn)(void *), void *arg, const char *name);
/*
 * Pins a thread made by kthread_create() (not started yet) to an online
 * CPU for its whole life. Returns 0, or -EINVAL (with a message).
 */
int kthread_bind(struct thread *t, unsigned int cpu);

/* CPU 0's first thread, from the first instruction on; it becomes the shell. */
extern struct thread boot_thread;

/*
 * Ends the calling thread with code (returning from fn does the same).
 * Its stack is freed by the reaper thread once it has switched away.
 */
void kthread_exit(int code) __noreturn;

/*
 * Waits until t has exited and its stack is gone, frees t and returns
 * its exit code. Every thread is joined or detached exactly once;
 * -EINVAL for joining oneself or a detached thread.
 */
int kthread_join(struct thread *t, int *exit_code);
/* Nobody will join t: it is freed entirely when it exits. */
void kthread_detach(struct thread *t);

/*
 * Every thread's stack comes from here and goes back through
 * free_thread_info(): THREAD_STACK_SIZE bytes, page-aligned.
 */
void *alloc_thread_info(void);
void free_thread_info(void *stack);

/* Bytes of t's stack that have ever been used (the high-water mark). */
size_t thread_stack_used(const struct thread *t);

/*
 * Where a thread that is not running stopped: the return address into
 * the function that switched away, its frame pointer and the stack
 * pointer, for backtraces. A thread that never ran reports its entry
 * with fp = 0. False (nothing set) for a thread on a CPU right now.
 */
bool thread_saved_frame(const struct thread *t, unsigned long *pc,
			unsigned long *fp, unsigned long *sp);

/*
 * The list of every live thread (new, running, sleeping and dead ones
 * whose stack is not freed yet). Iterate with the lock held; nothing
 * in the loop may sleep:
 *
 *	unsigned long flags = thread_list_lock();
 *	for_each_thread(t)
 *		... t->stack, t->stack_size ...
 *	thread_list_unlock(flags);
 */
extern struct list_head thread_list;
unsigned long thread_list_lock(void);
void thread_list_unlock(unsigned long flags);
#define for_each_thread(t) list_for_each_entry(t, &thread_list, all_node)

/*
 * The stack of the thread whose stack holds addr: [*low, *high). False
 * when addr is on no thread stack. Safe from exception handlers: the
 * caller's own stack needs no lock, and for the others it gives up on
 * the list lock rather than deadlock on it.
 */
bool thread_stack_bounds(unsigned long addr, unsigned long *low,
			 unsigned long *high);

/* Threads in the list now. */
unsigned int nr_threads(void);

#endif
