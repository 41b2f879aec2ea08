/*
 * The leak collector's hooks, their fast path. memleak_alloc()
 * and memleak_free() land here, on every allocation and free of the
 * kernel, and most of them end here too: a recent allocation waits in
 * its CPU's log and, freed soon, never becomes a block (tracking.c).
 * Also here: the per-CPU flag that keeps the collector's own allocations
 * untracked (memleak_hook_enter(), memleak_enter()).
 *
 * Locking: each CPU's log has a lock of its own, taken with interrupts
 * off and before memleak_lock (see tracking.c for the rest of the order).
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

/* ------------------------------------------------------------------ */
/* Per CPU: the log of recent allocations and the hooks' flags         */

/*
 * Recent allocations wait in a small log per CPU before they get their
 * metadata and their place in the index: most kernel allocations are
 * freed again soon, by the CPU that made them, and such a pair then
 * costs its context (thread and backtrace, often the last one again)
 * and two looks at the log instead of a block, an interned trace and
 * tree inserts and deletes. Everything that reads the blocks
 * (a scan, 'memleak dump', 'memleak stats', the annotations) first
 * moves every log into the tree with memleak_flush_pending(); a free
 * that finds its block neither in its own CPU's log nor in the index
 * does the same, since the block may wait in another CPU's log.
 *
 * Each log has its own lock, taken with interrupts off: a plain
 * test-and-set word, as it is taken on every hook by its own CPU and by
 * another one only to flush. The order is log lock -> memleak_lock, so
 * code holding memleak_lock never flushes. The logs are kept out of the
 * scan roots (__memleak_noscan_data), and their addresses are stored
 * inverted as well, for a host program that registers its .data whole:
 * neither a waiting entry nor a stale one may count as a reference.
 *
 * The hooks' code is written for the instruction count of a pair (see
 * docs/memleak.md): the log, its lock and the flags that send a hook off
 * its fast path share one address per CPU, and a context is checked with
 * task_switch_count[] and an unrolled compare of the frame records.
 */

/*
 * The frame records a context keeps: the trace's, and before them those
 * of the allocators (<kernel/alloc_entry.h>), which its trace leaves out.
 */
#define CHAIN_LENGTH (MEMLEAK_TRACE_LENGTH + MEMLEAK_ALLOC_FRAMES)

/*
 * Who allocated and from where, shared by the entries that agree: a
 * CPU allocating in a loop finds its context unchanged in the last one
 * (no task switch since, the same frame records: see chain_unchanged())
 * and neither copies the identity nor walks the stack again.
 */
struct pending_ctx {
	u64 switches;		/* task_switch_count[] of its CPU */
	u16 nr_entries;		/* records in chain[] */
	u8 skip;		/* the first ones, the allocators': untraced */
	u8 checked;		/* those chain_unchanged() compares */
	bool ended;		/* the chain ended before a full trace */
	struct {
		int pid;
		char comm[MEMLEAK_COMM_LEN] __aligned(sizeof(long));
	} who;			/* task_current_identity()'s */
	struct chain_record chain[CHAIN_LENGTH];	/* save_stack_chain() */
};

struct pending_alloc {
	unsigned long start_inv;	/* ~start; 0: cancelled by a free */
	size_t size;
	unsigned long jiffies;
	const struct pending_ctx *ctx;
	const struct memleak_type *type;	/* NULL: untyped */
	s16 min_count;
};

struct pending_log {
	unsigned int busy;	/* the log's lock: log_lock() */
	union {
		struct {
			u8 in_collector;	/* see memleak_hook_enter() */
			u8 untracked;		/* !memleak.tracking */
		};
		u16 bypass;	/* either: the hooks' fast paths may not run */
	};
	struct pending_alloc *next;	/* the first free slot */
	struct pending_ctx *last_ctx;	/* the newest; NULL: none */
	const u64 *switches;	/* &task_switch_count[its CPU], one load away */
	struct pending_alloc allocs[MEMLEAK_PENDING_ALLOCS];
	struct pending_ctx ctxs[MEMLEAK_PENDING_ALLOCS];
};

/*
 * Per CPU, the log and the hooks' flags, where one address finds both.
 * Not tracking until memleak_init() says so.
 */
static struct pending_log pending_logs[NR_CPUS] __memleak_noscan_data = {
	[0 ... NR_CPUS - 1] = { .untracked = true },
};

/* ------------------------------------------------------------------ */
/* Entering and leaving the collector from a hook                      */

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
	if (pending_logs[cpu].in_collector) {
		arch_irq_restore(*flags);
		return false;
	}
	pending_logs[cpu].in_collector = true;
	return true;
}

void memleak_hook_leave(unsigned long flags)
{
	pending_logs[smp_processor_id()].in_collector = false;
	arch_irq_restore(flags);
}

bool memleak_in_collector(void)
{
	return READ_ONCE(pending_logs[smp_processor_id()].in_collector);
}

/* The scan uses these to hold the lock with its own allocations untracked. */
void memleak_enter(unsigned long *flags)
{
	*flags = arch_irq_save();
	pending_logs[smp_processor_id()].in_collector = true;
	spin_lock(&memleak_lock);
}

void memleak_leave(unsigned long flags)
{
	spin_unlock(&memleak_lock);
	pending_logs[smp_processor_id()].in_collector = false;
	arch_irq_restore(flags);
}

void memleak_set_tracking(bool on)
{
	memleak.tracking = on;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		WRITE_ONCE(pending_logs[cpu].untracked, !on);
}

/* ------------------------------------------------------------------ */
/* The hooks                                                           */

static inline void log_lock(struct pending_log *log)
{
	while (__atomic_exchange_n(&log->busy, 1, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
}

static inline void log_unlock(struct pending_log *log)
{
	__atomic_store_n(&log->busy, 0, __ATOMIC_RELEASE);
}

void __init memleak_init_logs(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		pending_logs[cpu].next = pending_logs[cpu].allocs;
		pending_logs[cpu].switches = &task_switch_count[cpu];
	}
}

/*
 * The stored trace of context c on cpu, for a block of type id type,
 * with a reference taken; NULL on OOM. The key is not cleared first: the
 * lookup reads its fields set here, and entries up to nr_entries.
 */
static struct memleak_trace *intern_context(const struct pending_ctx *c,
					    unsigned int cpu, u8 type)
{
	unsigned int n = min(c->nr_entries - c->skip, MEMLEAK_TRACE_LENGTH);
	struct memleak_trace key;

	key.cpu = (u8)cpu;
	key.type = type;
	key.pid = c->who.pid;
	key.nr_entries = (u16)n;
	memcpy(key.comm, c->who.comm, sizeof(key.comm));
	for (unsigned int i = 0; i < n; i++) {
		unsigned long ret = c->chain[c->skip + i].ret;

		key.entries[i] = stack_chain_call_site(ret);
	}
	return memleak_intern_trace(&key);
}

/*
 * Gives every waiting allocation of log (CPU cpu's) its block; the log
 * lock held, interrupts off, this CPU inside the collector. A disabled
 * collector just empties it. Entries that share a context and a type (a
 * loop) share their trace, looked up once.
 */
static void flush_log(struct pending_log *log, unsigned int cpu)
{
	const struct pending_ctx *interned = NULL;
	struct memleak_trace *trace = NULL;
	u8 interned_type = 0;

	/* The bare lock: with interrupts off nothing can switch us out. */
	raw_spin_lock(&memleak_lock);
	for (const struct pending_alloc *a = log->allocs;
	     a < log->next && memleak.enabled; a++) {
		u8 type;

		if (!a->start_inv)
			continue;
		type = a->type ? memleak_type_id(a->type, a->size) : 0;
		if (a->ctx != interned || type != interned_type) {
			trace = intern_context(a->ctx, cpu, type);
			interned = a->ctx;
			interned_type = type;
		} else if (trace) {
			memleak_trace_get(trace);
		}
		memleak_create_block(~a->start_inv, a->size, a->min_count,
				     trace, a->jiffies);
	}
	/* last_ctx stays, to be found unchanged next time. */
	log->next = log->allocs;
	raw_spin_unlock(&memleak_lock);
}

/* Flushes every CPU's log; this CPU inside the collector, no lock held. */
void memleak_flush_logs(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct pending_log *log = &pending_logs[cpu];

		if (READ_ONCE(log->next) == log->allocs)
			continue;
		log_lock(log);
		flush_log(log, cpu);
		log_unlock(log);
	}
}

void memleak_flush_pending(void)
{
	unsigned long flags;

	if (!READ_ONCE(memleak.tracking) || !memleak_hook_enter(&flags))
		return;
	memleak_flush_logs();
	memleak_hook_leave(flags);
}

/*
 * The world is stopped (scan.c, step 5): no hook runs and no
 * log lock is held, so the logs are read without it. Their allocations
 * are no blocks yet, but may hold the last pointer to one.
 */
void memleak_scan_pending(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct pending_log *log = &pending_logs[cpu];

		for (const struct pending_alloc *a = log->allocs;
		     log->next && a < log->next; a++)
			if (a->start_inv)
				memleak_scan_range((const void *)~a->start_inv,
						   (const char *)~a->start_inv +
							   a->size);
	}
}

/* Drops the cancelled entries at the end of the log, from a. */
static inline void trim_log(struct pending_log *log, struct pending_alloc *a)
{
	while (a > log->allocs && !a[-1].start_inv)
		a--;
	log->next = a;
}

/*
 * The usual free: of the newest entry, the allocation just made. The
 * log lock held.
 */
static inline bool cancel_newest(struct pending_log *log, unsigned long start)
{
	struct pending_alloc *a = log->next - 1;

	if (a < log->allocs || a->start_inv != ~start)
		return false;
	trim_log(log, a);
	return true;
}

/*
 * Takes start out of the log, if it waits there; the log lock held.
 * Newest entries first: a free usually follows its allocation closely.
 */
static __noinline bool cancel_pending(struct pending_log *log,
				      unsigned long start)
{
	struct pending_alloc *a = log->next;

	while (a-- > log->allocs) {
		if (a->start_inv != ~start)
			continue;
		a->start_inv = 0;
		if (a + 1 == log->next)
			trim_log(log, a);
		return true;
	}
	return false;
}

/* A full log goes to the tree, this CPU inside the collector meanwhile. */
static __noinline void flush_full_log(struct pending_log *log,
				      unsigned int cpu)
{
	log->in_collector = true;
	flush_log(log, cpu);
	log->in_collector = false;
}

/*
 * A free slot for a new context. Only waiting entries use slots, so with
 * none waiting all are free; else the one after the last, and when that
 * was the last slot, the log is flushed first.
 */
static inline struct pending_ctx *free_context_slot(struct pending_log *log,
						    unsigned int cpu)
{
	struct pending_ctx *last = log->last_ctx;

	if (log->next == log->allocs)
		return log->ctxs;
	if (last == &log->ctxs[MEMLEAK_PENDING_ALLOCS - 1]) {
		flush_full_log(log, cpu);
		return log->ctxs;
	}
	return last + 1;
}

/*
 * How many of the n records c has read lie in the allocators: their
 * frames are dropped when the trace is taken, so that it starts at the
 * allocator's caller. The leading ones only, as in
 * memleak_allocator_frames(), here from the return addresses as read.
 */
static unsigned int allocator_records(const struct pending_ctx *c,
				      unsigned int n)
{
	unsigned int i = 0;

	n = min(n, (unsigned int)MEMLEAK_ALLOC_FRAMES);
	while (i < n && in_alloc_text(stack_chain_call_site(c->chain[i].ret)))
		i++;
	return i;
}

/*
 * The context of an allocation that does not match the last one: a free
 * slot, with the identity (the last context's when no task switch came
 * in between) and a walk of the stack from fp.
 */
static __noinline struct pending_ctx *
new_context(struct pending_log *log, unsigned int cpu, unsigned long fp,
	    u64 switches)
{
	const struct pending_ctx *last = log->last_ctx;
	struct pending_ctx *c = free_context_slot(log, cpu);

	/* A struct's copy: a few moves, where memcpy() would be a call. */
	if (last && last->switches == switches)
		c->who = last->who;
	else
		task_current_identity(c->who.comm, sizeof(c->who.comm),
				      &c->who.pid);
	c->switches = switches;
	log->last_ctx = c;
	c->nr_entries = save_stack_chain(fp, c->chain, CHAIN_LENGTH);
	if (!c->nr_entries)
		c->chain[0].fp = 0;	/* never matched */
	c->skip = allocator_records(c, c->nr_entries);
	/* Records past the trace's last do not change it. */
	c->checked = min(c->nr_entries, c->skip + MEMLEAK_TRACE_LENGTH);
	c->ended = c->nr_entries < c->skip + MEMLEAK_TRACE_LENGTH;
	return c;
}

/*
 * True when the records of c that make its trace (chain[0].fp a live
 * frame of this stack) still hold the same words, so that a walk would
 * give the same trace: each one its return address and the link to the
 * next.
 * A chain that ended before the trace was full matches only when it
 * still ends at a saved frame pointer of 0, as the chains of threads and
 * of the boot stack do: only then a new walk surely stops there too.
 * Inline and unrolled: the collector runs it on every allocation, where a
 * call and a loop would cost a third of the check.
 */
static __always_inline bool chain_unchanged(const struct pending_ctx *c)
{
	static const struct frame_layout layout = ARCH_FRAME_LAYOUT;
	const unsigned long *words = (const unsigned long *)c->chain[0].fp;
	const unsigned int n = c->checked;

#pragma GCC unroll 16
	for (unsigned int i = 0; i < CHAIN_LENGTH; i++) {
		unsigned long caller_fp;

		if (words[layout.return_address] != c->chain[i].ret)
			return false;
		caller_fp = words[layout.saved_fp];
		if (i + 1 >= n || i + 1 == CHAIN_LENGTH)
			return !c->ended || caller_fp == 0;
		if (caller_fp != c->chain[i + 1].fp)
			return false;
		words = (const unsigned long *)caller_fp;
	}
	return false;
}

/* The last context, when the allocation now at fp shares it; else NULL. */
static inline struct pending_ctx *
same_context(struct pending_log *log, unsigned long fp, u64 switches)
{
	struct pending_ctx *c = log->last_ctx;

	if (!c || c->switches != switches || c->chain[0].fp != fp ||
	    !chain_unchanged(c))
		return NULL;
	return c;
}

/*
 * A hook's fast path starts here, interrupts off: this CPU's log, or
 * NULL when this CPU may not take it: the collector runs here (the call
 * comes from its own allocations), or it does not track (yet, or any
 * more). Nothing on the fast paths allocates, so unlike
 * memleak_hook_enter() this does not mark the CPU.
 */
static __always_inline struct pending_log *hook_log(unsigned int *cpu)
{
	struct pending_log *log;

	*cpu = smp_processor_id();
	log = &pending_logs[*cpu];
	/* Kept in a register: recomputed, it costs a multiply each time. */
	OPTIMIZER_HIDE_VAR(log);
	return likely(!log->bypass) ? log : NULL;
}

/*
 * The allocators' hook: the allocation goes to this CPU's log, with
 * its context (thread and backtrace). Inlined into the two entry points
 * below, which are not inlined: the walk starts at the entry's frame,
 * fp, whose return address is in the allocator, and the allocators'
 * records are then left out of the trace (allocator_records()).
 * Nothing here allocates or frees, so this CPU need not be marked as
 * inside the collector unless the log is full.
 */
static __always_inline void log_alloc(const void *ptr, size_t size,
				      int min_count,
				      const struct memleak_type *type,
				      unsigned long fp)
{
	unsigned long flags;
	struct pending_log *log;
	u64 switches;
	struct pending_alloc *a;
	struct pending_ctx *c;
	unsigned int cpu;

	if (unlikely(!ptr))
		return;
	flags = arch_irq_save();
	log = hook_log(&cpu);
	if (unlikely(!log)) {
		arch_irq_restore(flags);
		memleak_untracked_alloc(ptr, size, min_count, type);
		return;
	}
	log_lock(log);
	if (unlikely(log->next == log->allocs + MEMLEAK_PENDING_ALLOCS))
		flush_full_log(log, cpu);
	switches = *log->switches;
	c = same_context(log, fp, switches);
	if (unlikely(!c))
		c = new_context(log, cpu, fp, switches);
	a = log->next++;
	a->start_inv = ~(unsigned long)ptr;
	a->size = size;
	a->jiffies = jiffies;
	a->min_count = (s16)min_count;
	a->ctx = c;
	a->type = type;
	log_unlock(log);
	arch_irq_restore(flags);
}

__alloc_entry __noinline void memleak_alloc(const void *ptr, size_t size,
					    int min_count)
{
	log_alloc(ptr, size, min_count, NULL,
		  (unsigned long)__builtin_frame_address(0));
}
EXPORT_SYMBOL(memleak_alloc);

__alloc_entry __noinline void memleak_alloc_typed(const void *ptr, size_t size,
						  int min_count,
						  const struct memleak_type *type)
{
	log_alloc(ptr, size, min_count, type,
		  (unsigned long)__builtin_frame_address(0));
}
EXPORT_SYMBOL(memleak_alloc_typed);

/*
 * A free whose block is not in this CPU's log: it is in the index, or
 * in another CPU's log (flushed first), or it is no block at all.
 * Interrupts are off throughout, so the bare lock will do.
 */
static __noinline void free_tracked(unsigned long start, unsigned int cpu)
{
	pending_logs[cpu].in_collector = true;
	raw_spin_lock(&memleak_lock);
	if (memleak.enabled && !memleak_try_delete_block(start)) {
		raw_spin_unlock(&memleak_lock);
		memleak_flush_logs();
		raw_spin_lock(&memleak_lock);
		if (memleak.enabled)
			memleak_delete_block(start);
	}
	raw_spin_unlock(&memleak_lock);
	pending_logs[cpu].in_collector = false;
}

/* The free hook, interrupts off (by the caller of either entry below). */
static __always_inline void free_hook(const void *ptr)
{
	struct pending_log *log;
	unsigned int cpu;
	bool cancelled;

	log = hook_log(&cpu);
	if (unlikely(!log)) {
		memleak_untracked_free(ptr);
		return;
	}
	log_lock(log);
	cancelled = cancel_newest(log, (unsigned long)ptr) ||
		    cancel_pending(log, (unsigned long)ptr);
	log_unlock(log);
	if (!cancelled)
		free_tracked((unsigned long)ptr, cpu);
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
