/*
 * Self-tests of SMP: every CPU came up and knows who it is, cross calls
 * reach exactly the CPUs they should (also from every CPU at once and
 * with interrupts off), a mutex-protected counter raced from every CPU,
 * threads sleeping and waking each other across CPUs, and the TLB
 * shootdown after unmapping a page. With one CPU they all still run
 * and check what there is to check.
 */
#include <kernel/ktest.h>
#include <kernel/errno.h>
#include <kernel/irq.h>
#include <kernel/mm.h>
#include <kernel/mutex.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/smp.h>
#include <kernel/thread.h>
#include <kernel/time.h>
#include <kernel/vmalloc.h>
#include <kernel/wait.h>
#include <kernel/mmu.h>

/* How long a test waits for something another CPU does. */
#define WAIT_POLLS 1000		/* of 1 ms */

/* True once every online CPU's own timer ticked since ticks0. */
static bool all_ticked(const unsigned long *ticks0)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (tick_count(cpu) == ticks0[cpu])
			return false;
	return true;
}

static void test_every_cpu_online(struct ktest *t)
{
	unsigned long ticks0[NR_CPUS] = { 0 };
	unsigned int cpu;
	int polls = 0;

	for_each_online_cpu(cpu)
		ticks0[cpu] = tick_count(cpu);
	while (!all_ticked(ticks0) && polls++ < WAIT_POLLS)
		msleep(1);
	KEXPECT(t, all_ticked(ticks0));	/* each CPU has its own tick */
	KEXPECT_EQ(t, num_online_cpus(), num_possible_cpus());
	KEXPECT(t, cpu_online(0));
	KEXPECT(t, !cpu_possible(NR_CPUS));
	for_each_possible_cpu(cpu) {
		KEXPECT_EQ(t, smp_cpu_state(cpu), CPU_ONLINE);
		KEXPECT(t, READ_ONCE(cpu_curr[cpu]) != NULL);
		KEXPECT(t, sched_idle_thread(cpu) != NULL);
		for (unsigned int other = 0; other < cpu; other++)
			KEXPECT(t, arch_cpu_hwid(cpu) != arch_cpu_hwid(other));
	}
}

struct who_ctx {
	unsigned long mask;		/* CPUs the function ran on */
	int calls;
	int wrong;			/* ran where it should not have */
	unsigned int expect_cpu;	/* for the single-CPU calls */
};

static void note_cpu(void *info)
{
	struct who_ctx *c = info;
	unsigned int cpu = smp_processor_id();

	__atomic_or_fetch(&c->mask, 1ul << cpu, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&c->calls, 1, __ATOMIC_SEQ_CST);
	if (!irqs_disabled())
		__atomic_add_fetch(&c->wrong, 1, __ATOMIC_SEQ_CST);
}

static void note_expected_cpu(void *info)
{
	struct who_ctx *c = info;

	if (smp_processor_id() != c->expect_cpu)
		__atomic_add_fetch(&c->wrong, 1, __ATOMIC_SEQ_CST);
	note_cpu(info);
}

static void test_call_function(struct ktest *t)
{
	static struct who_ctx nowait;	/* outlives a call without wait */
	struct who_ctx c = { 0 };
	unsigned int cpu, others = num_online_cpus() - 1;
	int n, polls = 0;

	on_each_cpu(note_cpu, &c, true);
	KEXPECT_EQ(t, c.mask, cpu_online_mask);
	KEXPECT_EQ(t, c.calls, num_online_cpus());

	c = (struct who_ctx){ 0 };
	n = smp_call_function(note_cpu, &c, true);
	KEXPECT_EQ(t, n, others);
	KEXPECT_EQ(t, c.calls, others);
	KEXPECT_EQ(t, __builtin_popcountl(c.mask), others);
	KEXPECT_EQ(t, c.mask & ~cpu_online_mask, 0);

	nowait = (struct who_ctx){ 0 };
	n = smp_call_function(note_cpu, &nowait, false);
	KEXPECT_EQ(t, n, others);
	while (__atomic_load_n(&nowait.calls, __ATOMIC_SEQ_CST) < n &&
	       polls++ < WAIT_POLLS)
		msleep(1);
	KEXPECT_EQ(t, nowait.calls, others);

	c = (struct who_ctx){ 0 };
	for_each_online_cpu(cpu) {
		c.expect_cpu = cpu;
		KEXPECT_EQ(t, smp_call_function_single(cpu, note_expected_cpu,
						       &c, true), 0);
	}
	KEXPECT_EQ(t, c.mask, cpu_online_mask);
	KEXPECT_EQ(t, c.wrong, 0);	/* right CPU, interrupts off */
	KEXPECT_EQ(t, smp_call_function_single(NR_CPUS, note_cpu, &c, true),
		   -ENODEV);
}

/* The caller has interrupts off: it must serve calls aimed at it. */
static void test_call_function_irqs_off(struct ktest *t)
{
	struct who_ctx c = { 0 };
	unsigned long flags = irq_save();
	int n = smp_call_function(note_cpu, &c, true);

	irq_restore(flags);
	KEXPECT_EQ(t, n, (int)num_online_cpus() - 1);
	KEXPECT_EQ(t, c.calls, n);
}

/*
 * A start gate for one thread per CPU: they arrive and sleep, are woken
 * together, and then spin until all of them run, so that they really
 * overlap however late the host runs each CPU.
 */
struct gate {
	struct wait_queue_head wq;
	int arrived, running, expected;
	bool open;
};

static void gate_init(struct gate *g)
{
	init_waitqueue_head(&g->wq);
	g->arrived = g->running = g->expected = 0;
	g->open = false;
}

static void gate_pass(struct gate *g)
{
	__atomic_add_fetch(&g->arrived, 1, __ATOMIC_SEQ_CST);
	wait_event(g->wq, READ_ONCE(g->open));
	__atomic_add_fetch(&g->running, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&g->running, __ATOMIC_SEQ_CST) < g->expected)
		arch_cpu_relax();
}

static void gate_open(struct gate *g, int expected)
{
	for (int polls = 0; polls < WAIT_POLLS &&
	     __atomic_load_n(&g->arrived, __ATOMIC_SEQ_CST) < expected;
	     polls++)
		msleep(1);
	g->expected = expected;
	WRITE_ONCE(g->open, true);
	wake_up(&g->wq);
}

/* One pinned thread per online CPU, run through the gate; joins them. */
static int run_on_every_cpu(int (*fn)(void *), void *arg, struct gate *g,
			    const char *name)
{
	struct thread *ts[NR_CPUS] = { 0 };
	unsigned int cpu;
	int started = 0, failed = 0;

	gate_init(g);
	for_each_online_cpu(cpu) {
		ts[cpu] = kthread_create(fn, arg, name);
		if (!ts[cpu] || kthread_bind(ts[cpu], cpu)) {
			failed++;
			continue;
		}
		kthread_start(ts[cpu]);
		started++;
	}
	gate_open(g, started);
	for_each_online_cpu(cpu) {
		int code = -1;

		if (ts[cpu] && (kthread_join(ts[cpu], &code) || code))
			failed++;
	}
	return failed;
}

#define STORM_CALLS 30

struct storm_ctx {
	struct gate gate;
	struct who_ctx calls;
};

/* Every CPU cross-calls every other one at once: nobody may deadlock. */
static int call_storm(void *arg)
{
	struct storm_ctx *s = arg;

	gate_pass(&s->gate);
	for (int i = 0; i < STORM_CALLS; i++)
		smp_call_function(note_cpu, &s->calls, i & 1);
	return 0;
}

static void test_call_function_storm(struct ktest *t)
{
	static struct storm_ctx s;
	unsigned int n = num_online_cpus();
	int polls = 0;

	s.calls = (struct who_ctx){ 0 };
	KEXPECT_EQ(t, run_on_every_cpu(call_storm, &s, &s.gate, "kt-storm"), 0);
	/* Half the calls did not wait: give the last ones a moment. */
	while (__atomic_load_n(&s.calls.calls, __ATOMIC_SEQ_CST) <
		       (int)(n * (n - 1) * STORM_CALLS) && polls++ < WAIT_POLLS)
		msleep(1);
	KEXPECT_EQ(t, s.calls.calls, n * (n - 1) * STORM_CALLS);
	KEXPECT_EQ(t, s.calls.wrong, 0);
}

#define RACE_ROUNDS 500
#define RACE_DELAY 20	/* spins between reading and writing back */

struct race_ctx {
	struct gate gate;
	struct mutex lock;
	unsigned long counter;
	int inside, max_inside;
	int wrong_cpu;		/* a pinned racer ran elsewhere */
};

/* Read, wait, write back: without the mutex, increments get lost. */
static int race(void *arg)
{
	struct race_ctx *r = arg;
	unsigned int cpu = current->cpu;

	gate_pass(&r->gate);
	for (int i = 0; i < RACE_ROUNDS; i++) {
		unsigned long v;
		int inside;

		mutex_lock(&r->lock);
		inside = __atomic_add_fetch(&r->inside, 1, __ATOMIC_SEQ_CST);
		if (inside > r->max_inside)
			r->max_inside = inside;
		v = READ_ONCE(r->counter);
		for (int d = 0; d < RACE_DELAY; d++)
			arch_cpu_relax();
		WRITE_ONCE(r->counter, v + 1);
		if (smp_processor_id() != cpu)
			r->wrong_cpu++;
		__atomic_sub_fetch(&r->inside, 1, __ATOMIC_SEQ_CST);
		mutex_unlock(&r->lock);
	}
	return 0;
}

static void test_mutex_counter_race_every_cpu(struct ktest *t)
{
	static struct race_ctx r;

	mutex_init(&r.lock, "ktest-smp-race");
	r.counter = 0;
	r.inside = r.max_inside = r.wrong_cpu = 0;
	KEXPECT_EQ(t, run_on_every_cpu(race, &r, &r.gate, "kt-race"), 0);
	KEXPECT_EQ(t, r.counter, num_online_cpus() * RACE_ROUNDS);
	KEXPECT_EQ(t, r.max_inside, 1);
	KEXPECT_EQ(t, r.wrong_cpu, 0);
	KEXPECT(t, !mutex_is_locked(&r.lock));
	/* How often they met depends on how the host runs the CPUs. */
	printk("    # %lu of %u lock calls had to wait\n", r.lock.contended,
	       num_online_cpus() * RACE_ROUNDS);
}

#define PINGPONG_ROUNDS 200

struct pingpong_ctx {
	struct wait_queue_head wq;
	int turn;		/* whose move: 0 or 1 */
	int moves[2];
	int wrong_cpu;
	unsigned int cpu[2];
};

struct pingpong_player {
	struct pingpong_ctx *ctx;
	int me;
};

/* Sleeps until it is its turn, hands the turn over, wakes the other. */
static int pingpong(void *arg)
{
	struct pingpong_player *p = arg;
	struct pingpong_ctx *c = p->ctx;

	for (int i = 0; i < PINGPONG_ROUNDS; i++) {
		wait_event(c->wq, READ_ONCE(c->turn) == p->me);
		if (smp_processor_id() != c->cpu[p->me])
			c->wrong_cpu++;
		c->moves[p->me]++;
		WRITE_ONCE(c->turn, !p->me);
		wake_up(&c->wq);
	}
	return 0;
}

/* Two threads on two CPUs (the first and the last) wake each other. */
static void test_sleep_and_wake_across_cpus(struct ktest *t)
{
	struct pingpong_ctx c = { .turn = 0 };
	struct pingpong_player p[2] = { { &c, 0 }, { &c, 1 } };
	struct thread *th[2];
	unsigned int last = 0, cpu;
	unsigned long ipis0;

	for_each_online_cpu(cpu)
		last = cpu;
	c.cpu[0] = 0;
	c.cpu[1] = last;
	init_waitqueue_head(&c.wq);
	ipis0 = irq_count(arch_ipi_irq(IPI_RESCHEDULE), last);
	for (int i = 0; i < 2; i++) {
		th[i] = kthread_create(pingpong, &p[i], "kt-pingpong");
		KEXPECT(t, th[i] && kthread_bind(th[i], c.cpu[i]) == 0);
		if (!th[i])
			return;
	}
	kthread_start(th[0]);
	kthread_start(th[1]);
	KEXPECT_EQ(t, kthread_join(th[0], NULL), 0);
	KEXPECT_EQ(t, kthread_join(th[1], NULL), 0);
	KEXPECT_EQ(t, c.moves[0], PINGPONG_ROUNDS);
	KEXPECT_EQ(t, c.moves[1], PINGPONG_ROUNDS);
	KEXPECT_EQ(t, c.wrong_cpu, 0);
	/* Woken while its CPU idled: the waker kicked that CPU. */
	if (last != 0)
		KEXPECT(t, irq_count(arch_ipi_irq(IPI_RESCHEDULE), last) >
				   ipis0);
}

static void test_spinlock_disables_preemption(struct ktest *t)
{
	DEFINE_SPINLOCK(lock);
	unsigned int before = preempt_count();
	unsigned long flags;

	spin_lock(&lock);
	KEXPECT_EQ(t, preempt_count(), before + 1);
	spin_unlock(&lock);
	KEXPECT_EQ(t, preempt_count(), before);
	flags = spin_lock_irqsave(&lock);
	KEXPECT_EQ(t, preempt_count(), before + 1);
	KEXPECT(t, irqs_disabled());
	spin_unlock_irqrestore(&lock, flags);
	KEXPECT_EQ(t, preempt_count(), before);
	KEXPECT(t, spin_trylock(&lock));
	KEXPECT(t, !spin_trylock(&lock));	/* held: count unchanged */
	KEXPECT_EQ(t, preempt_count(), before + 1);
	spin_unlock(&lock);
	KEXPECT_EQ(t, preempt_count(), before);
}

#define TLB_OLD 0x01d01d01u
#define TLB_NEW 0x0e0e0e0eu

struct tlb_ctx {
	volatile const u32 *word;
	u32 seen[NR_CPUS];
};

static void read_word(void *info)
{
	struct tlb_ctx *c = info;

	c->seen[smp_processor_id()] = *c->word;
}

/*
 * Every CPU reads a page through one address (so its TLB holds the
 * translation), the address is unmapped and mapped to another page,
 * and every CPU reads again: a CPU the shootdown missed still sees the
 * old page.
 */
static void test_tlb_shootdown(struct ktest *t)
{
	struct vm_struct *area = get_vm_area(PAGE_SIZE);
	struct page *old = alloc_pages(GFP_KERNEL, 0);
	struct page *new = alloc_pages(GFP_KERNEL, 0);
	unsigned long va;
	struct tlb_ctx c;
	unsigned int cpu;

	KEXPECT(t, area && old && new);
	if (!area || !old || !new)
		goto out;
	va = (unsigned long)area->addr;
	*(u32 *)page_address(old) = TLB_OLD;
	*(u32 *)page_address(new) = TLB_NEW;
	c.word = (const u32 *)va;
	KEXPECT_EQ(t, map_pages(va, page_to_phys(old), 1, MAP_KERNEL_RW), 0);
	on_each_cpu(read_word, &c, true);
	for_each_online_cpu(cpu)
		KEXPECT_EQ(t, c.seen[cpu], TLB_OLD);
	unmap_pages(va, 1);
	KEXPECT_EQ(t, map_pages(va, page_to_phys(new), 1, MAP_KERNEL_RW), 0);
	on_each_cpu(read_word, &c, true);
	for_each_online_cpu(cpu)
		KEXPECT_EQ(t, c.seen[cpu], TLB_NEW);
	unmap_pages(va, 1);
out:
	if (area)
		free_vm_area(area);
	if (old)
		__free_pages(old, 0);
	if (new)
		__free_pages(new, 0);
}

static const struct ktest_case smp_cases[] = {
	KTEST_CASE(test_every_cpu_online),
	KTEST_CASE(test_call_function),
	KTEST_CASE(test_call_function_irqs_off),
	KTEST_CASE(test_call_function_storm),
	KTEST_CASE(test_mutex_counter_race_every_cpu),
	KTEST_CASE(test_sleep_and_wake_across_cpus),
	KTEST_CASE(test_spinlock_disables_preemption),
	KTEST_CASE(test_tlb_shootdown),
	{ 0 },
};
KTEST_SUITE("smp", smp_cases);
