/*
 * The scheduler: one run queue per CPU, round-robin among ready
 * threads with a time slice of CONFIG_SCHED_SLICE_MS, preemption when
 * the tick ends a slice (checked as the interrupt returns), and an idle
 * thread per CPU that halts until an interrupt. A new thread goes to
 * the least busy online CPU (unless kthread_bind() pinned it), and an
 * idle CPU takes ready threads over from busy ones. See docs/core.md.
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <kernel/compiler.h>
#include <kernel/smp.h>
#include <kernel/thread.h>

/*
 * The thread running on each CPU; NULL for a CPU not started yet. For
 * other CPUs' eyes ('ps', 'cpus', backtraces): the running thread finds
 * itself through a per-CPU register instead (<asm/arch.h>).
 */
extern struct thread *cpu_curr[NR_CPUS];

/*
 * The calling thread: one instruction (i386 %fs:4, ARM TPIDRURO), so it
 * is right even if the thread moves to another CPU right after.
 */
static inline struct thread *get_current(void)
{
	return arch_current();
}
#define current get_current()

/* True once sched_init() has made the idle thread(s). */
extern bool sched_running;

/*
 * Gives the CPU to the next ready thread. A thread that set itself
 * sleeping (set_current_state) stays off the CPU until woken; a
 * running one goes to the back of its run queue (that is yield()).
 * Not from interrupt handlers, nor with preemption disabled.
 */
void schedule(void);
void yield(void);

/*
 * Marks the calling thread sleeping (or running again) before it checks
 * its wake-up condition and calls schedule(); the barrier orders the
 * store before the check.
 */
static inline void set_current_state(enum thread_state state)
{
	WRITE_ONCE(current->state, state);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/*
 * Makes a sleeping thread ready again; true if it was asleep. Safe from
 * interrupt handlers and any CPU.
 */
bool wake_up_thread(struct thread *t);

/*
 * Sleeps (state set by the caller, as for schedule()) for at most ticks
 * jiffies; returns the ticks left when woken early, 0 on timeout.
 */
long schedule_timeout(long ticks);

/*
 * Preemption: preempt_disable()/preempt_enable() (declared in
 * <kernel/spinlock.h>, since every spinlock uses them) nest in a count
 * kept in the calling thread, which therefore never moves CPU with it.
 * While the count is above 0 the tick does not switch threads;
 * preempt_enable() switches at 0 if the tick or a wake-up asked to.
 */
unsigned int preempt_count(void);

/* From the tick (timer_tick), each CPU, interrupts off. */
void sched_tick(void);
/* From irq_exit(): switches if the tick ended the time slice. */
void sched_preempt_irq(void);

/*
 * SMP bring-up: makes CPU cpu's idle thread (call on the boot CPU), and
 * then, on that CPU with interrupts off, enters it for good. The new
 * CPU starts out on its idle thread's stack, below the first frame
 * sched_idle_thread(cpu)->ctx.sp points at, with that thread current.
 */
int sched_init_cpu(unsigned int cpu);
struct thread *sched_idle_thread(unsigned int cpu);
void sched_enter_cpu(void) __noreturn;

/* Context switches CPU cpu has done. */
unsigned long sched_switches(unsigned int cpu);
/* Threads ready to run on cpu's queue (not counting the running one). */
unsigned int sched_nr_ready(unsigned int cpu);
/* Threads an idle cpu took over from busier CPUs' queues. */
unsigned long sched_migrations(unsigned int cpu);

/* Implemented by the arch (switch.S). */
void arch_switch_to(struct arch_context *prev, struct arch_context *next);
void arch_thread_start(void);

#endif
