/*
 * Self-test of the collector under concurrency: scans run while a thread
 * on every CPU allocates and frees as fast as it can (kmalloc of many
 * sizes, cache objects, vmalloc), and now and then leaks a block on
 * purpose. The test knows the truth at every moment, so it checks both
 * ways:
 *
 *   - no false report: a worker only frees blocks it still holds, so a
 *     block freed after a scan reported it was a live block reported as
 *     a leak (memleak.nr_freed_after_report, which every free checks);
 *   - no missed leak: once the workers are done, a scan must report
 *     exactly the blocks they leaked on purpose, and no other.
 *
 * Parameters ('selftest memleak_stress ops=N leak_every=M'): the number
 * of alloc/free operations of all workers together, and one deliberate
 * leak per M operations of each worker. The leaked blocks' addresses are
 * kept inverted, so that the test's own bookkeeping is no reference.
 */
#include <kernel/errno.h>
#include <kernel/ktest.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/thread.h>
#include <kernel/time.h>
#include <kernel/vmalloc.h>
#include "internal.h"

#define STRESS_NAME "kt-mlstress"
#define SLOTS_PER_CPU 64
#define LEAKS_PER_CPU 64
#define DEFAULT_OPS 4000
#define DEFAULT_LEAK_EVERY 500
#define STRESS_MIN_SCANS 3
#define STRESS_WAIT_MS 2000

enum stress_kind { STRESS_NONE, STRESS_KMALLOC, STRESS_CACHE, STRESS_VMALLOC };

/* A .bss root: every live stress block is referenced from here. */
static struct stress_slot {
	void *ptr;
	enum stress_kind kind;
} stress_slots[NR_CPUS][SLOTS_PER_CPU];

/* The blocks leaked on purpose, as ~address: no reference to them. */
static struct stress_leaks {
	unsigned long addr_inv[LEAKS_PER_CPU];
	unsigned int nr;
} stress_leaks[NR_CPUS];

static struct kmem_cache *stress_cache;
static long stress_ops_left;
static unsigned long stress_leak_every;
static unsigned long stress_ops[NR_CPUS];

static void stress_release(struct stress_slot *s)
{
	switch (s->kind) {
	case STRESS_KMALLOC:
		kfree(s->ptr);
		break;
	case STRESS_CACHE:
		kmem_cache_free(stress_cache, s->ptr);
		break;
	case STRESS_VMALLOC:
		vfree(s->ptr);
		break;
	case STRESS_NONE:
		break;
	}
	s->ptr = NULL;
	s->kind = STRESS_NONE;
}

static void stress_fill(struct stress_slot *s, u32 r)
{
	if ((r & 63) == 0) {
		s->ptr = vmalloc(PAGE_SIZE);
		s->kind = STRESS_VMALLOC;
	} else if ((r & 3) == 0) {
		s->ptr = kmem_cache_alloc(stress_cache, GFP_KERNEL);
		s->kind = STRESS_CACHE;
	} else {
		s->ptr = kmalloc(16 + (r >> 8) % 2048, GFP_KERNEL);
		s->kind = STRESS_KMALLOC;
	}
	if (!s->ptr)
		s->kind = STRESS_NONE;
}

/* A kmalloc block that nothing will point to: its address kept inverted. */
static void stress_leak(struct stress_leaks *leaks, u32 r)
{
	void *p;

	if (leaks->nr == LEAKS_PER_CPU)
		return;
	p = kmalloc(16 + (r >> 8) % 512, GFP_KERNEL);
	if (!p)
		return;
	memset(p, 0x5a, 16);
	leaks->addr_inv[leaks->nr++] = ~(unsigned long)p;
}

static u32 xorshift(u32 r)
{
	r ^= r << 13;
	r ^= r >> 17;
	r ^= r << 5;
	return r;
}

/*
 * Replaces a random slot of this CPU's row, the new block first, until
 * the operations run out; a deliberate leak in the middle of every
 * stress_leak_every operations, so that none is the worker's last act
 * (its registers are scan roots while it runs).
 */
static int stress_worker(void *arg)
{
	unsigned int cpu = smp_processor_id();
	struct stress_slot *row = stress_slots[cpu];
	u32 r = 2463534242u ^ (u32)(unsigned long)arg;

	while (__atomic_sub_fetch(&stress_ops_left, 1, __ATOMIC_RELAXED) >= 0) {
		struct stress_slot old, *s;
		unsigned long n = stress_ops[cpu]++;

		r = xorshift(r);
		s = &row[r % SLOTS_PER_CPU];
		old = *s;
		stress_fill(s, r);
		stress_release(&old);
		if (n % stress_leak_every == stress_leak_every / 2)
			stress_leak(&stress_leaks[cpu], r);
	}
	return 0;
}

static unsigned int start_workers(struct thread **ts)
{
	unsigned int cpu, n = 0;

	for_each_online_cpu(cpu) {
		ts[cpu] = kthread_create(stress_worker, (void *)(unsigned long)cpu,
					 STRESS_NAME);
		if (!ts[cpu])
			continue;
		if (kthread_bind(ts[cpu], cpu)) {
			kthread_start(ts[cpu]);
			kthread_join(ts[cpu], NULL);
			ts[cpu] = NULL;
			continue;
		}
		kthread_start(ts[cpu]);
		n++;
	}
	return n;
}

static unsigned long total_ops(void)
{
	unsigned long ops = 0;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		ops += READ_ONCE(stress_ops[cpu]);
	return ops;
}

static bool ops_done(void)
{
	return __atomic_load_n(&stress_ops_left, __ATOMIC_RELAXED) <= 0;
}

/* Until every worker has been round its loop once (bounded). */
static void wait_for_workers(struct thread **ts)
{
	unsigned int cpu;

	for (int ms = 0; ms < STRESS_WAIT_MS && !ops_done(); ms++) {
		bool all = true;

		for_each_online_cpu(cpu)
			all &= !ts[cpu] || READ_ONCE(stress_ops[cpu]) > 0;
		if (all)
			return;
		msleep(1);
	}
}

static bool leaked_on_purpose(unsigned long start)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		for (unsigned int i = 0; i < stress_leaks[cpu].nr; i++)
			if (~stress_leaks[cpu].addr_inv[i] == start)
				return true;
	return false;
}

static unsigned long nr_leaked_on_purpose(void)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		n += stress_leaks[cpu].nr;
	return n;
}

struct suspect_count {
	unsigned long leaks;	/* suspects leaked on purpose */
	unsigned long live;	/* suspects the workers still held */
	unsigned long blocks;	/* every block of the workers */
};

static void count_block(struct memleak_block *b, unsigned long start, void *ctx)
{
	struct suspect_count *c = ctx;

	if (!(b->flags & MEMLEAK_ALLOCATED) || !b->trace ||
	    strcmp(block_trace(b)->comm, STRESS_NAME) != 0)
		return;
	c->blocks++;
	if (!(b->flags & MEMLEAK_SUSPECT))
		return;
	if (leaked_on_purpose(start))
		c->leaks++;
	else
		c->live++;
}

/* Scans until the workers have done their operations, at least a few times. */
static int scan_during_stress(struct ktest *t)
{
	int scans = 0;

	while (scans < STRESS_MIN_SCANS || !ops_done()) {
		int err = memleak_scan_wait();

		KEXPECT_EQ(t, err, 0);
		if (err)
			break;
		scans++;
	}
	return scans;
}

static void free_leaks(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		for (unsigned int i = 0; i < stress_leaks[cpu].nr; i++)
			kfree((void *)~stress_leaks[cpu].addr_inv[i]);
		stress_leaks[cpu].nr = 0;
	}
}

/* The quiet scan after the run: exactly the deliberate leaks, no other. */
static void check_final_scan(struct ktest *t)
{
	unsigned long saved_age = memleak.min_age_jiffies;
	struct suspect_count c = { 0 };
	int err;

	memleak.min_age_jiffies = 0;
	err = memleak_scan_wait();
	KEXPECT_EQ(t, err, 0);
	memleak.min_age_jiffies = saved_age;
	memleak_walk_blocks(count_block, &c);
	printk("    # final scan: %lu of %lu deliberate leaks found, %lu live "
	       "blocks reported\n", c.leaks, nr_leaked_on_purpose(), c.live);
	KEXPECT_EQ(t, c.live, 0);
	KEXPECT_EQ(t, c.leaks, nr_leaked_on_purpose());
}

static void test_scan_during_alloc_free(struct ktest *t)
{
	struct thread *ts[NR_CPUS] = { 0 };
	unsigned long false_reports = memleak.nr_freed_after_report;
	unsigned long ops = ktest_param("ops", DEFAULT_OPS);
	unsigned int workers, cpu;
	struct suspect_count c = { 0 };
	u64 t0 = ktime_get_ns();
	int scans;

	stress_leak_every = ktest_param("leak_every", DEFAULT_LEAK_EVERY);
	KEXPECT(t, stress_leak_every >= 2);
	stress_cache = kmem_cache_create("memleak_stress", 40, 0, 0, NULL);
	KEXPECT(t, stress_cache != NULL);
	if (!stress_cache || stress_leak_every < 2)
		return;
	memset(stress_ops, 0, sizeof(stress_ops));
	memset(stress_leaks, 0, sizeof(stress_leaks));
	__atomic_store_n(&stress_ops_left, (long)ops, __ATOMIC_RELAXED);
	workers = start_workers(ts);
	KEXPECT_EQ(t, workers, num_online_cpus());
	wait_for_workers(ts);
	scans = scan_during_stress(t);
	for_each_online_cpu(cpu)
		if (ts[cpu])
			KEXPECT_EQ(t, kthread_join(ts[cpu], NULL), 0);
	printk("    # %u workers, %lu alloc/free pairs and %lu deliberate "
	       "leaks during %d scans, %llu ms\n", workers, total_ops(),
	       nr_leaked_on_purpose(), scans,
	       (unsigned long long)(ktime_get_ns() - t0) / 1000000);
	KEXPECT_EQ(t, total_ops(), ops);
	KEXPECT(t, memleak.enabled);

	check_final_scan(t);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		for (int i = 0; i < SLOTS_PER_CPU; i++)
			stress_release(&stress_slots[cpu][i]);
	/* Every block a worker or the test freed was live: none reported. */
	false_reports = memleak.nr_freed_after_report - false_reports;
	printk("    # live blocks reported as leaks: %lu\n", false_reports);
	KEXPECT_EQ(t, false_reports, 0);
	free_leaks();
	/* Freed during a scan or not, no block of theirs is left behind. */
	memleak_flush_pending();
	memleak_walk_blocks(count_block, &c);
	KEXPECT_EQ(t, c.blocks, 0);
	KEXPECT_EQ(t, kmem_cache_destroy(stress_cache), 0);
	stress_cache = NULL;
}

static const struct ktest_case memleak_stress_cases[] = {
	KTEST_CASE(test_scan_during_alloc_free),
	{ 0 },
};
KTEST_SUITE("memleak_stress", memleak_stress_cases);
