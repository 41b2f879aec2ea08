/*
 * The scheduler: per-CPU run queues, round-robin with a time slice,
 * preemption from the tick, the idle threads, and the context switch
 * around the arch's arch_switch_to().
 *
 * A run queue holds the ready threads of its CPU; the running thread
 * (rq->curr) and the idle thread are not on it. A thread's state is
 * changed by the thread itself (set_current_state) or, under its run
 * queue's lock, by wake_up_thread(). The run queue lock is held, with
 * interrupts off, across the switch: the thread switched to releases it
 * (finish_switch), so a waker on another CPU never sees a half-switched
 * thread.
 *
 * Lock order: a wait queue's or a mutex's lock, then a run queue's lock.
 * Nothing is taken under a run queue lock.
 */
#include <kernel/sched.h>
#include <kernel/initcall.h>
#include <kernel/irq.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include "sched_internal.h"

struct runqueue {
	struct spinlock lock;
	struct list_head ready;
	struct thread *curr;
	struct thread *idle;
	struct thread *prev;	/* switched away from; for finish_switch() */
	bool need_resched;	/* the tick or a wake-up asks for a switch */
	unsigned long switches;
};

/* Ticks a thread runs before the next ready one gets the CPU. */
#define SLICE_TICKS max(1ul, msecs_to_jiffies(CONFIG_SCHED_SLICE_MS))

static struct runqueue runqueues[NR_CPUS];
struct thread *cpu_curr[NR_CPUS] = { [0] = &boot_thread };
unsigned int preempt_counts[NR_CPUS];
bool sched_running;

static struct runqueue *this_rq(void)
{
	return &runqueues[smp_processor_id()];
}

static struct thread *pick_next(struct runqueue *rq)
{
	struct thread *t;

	if (list_empty(&rq->ready))
		return rq->idle;
	t = list_first_entry(&rq->ready, struct thread, run_node);
	list_del_init(&t->run_node);
	return t;
}

static void check_stack_end(const struct thread *t)
{
	if (t->stack && *(const u32 *)t->stack != STACK_END_MAGIC)
		panic("stack overflow: thread %s (pid %d) wrote below its "
		      "%zu-byte stack at %p", t->name, t->pid, t->stack_size,
		      t->stack);
}

/*
 * First thing on the thread switched to (in schedule() or, for a new
 * thread, thread_entry()): releases the run queue and passes a thread
 * that just died to the reaper, now that its stack is out of use.
 */
static void finish_switch(void)
{
	struct runqueue *rq = this_rq();
	struct thread *prev = rq->prev;

	rq->prev = NULL;
	spin_unlock(&rq->lock);
	if (prev && prev->state == THREAD_DEAD)
		thread_reap_later(prev);
}

/* Whether prev goes back on the run queue. */
static bool keep_ready(const struct runqueue *rq, const struct thread *prev,
		       bool preempt)
{
	if (prev == rq->idle || prev->state == THREAD_DEAD)
		return false;
	/*
	 * Preempted between set_current_state() and schedule(): it is
	 * still running its wait loop, so it must get the CPU back.
	 */
	return prev->state == THREAD_RUNNING || preempt;
}

static void switch_to(struct runqueue *rq, struct thread *prev,
		      struct thread *next)
{
	unsigned int cpu = smp_processor_id();

	check_stack_end(prev);
	next->cpu = cpu;
	next->switches++;
	rq->curr = next;
	rq->prev = prev;
	rq->switches++;
	WRITE_ONCE(cpu_curr[cpu], next);
	arch_switch_to(&prev->ctx, &next->ctx);
	/* Back on prev's stack, maybe much later. */
	finish_switch();
}

static void __schedule(bool preempt)
{
	unsigned long flags = irq_save();
	struct runqueue *rq = this_rq();
	struct thread *prev, *next;

	spin_lock(&rq->lock);
	prev = rq->curr;
	rq->need_resched = false;
	if (keep_ready(rq, prev, preempt))
		list_add_tail(&prev->run_node, &rq->ready);
	next = pick_next(rq);
	next->slice = SLICE_TICKS;
	if (next == prev)
		spin_unlock(&rq->lock);
	else
		switch_to(rq, prev, next);
	irq_restore(flags);
}

void schedule(void)
{
	unsigned int cpu = smp_processor_id();

	if (!READ_ONCE(sched_running))
		return;
	if (in_irq())
		panic("schedule() called from an interrupt handler");
	if (preempt_counts[cpu]) {
		printk("warning: thread %s (pid %d) sleeps with preemption "
		       "disabled (count %u)\n", current->name, current->pid,
		       preempt_counts[cpu]);
		preempt_counts[cpu] = 0;
	}
	__schedule(false);
}

void yield(void)
{
	schedule();
}

bool wake_up_thread(struct thread *t)
{
	struct runqueue *rq = &runqueues[t->cpu];
	unsigned long flags = spin_lock_irqsave(&rq->lock);
	bool woke = t->state == THREAD_SLEEPING;

	if (woke) {
		t->state = THREAD_RUNNING;
		if (t != rq->curr && list_empty(&t->run_node)) {
			list_add_tail(&t->run_node, &rq->ready);
			if (rq->curr == rq->idle)
				rq->need_resched = true;
		}
	}
	spin_unlock_irqrestore(&rq->lock, flags);
	return woke;
}

void sched_start_thread(struct thread *t)
{
	struct runqueue *rq = &runqueues[t->cpu];
	unsigned long flags = spin_lock_irqsave(&rq->lock);

	t->state = THREAD_RUNNING;
	list_add_tail(&t->run_node, &rq->ready);
	if (rq->curr == rq->idle)
		rq->need_resched = true;
	spin_unlock_irqrestore(&rq->lock, flags);
}

static void timeout_expired(struct timer *timer)
{
	wake_up_thread(timer->data);
}

long schedule_timeout(long ticks)
{
	struct timer timer;
	unsigned long expires;
	long left;

	if (ticks <= 0) {
		set_current_state(THREAD_RUNNING);
		return 0;
	}
	expires = jiffies + ticks;
	timer_init(&timer, timeout_expired, current);
	timer_add(&timer, expires);
	schedule();
	timer_del(&timer);
	left = (long)(expires - jiffies);
	return left > 0 ? left : 0;
}

void preempt_enable(void)
{
	unsigned int cpu = smp_processor_id();

	barrier();
	if (preempt_counts[cpu] == 0) {
		printk("warning: preempt_enable() without preempt_disable() "
		       "in %s\n", current->name);
		return;
	}
	if (--preempt_counts[cpu] == 0 && READ_ONCE(sched_running) &&
	    READ_ONCE(this_rq()->need_resched) && !irqs_disabled() &&
	    !in_irq())
		__schedule(true);
}

void sched_tick(void)
{
	struct runqueue *rq = this_rq();
	struct thread *curr;

	if (!READ_ONCE(sched_running) || !rq->curr)
		return;
	spin_lock(&rq->lock);
	curr = rq->curr;
	if (curr->slice > 1 && curr != rq->idle) {
		curr->slice--;
	} else if (!list_empty(&rq->ready)) {
		curr->slice = 0;
		rq->need_resched = true;
	} else {
		curr->slice = SLICE_TICKS;	/* alone: carry on */
	}
	spin_unlock(&rq->lock);
}

void sched_preempt_irq(void)
{
	struct runqueue *rq = this_rq();

	if (READ_ONCE(sched_running) && rq->curr &&
	    READ_ONCE(rq->need_resched) && preempt_count() == 0)
		__schedule(true);
}

unsigned long sched_switches(unsigned int cpu)
{
	return cpu < NR_CPUS ? READ_ONCE(runqueues[cpu].switches) : 0;
}

/* Each CPU's idle thread: halts until an interrupt when nothing is ready. */
static int idle_loop(void *unused)
{
	(void)unused;
	for (;;) {
		struct runqueue *rq;

		irq_disable();
		rq = this_rq();
		if (!READ_ONCE(rq->need_resched) && list_empty(&rq->ready))
			arch_safe_halt();
		else
			irq_enable();
		schedule();
	}
	return 0;
}

/* Called by arch_thread_start() on a new thread's first run. */
void thread_entry(void)
{
	struct thread *t = current;

	finish_switch();
	irq_enable();
	kthread_exit(t->fn(t->arg));
}

int sched_init_cpu(unsigned int cpu)
{
	struct thread *idle;

	if (cpu >= NR_CPUS)
		return -1;
	idle = thread_create_idle(cpu, idle_loop);
	if (!idle)
		return -1;
	runqueues[cpu].idle = idle;
	return 0;
}

void sched_enter_cpu(void)
{
	struct runqueue *rq;
	struct arch_context discarded;

	irq_disable();
	rq = this_rq();
	if (!rq->idle)
		panic("CPU %u has no idle thread (sched_init_cpu)",
		      smp_processor_id());
	spin_lock(&rq->lock);
	rq->curr = rq->idle;
	rq->prev = NULL;
	WRITE_ONCE(cpu_curr[smp_processor_id()], rq->idle);
	arch_switch_to(&discarded, &rq->idle->ctx);
	panic("returned to a CPU's boot stack");
}

/*
 * Core level, right after mm_init(): from here on the boot thread is a
 * thread like the others (it goes on to become the shell), and any
 * initcall may create threads. They first run when the boot thread
 * sleeps or, once interrupts are on, when its time slice ends.
 */
static int sched_init(void)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		spin_lock_init(&runqueues[cpu].lock);
		INIT_LIST_HEAD(&runqueues[cpu].ready);
	}
	runqueues[0].curr = &boot_thread;
	thread_boot_init();
	boot_thread.slice = SLICE_TICKS;
	if (sched_init_cpu(0))
		panic("no memory for the idle thread");
	WRITE_ONCE(sched_running, true);
	return 0;
}
core_initcall(sched_init);
