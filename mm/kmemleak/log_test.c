/*
 * Self-test of the collector's per-CPU logs of recent allocations
 * (mm/kmemleak/log.c): an allocation freed while it waits never becomes
 * a block,
 * one that lives is found by whatever reads the blocks, with the time,
 * CPU and thread of its allocation; a full log makes room by itself; a
 * free on another CPU finds its block; annotations apply to waiting
 * blocks; and a reused allocation context gives the trace a walk gives.
 */
#include <kernel/irq.h>
#include <kernel/kallsyms.h>
#include <kernel/ktest.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/slab.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/thread.h>
#include <kernel/time.h>
#include <kernel/timer.h>
#include "internal.h"

/* The block starting at p in the index (no flush); NULL if none. */
static struct memleak_block *block_in_tree(const void *p)
{
	struct memleak_block *b;
	unsigned long flags;

	memleak_enter(&flags);
	b = memleak_lookup_block((unsigned long)p);
	if (b && block_start(b) != (unsigned long)p)
		b = NULL;
	memleak_leave(flags);
	return b;
}

static struct memleak_block *block_after_flush(const void *p)
{
	memleak_flush_pending();
	return block_in_tree(p);
}

static void test_pair_never_reaches_the_tree(struct ktest *t)
{
	unsigned long before;
	void *p;

	memleak_flush_pending();
	before = memleak.nr_blocks;
	for (int i = 0; i < 1000; i++) {
		p = kmalloc(48, GFP_KERNEL);
		KEXPECT(t, p != NULL);
		KEXPECT(t, block_in_tree(p) == NULL);
		kfree(p);
	}
	memleak_flush_pending();
	KEXPECT_EQ(t, memleak.nr_blocks, before);
}

static void test_waiting_block_is_found(struct ktest *t)
{
	unsigned long then = jiffies;
	unsigned int cpu;
	struct memleak_block *b;
	unsigned long flags;
	void *p;

	flags = irq_save();
	cpu = smp_processor_id();
	p = kmalloc(40, GFP_KERNEL);
	irq_restore(flags);
	KEXPECT(t, p != NULL);
	KEXPECT(t, block_in_tree(p) == NULL);
	b = block_after_flush(p);
	KEXPECT(t, b != NULL);
	if (b) {
		KEXPECT_EQ(t, b->size, 40);
		KEXPECT_EQ(t, block_trace(b)->cpu, cpu);
		KEXPECT(t, b->jiffies - then <= jiffies - then);
		KEXPECT_EQ(t, block_trace(b)->pid, current->pid);
		KEXPECT(t, strcmp(block_trace(b)->comm, current->name) == 0);
	}
	kfree(p);
	KEXPECT(t, block_in_tree(p) == NULL);
}

/* More allocations than a log holds: the older ones go to the tree. */
static void test_full_log_makes_room(struct ktest *t)
{
	enum { N = 3 * MEMLEAK_PENDING_ALLOCS };
	void *p[N];
	unsigned int in_tree = 0;

	/* One CPU throughout: the log filled is this CPU's. */
	unsigned long flags = irq_save();

	for (int i = 0; i < N; i++)
		p[i] = kmalloc(24, GFP_ATOMIC);
	for (int i = 0; i < N; i++)
		in_tree += block_in_tree(p[i]) != NULL;
	irq_restore(flags);
	KEXPECT(t, in_tree >= N - MEMLEAK_PENDING_ALLOCS);
	for (int i = 0; i < N; i += 2)
		kfree(p[i]);
	memleak_flush_pending();
	for (int i = 0; i < N; i++)
		KEXPECT(t, (block_in_tree(p[i]) != NULL) == (i % 2 == 1));
	for (int i = 1; i < N; i += 2)
		kfree(p[i]);
	for (int i = 0; i < N; i++)
		KEXPECT(t, block_in_tree(p[i]) == NULL);
}

static void *cross_block;

static int alloc_on_cpu(void *arg)
{
	(void)arg;
	WRITE_ONCE(cross_block, kmalloc(56, GFP_KERNEL));
	return 0;
}

static int free_on_cpu(void *arg)
{
	(void)arg;
	kfree(READ_ONCE(cross_block));
	return 0;
}

static int run_bound(int (*fn)(void *), unsigned int cpu)
{
	struct thread *th = kthread_create(fn, NULL, "kt-mllog");

	if (!th)
		return -1;
	if (kthread_bind(th, cpu)) {
		kthread_start(th);
		kthread_join(th, NULL);
		return -1;
	}
	kthread_start(th);
	return kthread_join(th, NULL);
}

/* Allocated on one CPU (still in its log), freed on another. */
static void test_free_on_another_cpu(struct ktest *t)
{
	unsigned long before;

	if (num_online_cpus() < 2) {
		printk("    # one CPU: nothing to cross\n");
		return;
	}
	memleak_flush_pending();
	before = memleak.nr_blocks;
	KEXPECT_EQ(t, run_bound(alloc_on_cpu, 1), 0);
	KEXPECT(t, cross_block != NULL);
	KEXPECT_EQ(t, run_bound(free_on_cpu, 0), 0);
	KEXPECT(t, block_after_flush(cross_block) == NULL);
	KEXPECT_EQ(t, memleak.nr_blocks, before);
	KEXPECT(t, memleak.enabled);
	cross_block = NULL;
}

static void test_annotations_on_waiting_blocks(struct ktest *t)
{
	void *kept = kmalloc(64, GFP_KERNEL), *black = kmalloc(64, GFP_KERNEL);
	struct memleak_block *b;

	memleak_not_leak(kept);
	memleak_ignore(black);
	b = block_after_flush(kept);
	KEXPECT(t, b && b->min_count == 0);
	b = block_in_tree(black);
	KEXPECT(t, b && block_is_black(b));
	kfree(kept);
	kfree(black);
}

static __attribute__((noipa)) void *alloc_here(void)
{
	return kmalloc(24, GFP_KERNEL);
}

static __attribute__((noipa)) void *alloc_there(void)
{
	return kmalloc(24, GFP_KERNEL);
}

/* The function a trace entry lies in, "" if none. */
static const char *frame_name(const struct memleak_block *b, unsigned int i)
{
	const char *name;

	if (!b || !b->trace || i >= block_trace(b)->nr_entries)
		return "";
	name = kallsyms_lookup(block_trace(b)->entries[i], NULL, NULL);
	return name ? name : "";
}

/*
 * The second allocation from the same place reuses the first one's
 * context (same thread, same frame records); one from elsewhere does
 * not. Every trace must be what a walk gives, less the allocator's
 * frames: the function that called kmalloc(), then its caller.
 */
static void test_reused_context_gives_the_same_trace(struct ktest *t)
{
	struct memleak_block *a, *b, *c;
	void *p[3];
	int n = 2;

	/* One call instruction for both: hide n, or the loop is unrolled. */
	__asm__ volatile("" : "+r"(n));
	for (int i = 0; i < n; i++)
		p[i] = alloc_here();
	p[2] = alloc_there();
	a = block_after_flush(p[0]);
	b = block_in_tree(p[1]);
	c = block_in_tree(p[2]);
	KEXPECT(t, a && b && c);
	if (a && b && c) {
		KEXPECT(t, a->trace == b->trace);
		KEXPECT(t, a->trace != c->trace);
		KEXPECT(t, strcmp(frame_name(a, 0), "alloc_here") == 0);
		KEXPECT(t, strcmp(frame_name(a, 1), __func__) == 0);
		KEXPECT(t, strcmp(frame_name(c, 0), "alloc_there") == 0);
	}
	for (int i = 0; i < 3; i++)
		kfree(p[i]);
}

/* Twins: alloc_here()'s frame lies at the same address under either. */
static __attribute__((noipa)) void *via_one(void)
{
	return alloc_here();
}

static __attribute__((noipa)) void *via_other(void)
{
	return alloc_here();
}

/*
 * Two allocations whose chains differ only deeper than the allocator and
 * its caller (the hook's frame at the same address both times): the
 * second must not take the first one's context, so the deeper records
 * are compared too.
 */
static void test_deeper_records_compared(struct ktest *t)
{
	struct memleak_block *a, *b;
	unsigned long flags;
	void *p, *q;

	/* No task switch in between: only the records tell them apart. */
	flags = irq_save();
	p = via_one();
	q = via_other();
	irq_restore(flags);
	a = block_after_flush(p);
	b = block_in_tree(q);
	KEXPECT(t, a && b && a->trace != b->trace);
	KEXPECT(t, strcmp(frame_name(a, 0), "alloc_here") == 0);
	KEXPECT(t, strcmp(frame_name(a, 1), "via_one") == 0);
	KEXPECT(t, strcmp(frame_name(b, 1), "via_other") == 0);
	kfree(p);
	kfree(q);
}

/*
 * More call chains than a log has context slots, some blocks freed at
 * once, others kept: slots are reused (all of them when nothing waits,
 * after a flush when all are taken), and every kept block still has
 * its own trace and this thread's name.
 */
static void test_more_contexts_than_slots(struct ktest *t)
{
	enum { N = 3 * MEMLEAK_PENDING_ALLOCS };
	void *kept[N];
	unsigned long flags;

	/* One CPU throughout: every context goes to this CPU's log. */
	flags = irq_save();
	for (int i = 0; i < N; i++) {
		kfree(i % 3 ? alloc_there() : alloc_here());
		kept[i] = i % 2 ? alloc_there() : alloc_here();
	}
	irq_restore(flags);
	memleak_flush_pending();
	for (int i = 0; i < N; i++) {
		struct memleak_block *b = block_in_tree(kept[i]);

		KEXPECT(t, b != NULL);
		KEXPECT(t, strcmp(frame_name(b, 0),
				  i % 2 ? "alloc_there" : "alloc_here") == 0);
		KEXPECT(t, b && strcmp(block_trace(b)->comm, current->name) == 0);
	}
	for (int i = 0; i < N; i++)
		kfree(kept[i]);
}

/* One call site for both threads below, and for an interrupt handler. */
static __noinline void *alloc_for_switch_test(unsigned int gfp)
{
	return kmalloc(36, gfp);
}

static void *other_block;

static int alloc_in_other_thread(void *arg)
{
	(void)arg;
	WRITE_ONCE(other_block, alloc_for_switch_test(GFP_KERNEL));
	return 0;
}

static bool block_has_comm(const void *p, const char *comm)
{
	struct memleak_block *b = block_after_flush(p);

	return b && strcmp(block_trace(b)->comm, comm) == 0;
}

/*
 * The switch count: not 0 in a thread, 0 inside an interrupt handler
 * and back to the thread's afterwards, unchanged by the timer ticks of
 * a busy loop that was not switched out, moved once this thread slept.
 * Blocks allocated from one call site by two threads each carry their
 * own thread.
 */
static void test_switch_count(struct ktest *t)
{
	unsigned long flags = irq_save(), then;
	unsigned int cpu = smp_processor_id();
	u64 before = task_switch_count[cpu];
	unsigned long switches = current->switches;
	struct thread *th;
	void *mine;

	KEXPECT(t, before != 0);
	task_irq_entered(cpu);
	KEXPECT(t, task_switch_count[cpu] == 0);
	task_irq_left(cpu);
	KEXPECT(t, task_switch_count[cpu] == before);
	irq_restore(flags);

	then = jiffies;
	while (jiffies - then < 2)
		arch_cpu_relax();
	flags = irq_save();
	if (current->switches == switches && smp_processor_id() == cpu)
		KEXPECT(t, task_switch_count[cpu] == before);
	irq_restore(flags);

	msleep(1);
	KEXPECT(t, READ_ONCE(task_switch_count[cpu]) != before);

	mine = alloc_for_switch_test(GFP_KERNEL);
	th = kthread_run(alloc_in_other_thread, NULL, "kt-mlswitch");
	KEXPECT(t, th != NULL);
	if (th)
		KEXPECT_EQ(t, kthread_join(th, NULL), 0);
	KEXPECT(t, mine && other_block);
	KEXPECT(t, block_has_comm(mine, current->name));
	KEXPECT(t, block_has_comm(other_block, "kt-mlswitch"));
	kfree(mine);
	kfree(other_block);
	/* A stale pointer in .bss would keep the next block there alive. */
	other_block = NULL;
}

static void *irq_block;

static void alloc_in_interrupt(struct timer *timer)
{
	(void)timer;
	WRITE_ONCE(irq_block, alloc_for_switch_test(GFP_ATOMIC));
}

/*
 * An interrupt handler allocating from the same call site as the thread
 * it interrupts: its block has the handlers' identity, and the thread's
 * next block the thread's again.
 */
static void test_identity_in_interrupt(struct ktest *t)
{
	struct memleak_block *b;
	struct timer timer;
	unsigned long then;
	void *first, *last;

	timer_init(&timer, alloc_in_interrupt, NULL);
	first = alloc_for_switch_test(GFP_KERNEL);
	timer_add(&timer, jiffies + 1);
	/* Busy, not asleep: on CPU 0 the tick interrupts this very loop. */
	then = jiffies;
	while (!READ_ONCE(irq_block) && jiffies - then < 100)
		arch_cpu_relax();
	timer_del(&timer);
	last = alloc_for_switch_test(GFP_KERNEL);
	KEXPECT(t, first && last && irq_block);
	b = block_after_flush(irq_block);
	KEXPECT(t, b && strcmp(block_trace(b)->comm, "hardirq") == 0);
	KEXPECT(t, b && block_trace(b)->pid == 0);
	KEXPECT(t, block_has_comm(first, current->name));
	KEXPECT(t, block_has_comm(last, current->name));
	kfree(first);
	kfree(last);
	kfree(irq_block);
	irq_block = NULL;
}

static const struct ktest_case memleak_log_cases[] = {
	KTEST_CASE(test_pair_never_reaches_the_tree),
	KTEST_CASE(test_waiting_block_is_found),
	KTEST_CASE(test_full_log_makes_room),
	KTEST_CASE(test_free_on_another_cpu),
	KTEST_CASE(test_annotations_on_waiting_blocks),
	KTEST_CASE(test_reused_context_gives_the_same_trace),
	KTEST_CASE(test_more_contexts_than_slots),
	KTEST_CASE(test_deeper_records_compared),
	KTEST_CASE(test_switch_count),
	KTEST_CASE(test_identity_in_interrupt),
	{ 0 },
};
KTEST_SUITE("memleak_log", memleak_log_cases);
