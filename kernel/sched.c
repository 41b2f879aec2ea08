/*
 * The scheduler: per-CPU run queues, round-robin with a time slice,
 * preemption from the tick, the idle threads, placing new threads on
 * the least busy CPU, idle CPUs taking work over from busy ones, and
 * the context switch around the arch's arch_switch_to().
 *
 * A run queue (one per CPU, in the per-CPU area) holds the ready
 * threads of its CPU; the running thread (rq->curr) and the idle thread
 * are not on it. A thread's state is changed by the thread itself
 * (set_current_state) or, under the lock of the run queue of its CPU
 * (t->cpu), by wake_up_thread(). The run queue lock is held, with
 * interrupts off, across the switch: the thread switched to releases it
 * (finish_switch), so a waker on another CPU never sees a half-switched
 * thread. That hand-over is why run queue locks are raw (they leave the
 * preemption count alone: one thread takes the lock, another drops it).
 *
 * Threads move between CPUs only while ready and marked running (never
 * a sleeping one, whose t->cpu a waker relies on), taken off one queue
 * under its lock and put on the other under that one's.
 *
 * Lock order: a wait queue's or a mutex's lock, then a run queue's lock.
 * Nothing is taken under a run queue lock, and no two of them are held
 * together.
 */
#include <kernel/sched.h>
#include <kernel/errno.h>
#include <kernel/initcall.h>
#include <kernel/irq.h>
#include <kernel/kernel.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include "sched_internal.h"

struct runqueue {
	struct spinlock lock;
	struct list_head ready;
	unsigned int nr_ready;	/* threads on ready */
	struct thread *curr;
	struct thread *idle;
	struct thread *prev;	/* switched away from; for finish_switch() */
	bool need_resched;	/* the tick or a wake-up asks for a switch */
	unsigned long switches;
	unsigned long migrations;	/* threads taken over by this CPU */
};

/* Ticks a thread runs before the next ready one gets the CPU. */
#define SLICE_TICKS max(1ul, msecs_to_jiffies(CONFIG_SCHED_SLICE_MS))

static DEFINE_PER_CPU(struct runqueue, runqueues);
#define cpu_rq(cpu) per_cpu_ptr(&runqueues, (cpu))

struct thread *cpu_curr[NR_CPUS] = { [0] = &boot_thread };
bool sched_running;

static struct runqueue *this_rq(void)
{
	return cpu_rq(smp_processor_id());
}

static void enqueue(struct runqueue *rq, struct thread *t)
{
	list_add_tail(&t->run_node, &rq->ready);
	rq->nr_ready++;
}

static void dequeue(struct runqueue *rq, struct thread *t)
{
	list_del_init(&t->run_node);
	rq->nr_ready--;
}

static struct thread *pick_next(struct runqueue *rq)
{
	struct thread *t;

	if (list_empty(&rq->ready))
		return rq->idle;
	t = list_first_entry(&rq->ready, struct thread, run_node);
	dequeue(rq, t);
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
 * thread, thread_entry()): tells the other CPUs it runs here, releases
 * the run queue and passes a thread that just died to the reaper, now
 * that its stack is out of use. Until cpu_curr[] changes here, other
 * CPUs take prev for running, so they never trust its saved stack
 * pointer before arch_switch_to() has stored it (the leak collector
 * scans a running thread's whole stack).
 */
static void finish_switch(void)
{
	unsigned int cpu = smp_processor_id();
	struct runqueue *rq = cpu_rq(cpu);
	struct thread *prev = rq->prev;

	WRITE_ONCE(cpu_curr[cpu], current);
	rq->prev = NULL;
	raw_spin_unlock(&rq->lock);
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
	arch_set_current(next);
	task_switched(cpu);
	arch_switch_to(&prev->ctx, &next->ctx);
	/* Back on prev's stack, maybe much later, maybe on another CPU. */
	finish_switch();
}

static void __schedule(bool preempt)
{
	unsigned long flags = irq_save();
	struct runqueue *rq = this_rq();
	struct thread *prev, *next;

	raw_spin_lock(&rq->lock);
	prev = rq->curr;
	rq->need_resched = false;
	if (keep_ready(rq, prev, preempt))
		enqueue(rq, prev);
	next = pick_next(rq);
	next->slice = SLICE_TICKS;
	if (next == prev)
		raw_spin_unlock(&rq->lock);
	else
		switch_to(rq, prev, next);
	irq_restore(flags);
}

void schedule(void)
{
	struct thread *t = current;

	if (!READ_ONCE(sched_running))
		return;
	if (in_irq())
		panic("schedule() called from an interrupt handler");
	if (t->preempt_count) {
		printk("warning: thread %s (pid %d) sleeps with preemption "
		       "disabled (count %u)\n", t->name, t->pid,
		       t->preempt_count);
		t->preempt_count = 0;
	}
	__schedule(false);
}

void yield(void)
{
	schedule();
}

/*
 * After queueing on cpu's run queue: a CPU halted in its idle thread
 * only looks again at its next interrupt, so give it one now.
 */
static void kick_cpu(unsigned int cpu, bool was_idle)
{
	if (was_idle && cpu != smp_processor_id())
		smp_send_reschedule(cpu);
}

bool wake_up_thread(struct thread *t)
{
	unsigned int cpu = READ_ONCE(t->cpu);
	struct runqueue *rq = cpu_rq(cpu);
	unsigned long flags = irq_save();
	bool woke, kick = false;

	raw_spin_lock(&rq->lock);
	woke = t->state == THREAD_SLEEPING;
	if (woke) {
		t->state = THREAD_RUNNING;
		if (t != rq->curr && list_empty(&t->run_node)) {
			enqueue(rq, t);
			if (rq->curr == rq->idle) {
				rq->need_resched = true;
				kick = true;
			}
		}
	}
	raw_spin_unlock(&rq->lock);
	kick_cpu(cpu, kick);
	irq_restore(flags);
	return woke;
}

/* How busy cpu is: its ready threads, plus one unless it idles. */
static unsigned int cpu_load(unsigned int cpu)
{
	struct runqueue *rq = cpu_rq(cpu);

	return READ_ONCE(rq->nr_ready) + (READ_ONCE(rq->curr) != rq->idle);
}

/*
 * The least busy online CPU, this one first among equals. A guess made
 * without locks: the queues may change meanwhile, idle CPUs even out
 * what it gets wrong.
 */
static unsigned int select_cpu(void)
{
	unsigned int self = smp_processor_id(), best = self, cpu;
	unsigned int best_load = cpu_load(self);

	for_each_online_cpu(cpu) {
		unsigned int load = cpu_load(cpu);

		if (load < best_load) {
			best = cpu;
			best_load = load;
		}
	}
	return best;
}

void sched_start_thread(struct thread *t)
{
	unsigned long flags = irq_save();
	struct runqueue *rq;
	bool kick;

	if (!(t->flags & THREAD_PINNED))
		t->cpu = select_cpu();
	rq = cpu_rq(t->cpu);
	raw_spin_lock(&rq->lock);
	t->state = THREAD_RUNNING;
	enqueue(rq, t);
	kick = rq->curr == rq->idle;
	if (kick)
		rq->need_resched = true;
	raw_spin_unlock(&rq->lock);
	kick_cpu(t->cpu, kick);
	irq_restore(flags);
}

/*
 * A ready thread of src that may move: not pinned, and marked running
 * (a thread preempted on its way to sleep stays, see keep_ready()).
 */
static struct thread *movable_thread(struct runqueue *src)
{
	struct thread *t;

	list_for_each_entry(t, &src->ready, run_node)
		if (!(t->flags & THREAD_PINNED) && t->state == THREAD_RUNNING)
			return t;
	return NULL;
}

/*
 * Called by an idle CPU with interrupts off: takes one ready thread
 * over from a CPU that is busy running another. True when it did.
 */
static bool steal_work(unsigned int self)
{
	struct runqueue *rq = cpu_rq(self), *src;
	struct thread *t = NULL;
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		src = cpu_rq(cpu);
		if (cpu == self || READ_ONCE(src->nr_ready) == 0)
			continue;
		raw_spin_lock(&src->lock);
		if (src->curr != src->idle)
			t = movable_thread(src);
		if (t) {
			dequeue(src, t);
			t->cpu = self;
		}
		raw_spin_unlock(&src->lock);
		if (t)
			break;
	}
	if (!t)
		return false;
	raw_spin_lock(&rq->lock);
	enqueue(rq, t);
	rq->migrations++;
	raw_spin_unlock(&rq->lock);
	return true;
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

unsigned int preempt_count(void)
{
	return READ_ONCE(current->preempt_count);
}

void preempt_disable(void)
{
	current->preempt_count++;
	barrier();
}

void preempt_enable(void)
{
	struct thread *t = current;

	barrier();
	if (t->preempt_count == 0) {
		printk("warning: preempt_enable() without preempt_disable() "
		       "in %s\n", t->name);
		return;
	}
	/*
	 * With interrupts on, this cannot be a handler, and if the thread
	 * moves CPU between the two reads, the schedule is just early.
	 */
	if (--t->preempt_count != 0 || irqs_disabled())
		return;
	/* A CPU held back from parking by a spinlock parks now. */
	smp_preempt_point();
	if (READ_ONCE(sched_running) && READ_ONCE(this_rq()->need_resched))
		__schedule(true);
}

void sched_tick(void)
{
	struct runqueue *rq = this_rq();
	struct thread *curr;

	if (!READ_ONCE(sched_running) || !rq->curr)
		return;
	raw_spin_lock(&rq->lock);
	curr = rq->curr;
	if (curr->slice > 1 && curr != rq->idle) {
		curr->slice--;
	} else if (!list_empty(&rq->ready)) {
		curr->slice = 0;
		rq->need_resched = true;
	} else {
		curr->slice = SLICE_TICKS;	/* alone: carry on */
	}
	raw_spin_unlock(&rq->lock);
}

void sched_preempt_irq(void)
{
	struct runqueue *rq = this_rq();

	if (READ_ONCE(sched_running) && rq->curr &&
	    READ_ONCE(rq->need_resched) && current->preempt_count == 0)
		__schedule(true);
}

unsigned long sched_switches(unsigned int cpu)
{
	return cpu_possible(cpu) ? READ_ONCE(cpu_rq(cpu)->switches) : 0;
}

unsigned int sched_nr_ready(unsigned int cpu)
{
	return cpu_possible(cpu) ? READ_ONCE(cpu_rq(cpu)->nr_ready) : 0;
}

unsigned long sched_migrations(unsigned int cpu)
{
	return cpu_possible(cpu) ? READ_ONCE(cpu_rq(cpu)->migrations) : 0;
}

/*
 * Each CPU's idle thread: takes work over from busier CPUs, and halts
 * until an interrupt when there is none.
 */
static int idle_loop(void *unused)
{
	(void)unused;
	for (;;) {
		unsigned int cpu;
		struct runqueue *rq;

		irq_disable();
		cpu = smp_processor_id();
		rq = cpu_rq(cpu);
		if (!READ_ONCE(rq->need_resched) && list_empty(&rq->ready) &&
		    !steal_work(cpu))
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

	if (!cpu_possible(cpu))
		return -EINVAL;
	if (cpu_rq(cpu)->idle)
		return 0;
	idle = thread_create_idle(cpu, idle_loop);
	if (!idle)
		return -ENOMEM;
	cpu_rq(cpu)->idle = idle;
	return 0;
}

struct thread *sched_idle_thread(unsigned int cpu)
{
	return cpu_possible(cpu) ? cpu_rq(cpu)->idle : NULL;
}

void sched_enter_cpu(void)
{
	struct runqueue *rq;
	struct arch_context discarded;
	unsigned int cpu;

	irq_disable();
	cpu = smp_processor_id();
	rq = cpu_rq(cpu);
	if (!rq->idle)
		panic("CPU %u has no idle thread (sched_init_cpu)", cpu);
	raw_spin_lock(&rq->lock);
	rq->curr = rq->idle;
	rq->prev = NULL;
	WRITE_ONCE(cpu_curr[cpu], rq->idle);
	arch_set_current(rq->idle);
	task_switched(cpu);
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
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		spin_lock_init(&cpu_rq(cpu)->lock);
		INIT_LIST_HEAD(&cpu_rq(cpu)->ready);
	}
	cpu_rq(0)->curr = &boot_thread;
	thread_boot_init();
	boot_thread.slice = SLICE_TICKS;
	if (sched_init_cpu(0))
		panic("no memory for the idle thread");
	WRITE_ONCE(sched_running, true);
	return 0;
}
core_initcall(sched_init);
