/*
 * The leak collector's hooks: memleak_alloc() and memleak_free() land
 * here, on every allocation and free of the kernel. An allocation
 * becomes its block at once (its slot's record in the index, written by
 * tracking.c under memleak_lock), and a free clears the record again.
 * Also here: the per-CPU flag that keeps the collector's own allocations
 * untracked (memleak_hook_enter(), memleak_enter()).
 *
 * Besides its record, an allocation needs its trace: a walk of the
 * stack, and a lookup in the table of traces (traces.c). Each CPU keeps
 * the call chain of its last allocation and the trace it gave, so a CPU
 * allocating in a loop, whose chain is unchanged (chain_unchanged()),
 * takes that trace again with neither.
 *
 * Locking: each CPU's part here is used by that CPU alone, interrupts
 * off; memleak_lock (tracking.c) around the blocks and the traces. A
 * CPU marked as inside the collector holds memleak_lock.
 */
#include <kernel/memleak.h>
#include <kernel/alloc_entry.h>
#include <kernel/init.h>
#include <kernel/smp.h>
#include <kernel/stackchain.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/export.h>
#include "internal.h"

/*
 * The frame records a chain keeps: the trace's, and before them those
 * of the allocators (<kernel/alloc_entry.h>), which the trace leaves out.
 */
#define CHAIN_LENGTH (MEMLEAK_TRACE_LENGTH + MEMLEAK_ALLOC_FRAMES)

/*
 * The call chain of a CPU's last allocation, as save_stack_chain() read
 * it (return addresses, and the frame pointers that held them), and the
 * trace made of it, a reference of which the chain holds.
 */
struct last_chain {
	struct memleak_trace *trace;	/* NULL: none yet */
	u64 switches;		/* task_switch_count[] of its CPU then */
	u16 nr_entries;		/* records in rets[] and fps[] */
	u8 skip;		/* the first ones, the allocators': untraced */
	u8 checked;		/* those chain_unchanged() compares */
	bool ended;		/* the chain ended before a full trace */
	unsigned long rets[CHAIN_LENGTH];
	unsigned long fps[CHAIN_LENGTH];
};

struct hook_cpu {
	union {
		struct {
			u8 in_collector;	/* see memleak_hook_enter() */
			u8 untracked;		/* !memleak.tracking */
		};
		u16 bypass;	/* either: the hooks may not track */
	};
	const u64 *switches;	/* &task_switch_count[its CPU], one load away */
	struct last_chain chain;
};

/*
 * Per CPU, the hooks' flags and the last chain, out of the scan's roots:
 * a chain's words are stack addresses and code. Not tracking until
 * memleak_init() says so.
 */
static struct hook_cpu hook_cpus[NR_CPUS] __memleak_noscan_data = {
	[0 ... NR_CPUS - 1] = { .untracked = true },
};

/* ------------------------------------------------------------------ */
/* Entering and leaving the collector                                  */

/*
 * Interrupts off, then this CPU's flag; returns false (and leaves
 * interrupts as they were) when the collector is already running here,
 * which means the call comes from the collector's own allocations.
 */
bool memleak_hook_enter(unsigned long *flags)
{
	unsigned int cpu;

	*flags = arch_irq_save();
	cpu = smp_processor_id();
	if (hook_cpus[cpu].in_collector) {
		arch_irq_restore(*flags);
		return false;
	}
	hook_cpus[cpu].in_collector = true;
	return true;
}

void memleak_hook_leave(unsigned long flags)
{
	hook_cpus[smp_processor_id()].in_collector = false;
	arch_irq_restore(flags);
}

bool memleak_in_collector(void)
{
	return READ_ONCE(hook_cpus[smp_processor_id()].in_collector);
}

/* The collector's own code holds the lock with its allocations untracked. */
void memleak_enter(unsigned long *flags)
{
	*flags = arch_irq_save();
	hook_cpus[smp_processor_id()].in_collector = true;
	spin_lock(&memleak_lock);
}

void memleak_leave(unsigned long flags)
{
	spin_unlock(&memleak_lock);
	hook_cpus[smp_processor_id()].in_collector = false;
	arch_irq_restore(flags);
}

void memleak_set_tracking(bool on)
{
	memleak.tracking = on;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		WRITE_ONCE(hook_cpus[cpu].untracked, !on);
}

void __init memleak_init_hooks(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		hook_cpus[cpu].switches = &task_switch_count[cpu];
}

/* ------------------------------------------------------------------ */
/* The last call chain                                                 */

/*
 * How many of the n records c has read lie in the allocators: their
 * frames are dropped from the trace, so that it starts at the
 * allocator's caller.
 */
static unsigned int allocator_records(const struct last_chain *c,
				      unsigned int n)
{
	unsigned long sites[MEMLEAK_ALLOC_FRAMES];

	n = min(n, (unsigned int)MEMLEAK_ALLOC_FRAMES);
	for (unsigned int i = 0; i < n; i++)
		sites[i] = stack_chain_call_site(c->rets[i]);
	return memleak_allocator_frames(sites, n);
}

/* Walks the stack from fp into c; the thread is the running one. */
static void walk_chain(struct last_chain *c, unsigned long fp, u64 switches)
{
	c->switches = switches;
	c->nr_entries = save_stack_chain(fp, c->rets, c->fps, CHAIN_LENGTH);
	if (!c->nr_entries)
		c->fps[0] = 0;	/* never matched */
	c->skip = allocator_records(c, c->nr_entries);
	/* Records past the trace's last do not change it. */
	c->checked = min(c->nr_entries, c->skip + MEMLEAK_TRACE_LENGTH);
	c->ended = c->nr_entries < c->skip + MEMLEAK_TRACE_LENGTH;
}

/*
 * The stored trace of chain c and the running thread; NULL on OOM. The
 * key is not cleared first: the lookup reads its fields set here, and
 * entries up to nr_entries.
 */
static struct memleak_trace *intern_chain(const struct last_chain *c)
{
	unsigned int n = min(c->nr_entries - c->skip, MEMLEAK_TRACE_LENGTH);
	struct memleak_trace key;

	key.nr_entries = (u16)n;
	task_current_identity(key.comm, sizeof(key.comm), &key.pid);
	for (unsigned int i = 0; i < n; i++)
		key.entries[i] = stack_chain_call_site(c->rets[c->skip + i]);
	return memleak_intern_trace(&key);
}

/*
 * True when the records of c that make its trace (fps[0] a live frame
 * of this stack) still hold the same words, so that a walk would give
 * the same trace: each one its return address and the link to the next.
 * A chain that ended before the trace was full matches only when it
 * still ends at a saved frame pointer of 0, as the chains of threads and
 * of the boot stack do: only then a new walk surely stops there too.
 * Inline and unrolled, as stack_chain_unchanged(): it runs on every
 * allocation.
 */
static __always_inline bool chain_unchanged(const struct last_chain *c)
{
	static const struct frame_layout layout = ARCH_FRAME_LAYOUT;
	const unsigned long *words = (const unsigned long *)c->fps[0];
	const unsigned int n = c->checked;

#pragma GCC unroll 16
	for (unsigned int i = 0; i < CHAIN_LENGTH; i++) {
		unsigned long caller_fp;

		if (words[layout.return_address] != c->rets[i])
			return false;
		caller_fp = words[layout.saved_fp];
		if (i + 1 >= n || i + 1 == CHAIN_LENGTH)
			return !c->ended || caller_fp == 0;
		if (caller_fp != c->fps[i + 1])
			return false;
		words = (const unsigned long *)caller_fp;
	}
	return false;
}

/*
 * The trace of the allocation whose hook's frame is fp, with a reference
 * for its block: the last chain's again when the same thread (no task
 * switch since) allocates from the same chain, else the trace of a new
 * walk, which becomes the last chain. memleak_lock held; NULL when out
 * of memory for it.
 */
static struct memleak_trace *chain_trace(struct hook_cpu *h, unsigned long fp)
{
	struct last_chain *c = &h->chain;
	u64 switches = *h->switches;

	if (unlikely(!c->trace || c->switches != switches ||
		     c->fps[0] != fp || !chain_unchanged(c))) {
		struct memleak_trace *old = c->trace;

		walk_chain(c, fp, switches);
		c->trace = intern_chain(c);
		if (old)
			memleak_trace_put(old);
		if (!c->trace)
			return NULL;
	}
	memleak_trace_get(c->trace);
	return c->trace;
}

/* ------------------------------------------------------------------ */
/* The hooks                                                           */

/*
 * This CPU's part, interrupts off, when the hooks may track here; NULL
 * when the collector runs on this CPU (the call comes from its own
 * allocations) or does not track (yet, or any more).
 */
static __always_inline struct hook_cpu *hook_cpu(unsigned int *cpu)
{
	struct hook_cpu *h;

	*cpu = smp_processor_id();
	h = &hook_cpus[*cpu];
	return likely(!h->bypass) ? h : NULL;
}

/*
 * Inside the collector, with its lock: the hook's work may allocate.
 * The bare lock: interrupts stay off while it is held, so this thread
 * cannot be switched out meanwhile anyway.
 */
static __always_inline void hook_lock(struct hook_cpu *h)
{
	h->in_collector = true;
	raw_spin_lock(&memleak_lock);
}

static __always_inline void hook_unlock(struct hook_cpu *h)
{
	raw_spin_unlock(&memleak_lock);
	h->in_collector = false;
}

/*
 * The allocators' hook: the allocation becomes a block, with its trace.
 * Inlined into the two entry points below, which are not inlined: the
 * walk starts at the entry's frame, fp, whose return address is in the
 * allocator, and the allocators' records are then left out of the
 * trace (allocator_records()).
 */
static __always_inline void track_alloc(const void *ptr, size_t size,
					int min_count,
					const struct memleak_type *type,
					unsigned long fp)
{
	unsigned long flags;
	struct hook_cpu *h;
	unsigned int cpu;

	if (unlikely(!ptr))
		return;
	flags = arch_irq_save();
	h = hook_cpu(&cpu);
	if (unlikely(!h)) {
		arch_irq_restore(flags);
		memleak_untracked_alloc(ptr, size, min_count, type);
		return;
	}
	hook_lock(h);
	if (memleak.enabled)
		memleak_create_block((unsigned long)ptr, size, min_count,
				     chain_trace(h, fp), jiffies, cpu, type);
	hook_unlock(h);
	arch_irq_restore(flags);
}

__alloc_entry __noinline void memleak_alloc(const void *ptr, size_t size,
					    int min_count)
{
	track_alloc(ptr, size, min_count, NULL,
		    (unsigned long)__builtin_frame_address(0));
}
EXPORT_SYMBOL(memleak_alloc);

__alloc_entry __noinline void memleak_alloc_typed(const void *ptr, size_t size,
						  int min_count,
						  const struct memleak_type *type)
{
	track_alloc(ptr, size, min_count, type,
		    (unsigned long)__builtin_frame_address(0));
}
EXPORT_SYMBOL(memleak_alloc_typed);

/* The free hook, interrupts off (by the caller of either entry below). */
static __always_inline void free_hook(const void *ptr)
{
	struct hook_cpu *h;
	unsigned int cpu;

	h = hook_cpu(&cpu);
	if (unlikely(!h)) {
		memleak_untracked_free(ptr);
		return;
	}
	hook_lock(h);
	if (memleak.enabled)
		memleak_delete_block((unsigned long)ptr);
	hook_unlock(h);
}

void memleak_free(const void *ptr)
{
	unsigned long flags;

	if (unlikely(!ptr))
		return;
	flags = arch_irq_save();
	free_hook(ptr);
	arch_irq_restore(flags);
}
EXPORT_SYMBOL(memleak_free);

void memleak_free_irqs_off(const void *ptr)
{
	if (likely(ptr))
		free_hook(ptr);
}
