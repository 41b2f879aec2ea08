/*
 * The scheduler: one run queue per CPU, round-robin among ready
 * threads with a time slice of CONFIG_SCHED_SLICE_MS, preemption when
 * the tick ends a slice (checked as the interrupt returns), and an idle
 * thread per CPU that halts until an interrupt. See docs/core.md.
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <kernel/compiler.h>
#include <kernel/smp.h>
#include <kernel/thread.h>

/* The thread running on each CPU; NULL for a CPU not started yet. */
extern struct thread *cpu_curr[NR_CPUS];

static inline struct thread *get_current(void)
{
	return READ_ONCE(cpu_curr[smp_processor_id()]);
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
 * Preemption off/on for this CPU (nesting). While off, the tick does not
 * switch threads; preempt_enable() switches if the tick asked to.
 */
extern unsigned int preempt_counts[NR_CPUS];

static inline unsigned int preempt_count(void)
{
	return READ_ONCE(preempt_counts[smp_processor_id()]);
}

static inline void preempt_disable(void)
{
	preempt_counts[smp_processor_id()]++;
	barrier();
}

void preempt_enable(void);

/* From the tick (timer_tick), each CPU, interrupts off. */
void sched_tick(void);
/* From irq_exit(): switches if the tick ended the time slice. */
void sched_preempt_irq(void);

/*
 * SMP bring-up: makes CPU cpu's idle thread (call on the boot CPU), and
 * then, on that CPU with interrupts off, enters it for good.
 */
int sched_init_cpu(unsigned int cpu);
void sched_enter_cpu(void) __noreturn;

/* Context switches CPU cpu has done. */
unsigned long sched_switches(unsigned int cpu);

/* Implemented by the arch (switch.S). */
void arch_switch_to(struct arch_context *prev, struct arch_context *next);
void arch_thread_start(void);

#endif
