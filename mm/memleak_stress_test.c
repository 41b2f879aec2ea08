/*
 * Self-test of the collector under concurrency: scans run while a thread
 * on every CPU allocates and frees as fast as it can (kmalloc of many
 * sizes, cache objects, vmalloc). Nothing may crash, no block may be
 * reported that is reachable, and every block freed during a scan must
 * really be gone from the collector afterwards.
 */
#include <kernel/ktest.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/thread.h>
#include <kernel/time.h>
#include <kernel/vmalloc.h>
#include "memleak.h"

#define STRESS_NAME "kt-mlstress"
#define SLOTS_PER_CPU 64
#define STRESS_SCANS 5
#define STRESS_MAX_SCANS 1000
#define STRESS_WAIT_MS 2000

enum stress_kind { STRESS_NONE, STRESS_KMALLOC, STRESS_CACHE, STRESS_VMALLOC };

/* A .bss root: every live stress block is referenced from here. */
static struct stress_slot {
	void *ptr;
	enum stress_kind kind;
} stress_slots[NR_CPUS][SLOTS_PER_CPU];

static struct kmem_cache *stress_cache;
static bool stress_stop;
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

/* Replaces a random slot of this CPU's row: the new block first. */
static int stress_worker(void *arg)
{
	struct stress_slot *row = stress_slots[smp_processor_id()];
	u32 r = 2463534242u ^ (u32)(unsigned long)arg;

	(void)arg;
	while (!READ_ONCE(stress_stop)) {
		struct stress_slot old, *s;

		r ^= r << 13;
		r ^= r >> 17;
		r ^= r << 5;
		s = &row[r % SLOTS_PER_CPU];
		old = *s;
		stress_fill(s, r);
		stress_release(&old);
		stress_ops[smp_processor_id()]++;
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
			WRITE_ONCE(stress_stop, true);
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

/* Until every worker has been round its loop once (bounded). */
static void wait_for_workers(struct thread **ts)
{
	unsigned int cpu;

	for (int ms = 0; ms < STRESS_WAIT_MS; ms++) {
		bool all = true;

		for_each_online_cpu(cpu)
			all &= !ts[cpu] || READ_ONCE(stress_ops[cpu]) > 0;
		if (all)
			return;
		msleep(1);
	}
}

/* Tracked blocks of the workers that the scan marked as suspects. */
static unsigned long count_blocks(bool suspects_only)
{
	struct memleak_block *b;
	unsigned long flags, n = 0;

	memleak_enter(&flags);
	list_for_each_entry(b, &memleak.blocks, node) {
		if (suspects_only && !(b->flags & MEMLEAK_SUSPECT))
			continue;
		if (b->trace && strcmp(b->trace->comm, STRESS_NAME) == 0)
			n++;
	}
	memleak_leave(flags);
	return n;
}

static void test_scan_during_alloc_free(struct ktest *t)
{
	struct thread *ts[NR_CPUS] = { 0 };
	unsigned long saved_age = memleak.min_age_jiffies, ops;
	unsigned int workers, cpu;
	int scans;

	stress_cache = kmem_cache_create("memleak_stress", 40, 0, 0, NULL);
	KEXPECT(t, stress_cache != NULL);
	if (!stress_cache)
		return;
	WRITE_ONCE(stress_stop, false);
	memset(stress_ops, 0, sizeof(stress_ops));
	workers = start_workers(ts);
	KEXPECT_EQ(t, workers, num_online_cpus());
	wait_for_workers(ts);
	ops = total_ops();
	/* With one CPU the workers run when a tick preempts the scan. */
	for (scans = 0; scans < STRESS_SCANS ||
	     (total_ops() == ops && scans < STRESS_MAX_SCANS); scans++)
		KEXPECT_EQ(t, memleak_scan(), 0);
	ops = total_ops() - ops;
	WRITE_ONCE(stress_stop, true);
	for_each_online_cpu(cpu)
		if (ts[cpu])
			KEXPECT_EQ(t, kthread_join(ts[cpu], NULL), 0);
	printk("    # %u workers, %lu alloc/free pairs during %d scans\n",
	       workers, ops, scans);
	KEXPECT(t, ops > 0);
	KEXPECT(t, memleak.enabled);

	/* Quiet now: every live stress block is in stress_slots. */
	memleak.min_age_jiffies = 0;
	KEXPECT_EQ(t, memleak_scan(), 0);
	KEXPECT_EQ(t, count_blocks(true), 0);
	memleak.min_age_jiffies = saved_age;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		for (int i = 0; i < SLOTS_PER_CPU; i++)
			stress_release(&stress_slots[cpu][i]);
	/* Freed during a scan or not, no block of theirs is left behind. */
	KEXPECT_EQ(t, count_blocks(false), 0);
	KEXPECT_EQ(t, kmem_cache_destroy(stress_cache), 0);
	stress_cache = NULL;
}

static const struct ktest_case memleak_stress_cases[] = {
	KTEST_CASE(test_scan_during_alloc_free),
	{ 0 },
};
KTEST_SUITE("memleak_stress", memleak_stress_cases);
