/*
 * The leak collector, part 1: tracking. Every allocator hook and
 * annotation of <kernel/memleak.h> ends here. Each tracked block gets a
 * struct memleak_block, indexed by its address (and by its aliases, the
 * addresses of members that container_of() may be applied to) in a radix
 * tree, so that the scan (memleak_scan.c) maps any word to its block in a
 * few steps.
 *
 * Locking: memleak_lock (IRQs off) protects the tree and the blocks; it
 * is taken with no allocator lock held, and inside it only the metadata
 * caches' slab and page-allocator locks are taken. Each CPU's log of
 * recent allocations (see "The hooks") has a lock of its own, taken
 * before memleak_lock. Lock order: log lock -> memleak_lock -> slab
 * cache lock -> page allocator lock.
 * The collector's own allocations come from slab caches too: a per-CPU
 * flag turns the hooks off while the collector runs on that CPU, so they
 * are never tracked (and never recurse).
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/smp.h>
#include <kernel/stackchain.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include <kernel/export.h>
#include "memleak.h"

struct memleak_state memleak = {
	.enabled = true,
	.stack_scan = IS_ENABLED(CONFIG_DEBUG_MEMLEAK_TASK_STACKS),
	.interior = IS_ENABLED(CONFIG_DEBUG_MEMLEAK_INTERIOR),
	.blocks = LIST_HEAD_INIT(memleak.blocks),
	.min_addr_inv = 0,	/* ~ULONG_MAX: nothing tracked yet */
	.max_addr_inv = ~0UL,	/* ~0 */
};
DEFINE_SPINLOCK(memleak_lock);

/* ------------------------------------------------------------------ */
/* Per CPU: the log of recent allocations and the hooks' flags         */

/*
 * Recent allocations wait in a small log per CPU before they get their
 * metadata and their place in the tree: most kernel allocations are
 * freed again soon, by the CPU that made them, and such a pair then
 * costs its context (thread and backtrace, often the last one again)
 * and two looks at the log instead of a block, an interned trace and
 * tree inserts and deletes. Everything that reads the blocks
 * (a scan, 'memleak dump', 'memleak stats', the annotations) first
 * moves every log into the tree with memleak_flush_pending(); a free
 * that finds its block neither in its own CPU's log nor in the tree
 * does the same, since the block may wait in another CPU's log.
 *
 * Each log has its own lock, taken with interrupts off: a plain
 * test-and-set word, as it is taken on every hook by its own CPU and by
 * another one only to flush. The order is log lock -> memleak_lock, so
 * code holding memleak_lock never flushes. The logs are in .data, a scan
 * root: addresses are stored inverted, so that neither a waiting entry
 * nor a stale one counts as a reference.
 *
 * The hooks' code is written for the instruction count of a pair (see
 * docs/memleak.md): the log, its lock and the flags that send a hook off
 * its fast path share one address per CPU, and a context is checked with
 * task_switch_count[] and an unrolled compare of the frame records.
 */

/*
 * Who allocated and from where, shared by the entries that agree: a
 * CPU allocating in a loop finds its context unchanged in the last one
 * (no task switch since, the same frame records: see
 * stack_chain_unchanged()) and neither copies the identity nor walks the
 * stack again. A chain shorter than MEMLEAK_TRACE_LENGTH is never
 * matched (fps[0] is then 0).
 */
struct pending_ctx {
	u64 switches;		/* task_switch_count[] of its CPU */
	int pid;
	u16 nr_entries;
	char comm[MEMLEAK_COMM_LEN] __aligned(sizeof(long));
	unsigned long rets[MEMLEAK_TRACE_LENGTH];	/* save_stack_chain() */
	unsigned long fps[MEMLEAK_TRACE_LENGTH + 1];
};

struct pending_alloc {
	unsigned long start_inv;	/* ~start; 0: cancelled by a free */
	size_t size;
	unsigned long jiffies;
	const struct pending_ctx *ctx;
	s16 min_count;
};

struct pending_log {
	unsigned int busy;	/* the log's lock: log_lock() */
	union {
		struct {
			u8 in_collector;	/* see hook_enter() */
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
static struct pending_log pending_logs[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = { .untracked = true },
};

static struct kmem_cache *block_cache, *trace_cache, *area_cache, *node_cache;

#define TRACE_HASH_SIZE 1024
/* A fresh tree path per alloc/free pair would cost 4 node allocations. */
#define SPARE_TREE_NODES (RADIX_TREE_MAX_HEIGHT + 2)
static struct memleak_trace *trace_hash[TRACE_HASH_SIZE];

/* The alias sets, indexed by block size. */
static struct radix_tree_root alias_tree;

static bool disable_reported;

/* ------------------------------------------------------------------ */
/* Entering and leaving the collector from a hook                      */

/*
 * Interrupts off, then this CPU's flag; returns false (and leaves
 * interrupts as they were) when the collector is already running here,
 * which means the call comes from the collector's own allocations.
 */
static bool hook_enter(unsigned long *flags)
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

static void hook_leave(unsigned long flags)
{
	pending_logs[smp_processor_id()].in_collector = false;
	arch_irq_restore(flags);
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

/*
 * Any internal failure ends up here: the collector stops tracking and
 * says why, once; the kernel goes on. Called with memleak_lock held or
 * before the collector is up.
 */
void memleak_disable(const char *why)
{
	memleak.enabled = false;
	memleak_set_tracking(false);
	if (disable_reported)
		return;
	disable_reported = true;
	printk("memleak: disabled: %s\n", why);
}

/* ------------------------------------------------------------------ */
/* Radix tree nodes come from the collector's own cache                */

static void *alloc_tree_node(void *ctx)
{
	(void)ctx;
	return kmem_cache_alloc(node_cache, GFP_ATOMIC);
}

static void free_tree_node(void *node, void *ctx)
{
	(void)ctx;
	kmem_cache_free(node_cache, node);
}

/* Alias-tree nodes are only made at init, from kmalloc (untracked too). */
static void *alloc_alias_node(void *ctx)
{
	(void)ctx;
	return kmalloc(RADIX_TREE_NODE_SIZE, GFP_ATOMIC);
}

static void free_alias_node(void *node, void *ctx)
{
	(void)ctx;
	kfree(node);
}

/* ------------------------------------------------------------------ */
/* Allocation contexts (thread + backtrace), stored once each          */

static u32 hash_trace(const struct memleak_trace *t)
{
	u32 h = 2166136261u ^ (u32)t->pid;

	for (unsigned int i = 0; i < t->nr_entries; i++)
		h = (h ^ (u32)t->entries[i]) * 16777619u;
	for (const char *c = t->comm; *c; c++)
		h = (h ^ (u8)*c) * 16777619u;
	return h;
}

/* Word loops, not memcmp/strcmp: this runs on every allocation. */
static bool same_trace(const struct memleak_trace *a,
		       const struct memleak_trace *b)
{
	if (a->hash != b->hash || a->pid != b->pid ||
	    a->nr_entries != b->nr_entries)
		return false;
	for (unsigned int i = 0; i < a->nr_entries; i++)
		if (a->entries[i] != b->entries[i])
			return false;
	for (unsigned int i = 0; i < MEMLEAK_COMM_LEN; i++) {
		if (a->comm[i] != b->comm[i])
			return false;
		if (!a->comm[i])
			break;
	}
	return true;
}

/* Returns the stored copy of *key, making one if needed; NULL on OOM. */
static struct memleak_trace *intern_trace(struct memleak_trace *key)
{
	struct memleak_trace **bucket, *t;

	key->hash = hash_trace(key);
	bucket = &trace_hash[key->hash % TRACE_HASH_SIZE];
	for (t = *bucket; t; t = t->hash_next) {
		if (same_trace(t, key)) {
			t->refs++;
			return t;
		}
	}
	t = kmem_cache_alloc(trace_cache, GFP_ATOMIC);
	if (!t)
		return NULL;
	*t = *key;
	t->refs = 1;
	t->hash_next = *bucket;
	*bucket = t;
	memleak.nr_traces++;
	return t;
}

static void free_trace(struct memleak_trace *t)
{
	struct memleak_trace **p;

	for (p = &trace_hash[t->hash % TRACE_HASH_SIZE]; *p; p = &(*p)->hash_next) {
		if (*p == t) {
			*p = t->hash_next;
			break;
		}
	}
	memleak.nr_traces--;
	kmem_cache_free(trace_cache, t);
}

/*
 * A trace whose last block is freed stays hashed in a small ring of
 * unused ones, oldest dropped first: an alloc/free pair in a loop would
 * otherwise make and free the same trace each time round.
 */
#define UNUSED_TRACES 32
static struct memleak_trace *unused_traces[UNUSED_TRACES];
static unsigned int unused_next;

static void put_trace(struct memleak_trace *t)
{
	struct memleak_trace *oldest;

	if (--t->refs || t->parked)
		return;
	oldest = unused_traces[unused_next];
	unused_traces[unused_next] = t;
	unused_next = (unused_next + 1) % UNUSED_TRACES;
	t->parked = 1;
	if (oldest) {
		oldest->parked = 0;
		if (!oldest->refs)
			free_trace(oldest);
	}
}

static void free_unused_traces(void)
{
	for (unsigned int i = 0; i < UNUSED_TRACES; i++) {
		struct memleak_trace *t = unused_traces[i];

		if (!t)
			continue;
		unused_traces[i] = NULL;
		t->parked = 0;
		if (!t->refs)
			free_trace(t);
	}
}

void memleak_shrink(void)
{
	unsigned long flags;

	memleak_enter(&flags);
	free_unused_traces();
	radix_tree_keep_spares(&memleak.tree, 0);
	radix_tree_keep_spares(&memleak.tree, SPARE_TREE_NODES);
	memleak_leave(flags);
}

void memleak_trace_get(struct memleak_trace *t)
{
	t->refs++;
}

void memleak_trace_put(struct memleak_trace *t)
{
	put_trace(t);
}

/* ------------------------------------------------------------------ */
/* Blocks in the tree: the start address and every alias               */

struct memleak_block *memleak_lookup_block(unsigned long addr)
{
	return radix_tree_lookup(&memleak.tree, memleak_key(addr));
}

/* The addresses a block is known by besides its start: padding, aliases. */
#define for_each_block_key(b, i, key)                                        \
	for (i = -1;                                                         \
	     i < (int)((b)->aliases ? (b)->aliases->nr : 0) &&               \
	     ((key = (b)->start + (b)->pad_offset +                          \
		     (i < 0 ? 0 : (b)->aliases->offsets[i])), 1);            \
	     i++)

/* Inserts the extra keys; on failure removes the ones made. */
static int insert_aliases(struct memleak_block *b)
{
	unsigned long key;
	int i, err = 0;

	if (!b->aliases && !b->pad_offset)
		return 0;

	for_each_block_key(b, i, key) {
		if (key == b->start)
			continue;
		err = radix_tree_insert(&memleak.tree, memleak_key(key), b);
		if (err == -EEXIST)
			err = 0;	/* another block's alias: first one wins */
		if (err)
			break;
		memleak.nr_aliases++;
	}
	return err;
}

static void delete_aliases(struct memleak_block *b)
{
	unsigned long key;
	int i;

	if (!b->aliases && !b->pad_offset)
		return;

	for_each_block_key(b, i, key) {
		if (key != b->start && memleak_lookup_block(key) == b) {
			radix_tree_delete(&memleak.tree, memleak_key(key));
			memleak.nr_aliases--;
		}
	}
}

static const struct memleak_alias_set *aliases_of_size(size_t size)
{
	return size ? radix_tree_lookup(&alias_tree, size) : NULL;
}

void memleak_get_block(struct memleak_block *b)
{
	b->refs++;
}

void memleak_put_block(struct memleak_block *b)
{
	struct memleak_scan_area *area;

	if (--b->refs)
		return;
	while ((area = b->areas)) {
		b->areas = area->next;
		kmem_cache_free(area_cache, area);
	}
	if (b->trace)
		put_trace(b->trace);
	kmem_cache_free(block_cache, b);
}

static void discard_block(struct memleak_block *b, const char *why)
{
	put_trace(b->trace);
	kmem_cache_free(block_cache, b);
	memleak_disable(why);
}

static void create_block(unsigned long start, size_t size, int min_count,
			 struct memleak_trace *key, unsigned long when,
			 unsigned int cpu)
{
	struct memleak_block *b;
	int err;

	b = kmem_cache_alloc(block_cache, GFP_ATOMIC);
	if (!b) {
		memleak_disable("out of memory for block metadata");
		return;
	}
	/* A compound literal, not memset: the compiler stores each field. */
	*b = (struct memleak_block){
		.start = start,
		.size = size,
		.min_count = (s16)min_count,
		.flags = MEMLEAK_ALLOCATED,
		.cpu = (u8)cpu,
		.jiffies = when,
		.aliases = aliases_of_size(size),
	};
	b->trace = intern_trace(key);
	if (!b->trace) {
		kmem_cache_free(block_cache, b);
		memleak_disable("out of memory for backtraces");
		return;
	}
	/* The insert finds an overlap too: start already a key of a block. */
	err = radix_tree_insert(&memleak.tree, memleak_key(start), b);
	if (err == -EEXIST) {
		printk("memleak: block 0x%08lx (size %zu) overlaps a tracked one\n",
		       start, size);
		discard_block(b, "overlapping block");
		return;
	}
	if (err || insert_aliases(b)) {
		delete_aliases(b);
		if (!err)
			radix_tree_delete(&memleak.tree, memleak_key(start));
		discard_block(b, "out of memory for the address tree");
		return;
	}
	b->refs = 1;
	list_add_tail(&b->node, &memleak.blocks);
	memleak.nr_blocks++;
	memleak.min_addr_inv = max(memleak.min_addr_inv, ~start);
	memleak.max_addr_inv = min(memleak.max_addr_inv, ~(start + size));
}

static void orphan_freed(struct memleak_block *b)
{
	printk("memleak: freeing orphan object 0x%08lx (size %zu), reported "
	       "as a leak:\n", b->start, b->size);
	memleak_print_block(b);
	dump_stack();
}

static void delete_block(unsigned long start)
{
	struct memleak_block *b = memleak_lookup_block(start);

	if (!b || b->start != start) {
		printk("memleak: freeing unknown object at 0x%08lx\n", start);
		dump_stack();
		return;
	}
	if (IS_ENABLED(CONFIG_DEBUG_MEMLEAK_ORPHAN_FREEING) &&
	    (b->flags & MEMLEAK_REPORTED))
		orphan_freed(b);
	delete_aliases(b);
	radix_tree_delete(&memleak.tree, memleak_key(start));
	b->flags &= ~MEMLEAK_ALLOCATED;
	list_del(&b->node);
	memleak.nr_blocks--;
	memleak_put_block(b);
}

/* The block that starts at ptr, or NULL after a warning naming what. */
static struct memleak_block *find_start(unsigned long ptr, const char *what)
{
	struct memleak_block *b = memleak_lookup_block(ptr);

	if (b && b->start == ptr)
		return b;
	printk("memleak: %s: 0x%08lx is not the start of a tracked block\n",
	       what, ptr);
	return NULL;
}

static void pad_block(unsigned long ptr, unsigned long offset, size_t size)
{
	struct memleak_block *b = find_start(ptr, "memleak_padding");

	if (!b)
		return;
	if (offset + size > b->size) {
		printk("memleak_padding: %lu+%zu is past the end of 0x%08lx\n",
		       offset, size, ptr);
		return;
	}
	delete_aliases(b);
	b->pad_offset = offset;
	b->aliases = aliases_of_size(size);
	if (insert_aliases(b))
		memleak_disable("out of memory for the address tree");
}

static void not_leak_block(unsigned long ptr)
{
	struct memleak_block *b = find_start(ptr, "memleak_not_leak");

	if (b)
		b->min_count = 0;
}

static void ignore_block(unsigned long ptr)
{
	struct memleak_block *b = find_start(ptr, "memleak_ignore");

	if (b)
		b->flags |= MEMLEAK_BLACK;
}

static void add_scan_area(unsigned long ptr, unsigned long offset,
			  size_t length)
{
	struct memleak_block *b = find_start(ptr, "memleak_scan_area");
	struct memleak_scan_area *area;

	if (!b)
		return;
	if (offset + length > b->size || offset + length < offset) {
		printk("memleak_scan_area: %lu+%zu is past the end of 0x%08lx\n",
		       offset, length, ptr);
		return;
	}
	area = kmem_cache_alloc(area_cache, GFP_ATOMIC);
	if (!area) {
		memleak_disable("out of memory for scan areas");
		return;
	}
	area->offset = offset;
	area->length = length;
	area->next = b->areas;
	b->areas = area;
}

/* ------------------------------------------------------------------ */
/* The early log: hooks called before memleak_init()                   */

enum early_op_type {
	EARLY_ALLOC, EARLY_FREE, EARLY_PADDING, EARLY_NOT_LEAK,
	EARLY_IGNORE, EARLY_SCAN_AREA,
};

struct early_op {
	u8 type;
	s8 min_count;
	u8 nr_entries;
	unsigned long ptr;
	unsigned long offset;
	size_t size;
	unsigned long entries[MEMLEAK_TRACE_LENGTH];
};

static struct early_op early_log[CONFIG_DEBUG_MEMLEAK_PREINIT_POINTERS] __initdata;
static unsigned int early_count __initdata;

static void __init log_early(enum early_op_type type, unsigned long ptr,
			     unsigned long offset, size_t size, int min_count)
{
	struct early_op *op;

	if (early_count == ARRAY_SIZE(early_log)) {
		memleak_disable("early log full (raise "
				"DEBUG_MEMLEAK_PREINIT_POINTERS)");
		return;
	}
	op = &early_log[early_count++];
	op->type = type;
	op->ptr = ptr;
	op->offset = offset;
	op->size = size;
	op->min_count = min_count;
	if (type == EARLY_ALLOC)
		op->nr_entries = save_stack_trace(op->entries,
						  MEMLEAK_TRACE_LENGTH, 3);
}

static void __init replay_op(const struct early_op *op)
{
	struct memleak_trace key;

	switch (op->type) {
	case EARLY_ALLOC:
		memset(&key, 0, sizeof(key));
		strlcpy(key.comm, "boot", sizeof(key.comm));
		key.nr_entries = op->nr_entries;
		memcpy(key.entries, op->entries, sizeof(key.entries));
		create_block(op->ptr, op->size, op->min_count, &key, jiffies,
			     smp_processor_id());
		break;
	case EARLY_FREE:
		delete_block(op->ptr);
		break;
	case EARLY_PADDING:
		pad_block(op->ptr, op->offset, op->size);
		break;
	case EARLY_NOT_LEAK:
		not_leak_block(op->ptr);
		break;
	case EARLY_IGNORE:
		ignore_block(op->ptr);
		break;
	case EARLY_SCAN_AREA:
		add_scan_area(op->ptr, op->offset, op->size);
		break;
	}
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

static void __init init_pending_logs(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		pending_logs[cpu].next = pending_logs[cpu].allocs;
		pending_logs[cpu].switches = &task_switch_count[cpu];
	}
}

/*
 * Gives every waiting allocation of log (CPU cpu's) its block; the log
 * lock held, interrupts off, this CPU inside the collector. A disabled
 * collector just empties it.
 */
static void flush_log(struct pending_log *log, unsigned int cpu)
{
	spin_lock(&memleak_lock);
	for (const struct pending_alloc *a = log->allocs;
	     a < log->next && memleak.enabled; a++) {
		const struct pending_ctx *c = a->ctx;
		struct memleak_trace key = { .pid = c->pid,
					     .nr_entries = c->nr_entries };

		if (!a->start_inv)
			continue;
		memcpy(key.comm, c->comm, sizeof(key.comm));
		for (unsigned int i = 0; i < c->nr_entries; i++)
			key.entries[i] = stack_chain_call_site(c->rets[i]);
		create_block(~a->start_inv, a->size, a->min_count, &key,
			     a->jiffies, cpu);
	}
	/* last_ctx stays, to be found unchanged next time. */
	log->next = log->allocs;
	spin_unlock(&memleak_lock);
}

/* Flushes every CPU's log; this CPU inside the collector, no lock held. */
static void flush_all_logs(void)
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

	if (!READ_ONCE(memleak.tracking) || !hook_enter(&flags))
		return;
	flush_all_logs();
	hook_leave(flags);
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

	if (last && last->switches == switches) {
		unsigned long *to = (unsigned long *)c->comm;
		const unsigned long *from = (const unsigned long *)last->comm;

		/* Word by word: memcpy() would cost more than the identity. */
		for (unsigned int i = 0; i < sizeof(c->comm) / sizeof(long); i++)
			to[i] = from[i];
		c->pid = last->pid;
	} else {
		task_current_identity(c->comm, sizeof(c->comm), &c->pid);
	}
	c->switches = switches;
	log->last_ctx = c;
	c->nr_entries = save_stack_chain(fp, c->rets, c->fps,
					 MEMLEAK_TRACE_LENGTH);
	if (c->nr_entries < MEMLEAK_TRACE_LENGTH)
		c->fps[0] = 0;
	return c;
}

/* The last context, when the allocation now at fp shares it; else NULL. */
static inline struct pending_ctx *
same_context(struct pending_log *log, unsigned long fp, u64 switches)
{
	struct pending_ctx *c = log->last_ctx;

	if (!c || c->switches != switches || c->fps[0] != fp ||
	    !stack_chain_unchanged(c->rets, c->fps, MEMLEAK_TRACE_LENGTH))
		return NULL;
	return c;
}

/*
 * Runs an annotation (or, before memleak_init(), any operation) the
 * slow way: logged before init, applied after, ignored once the
 * collector is disabled. Annotations first flush the logs: the block
 * they name may still wait in one.
 */
static __noinline void do_op(enum early_op_type type, const void *ptr,
			     unsigned long offset, size_t size, int min_count)
{
	unsigned long flags;

	if (!ptr || !hook_enter(&flags))
		return;
	if (READ_ONCE(memleak.tracking))
		flush_all_logs();
	spin_lock(&memleak_lock);
	if (!memleak.enabled)
		goto out;
	if (!memleak.initialized) {
		log_early(type, (unsigned long)ptr, offset, size, min_count);
		goto out;
	}
	switch (type) {
	case EARLY_ALLOC:
	case EARLY_FREE:
		break;	/* only before init: then memleak_alloc/free() */
	case EARLY_PADDING:
		pad_block((unsigned long)ptr, offset, size);
		break;
	case EARLY_NOT_LEAK:
		not_leak_block((unsigned long)ptr);
		break;
	case EARLY_IGNORE:
		ignore_block((unsigned long)ptr);
		break;
	case EARLY_SCAN_AREA:
		add_scan_area((unsigned long)ptr, offset, size);
		break;
	}
out:
	spin_unlock(&memleak_lock);
	hook_leave(flags);
}

/*
 * A hook off its fast path: before memleak_init() the operation goes to
 * the early log; with the collector running on this CPU (its own
 * allocations) or disabled it is dropped.
 */
static __noinline void untracked_op(enum early_op_type type, const void *ptr,
				    size_t size, int min_count)
{
	if (!READ_ONCE(memleak.initialized))
		do_op(type, ptr, 0, size, min_count);
}

/*
 * A hook's fast path starts here: interrupts off, and this CPU's log;
 * NULL (interrupts as they were) when this CPU may not take it: the
 * collector runs here (the call comes from its own allocations), or it
 * does not track (yet, or any more). Nothing on the fast paths
 * allocates, so unlike hook_enter() this does not mark the CPU.
 */
static __always_inline struct pending_log *fast_enter(unsigned long *flags,
						      unsigned int *cpu)
{
	struct pending_log *log;

	*flags = arch_irq_save();
	*cpu = smp_processor_id();
	log = &pending_logs[*cpu];
	/* Kept in a register: recomputed, it costs a multiply each time. */
	OPTIMIZER_HIDE_VAR(log);
	if (likely(!log->bypass))
		return log;
	arch_irq_restore(*flags);
	return NULL;
}

/*
 * The allocators' hook: the allocation goes to this CPU's log, with
 * its context (thread and backtrace). Not inlined: the backtrace starts
 * at this function's frame, whose return address is the allocator's
 * call site. Nothing here allocates or frees, so this CPU need not be
 * marked as inside the collector unless the log is full.
 */
__noinline void memleak_alloc(const void *ptr, size_t size, int min_count)
{
	unsigned long flags, fp;
	struct pending_log *log;
	u64 switches;
	struct pending_alloc *a;
	struct pending_ctx *c;
	unsigned int cpu;

	if (unlikely(!ptr))
		return;
	log = fast_enter(&flags, &cpu);
	if (unlikely(!log)) {
		untracked_op(EARLY_ALLOC, ptr, size, min_count);
		return;
	}
	fp = (unsigned long)__builtin_frame_address(0);
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
	log_unlock(log);
	arch_irq_restore(flags);
}
EXPORT_SYMBOL(memleak_alloc);

/*
 * A free whose block is not in this CPU's log: it is in the tree, or
 * in another CPU's log (flushed first), or it is no block at all.
 */
static __noinline void free_tracked(unsigned long start, unsigned int cpu)
{
	pending_logs[cpu].in_collector = true;
	spin_lock(&memleak_lock);
	if (memleak.enabled && !memleak_lookup_block(start)) {
		spin_unlock(&memleak_lock);
		flush_all_logs();
		spin_lock(&memleak_lock);
	}
	if (memleak.enabled)
		delete_block(start);
	spin_unlock(&memleak_lock);
	pending_logs[cpu].in_collector = false;
}

/* The free hook, interrupts off (by the caller of either entry below). */
static __always_inline void free_hook(const void *ptr)
{
	unsigned int cpu = smp_processor_id();
	struct pending_log *log = &pending_logs[cpu];
	bool cancelled;

	OPTIMIZER_HIDE_VAR(log);
	if (unlikely(log->bypass)) {
		untracked_op(EARLY_FREE, ptr, 0, 0);
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

void memleak_padding(const void *ptr, unsigned long offset, size_t size)
{
	do_op(EARLY_PADDING, ptr, offset, size, 0);
}
EXPORT_SYMBOL(memleak_padding);

void memleak_not_leak(const void *ptr)
{
	do_op(EARLY_NOT_LEAK, ptr, 0, 0, 0);
}
EXPORT_SYMBOL(memleak_not_leak);

void memleak_ignore(const void *ptr)
{
	do_op(EARLY_IGNORE, ptr, 0, 0, 0);
}
EXPORT_SYMBOL(memleak_ignore);

void memleak_scan_area(const void *ptr, unsigned long offset, size_t length)
{
	do_op(EARLY_SCAN_AREA, ptr, offset, length, 0);
}
EXPORT_SYMBOL(memleak_scan_area);

/* ------------------------------------------------------------------ */
/* Aliases from the container_of() records                            */

extern const struct memleak_offset __memleak_offsets_start[];
extern const struct memleak_offset __memleak_offsets_end[];

struct alias_pair {
	unsigned long size;
	unsigned long offset;
};

struct alias_pairs {
	struct alias_pair *v;
	unsigned int nr, max;
};

/* Records that blocks of size bytes may be pointed to at offset. */
static void add_pair(struct alias_pairs *p, unsigned long size,
		     unsigned long offset)
{
	offset = ALIGN_DOWN(offset, sizeof(long));
	if (size == 0 || offset == 0 || offset >= size || p->nr == p->max)
		return;
	p->v[p->nr].size = size;
	p->v[p->nr].offset = offset;
	p->nr++;
}

static int compare_pairs(const struct alias_pair *a, const struct alias_pair *b)
{
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return 0;
}

/* Insertion sort: a few thousand records, once at boot. */
static void sort_pairs(struct alias_pairs *p)
{
	for (unsigned int i = 1; i < p->nr; i++) {
		struct alias_pair x = p->v[i];
		unsigned int j = i;

		while (j > 0 && compare_pairs(&p->v[j - 1], &x) > 0) {
			p->v[j] = p->v[j - 1];
			j--;
		}
		p->v[j] = x;
	}
}

/* Primary offsets of blocks of size, among the first nr_primary pairs. */
static void add_secondary(struct alias_pairs *p, unsigned int nr_primary,
			  const struct memleak_offset *o)
{
	for (unsigned int i = 0; i < nr_primary; i++)
		if (p->v[i].size == o->member_size)
			add_pair(p, o->size, o->offset + p->v[i].offset);
}

/*
 * Each offset of a set counts the record sets that gave it (the
 * kernel's, each loaded module's), in an array right after offsets[nr],
 * so that a module's removal takes out only what no one else gave.
 */
static unsigned int *alias_users(const struct memleak_alias_set *set)
{
	return (unsigned int *)&set->offsets[set->nr];
}

static bool pairs_have(const struct alias_pair *first, unsigned int n,
		       unsigned long offset)
{
	for (unsigned int i = 0; i < n; i++)
		if (first[i].offset == offset)
			return true;
	return false;
}

/*
 * Adds (delta 1) the pairs for one size to the set known for it, or
 * takes them out (delta -1), as a new set.
 */
static int publish_set(const struct alias_pair *first, unsigned int n,
		       int delta)
{
	const struct memleak_alias_set *old = aliases_of_size(first->size);
	unsigned int nr_old = old ? old->nr : 0, nr = 0;
	unsigned int max = nr_old + (delta > 0 ? n : 0);
	struct memleak_alias_set *set;
	unsigned int *users;

	set = kmalloc(sizeof(*set) + max * (sizeof(long) + sizeof(int)),
		      GFP_ATOMIC);
	if (!set)
		return -ENOMEM;
	users = (unsigned int *)&set->offsets[max];
	for (unsigned int i = 0; i < nr_old; i++) {
		unsigned int u = alias_users(old)[i];

		if (pairs_have(first, n, old->offsets[i]))
			u = delta > 0 ? u + 1 : u - 1;
		if (u == 0)
			continue;
		set->offsets[nr] = old->offsets[i];
		users[nr++] = u;
	}
	for (unsigned int i = 0; delta > 0 && i < n; i++) {
		bool dup = false;

		for (unsigned int j = 0; j < nr && !dup; j++)
			dup = set->offsets[j] == first[i].offset;
		if (!dup) {
			set->offsets[nr] = first[i].offset;
			users[nr++] = 1;
		}
	}
	set->nr = nr;
	memmove(alias_users(set), users, nr * sizeof(*users));
	/*
	 * Blocks already tracked keep the old set (it is never freed): a
	 * module's aliases apply to blocks allocated while it is loaded.
	 */
	if (old)
		radix_tree_delete(&alias_tree, first->size);
	if (nr == 0) {
		kfree(set);
		return 0;
	}
	return radix_tree_insert(&alias_tree, first->size, set);
}

static int publish_pairs(struct alias_pairs *p, int delta)
{
	unsigned int i = 0;

	sort_pairs(p);
	while (i < p->nr) {
		unsigned int j = i;

		while (j < p->nr && p->v[j].size == p->v[i].size)
			j++;
		if (publish_set(&p->v[i], j - i, delta))
			return -ENOMEM;
		i = j;
	}
	return 0;
}

/* How many secondary pairs add_secondary() may make from these records. */
static unsigned int count_secondary(const struct memleak_offset *start,
				    const struct memleak_offset *end)
{
	unsigned int n = 0;

	if (!IS_ENABLED(CONFIG_DEBUG_MEMLEAK_SECONDARY_ALIASES))
		return 0;
	for (const struct memleak_offset *o = start; o < end; o++)
		for (const struct memleak_offset *q = start; q < end; q++)
			n += q->size == o->member_size;
	return n;
}

/*
 * Builds (or extends, for a module: delta 1) the alias sets, or takes a
 * module's records out again (delta -1); returns the pairs counted.
 */
static int alias_records(const struct memleak_offset *start,
			 const struct memleak_offset *end, int delta)
{
	unsigned int n = end - start, nr_primary;
	struct alias_pairs p = { .max = n + count_secondary(start, end) };
	int err;

	if (n == 0)
		return 0;
	p.v = kmalloc(p.max * sizeof(*p.v), GFP_ATOMIC);
	if (!p.v)
		return -ENOMEM;
	for (const struct memleak_offset *o = start; o < end; o++)
		add_pair(&p, o->size, o->offset);
	nr_primary = p.nr;
	if (IS_ENABLED(CONFIG_DEBUG_MEMLEAK_SECONDARY_ALIASES))
		for (const struct memleak_offset *o = start; o < end; o++)
			add_secondary(&p, nr_primary, o);
	err = publish_pairs(&p, delta);
	kfree(p.v);
	return err ? err : (int)p.nr;
}

/* Adds the aliases of a loaded module's container_of() uses. */
int memleak_insert_aliases(const struct memleak_offset *start,
			   const struct memleak_offset *end)
{
	unsigned long flags;
	int n;

	memleak_enter(&flags);
	n = alias_records(start, end, 1);
	if (n < 0)
		memleak_disable("out of memory for aliases");
	memleak_leave(flags);
	return n < 0 ? n : 0;
}

/* Takes out what memleak_insert_aliases() added for the same records. */
void memleak_remove_aliases(const struct memleak_offset *start,
			    const struct memleak_offset *end)
{
	unsigned long flags;

	memleak_enter(&flags);
	if (alias_records(start, end, -1) < 0)
		memleak_disable("out of memory for aliases");
	memleak_leave(flags);
}

/* ------------------------------------------------------------------ */
/* Start-up                                                            */

static int __init create_caches(void)
{
	block_cache = kmem_cache_create("memleak_block",
					sizeof(struct memleak_block), 0,
					SLAB_NOLEAKTRACE, NULL);
	trace_cache = kmem_cache_create("memleak_trace",
					sizeof(struct memleak_trace), 0,
					SLAB_NOLEAKTRACE, NULL);
	area_cache = kmem_cache_create("memleak_scan_area",
				       sizeof(struct memleak_scan_area), 0,
				       SLAB_NOLEAKTRACE,
				       NULL);
	node_cache = kmem_cache_create("memleak_tree_node",
				       RADIX_TREE_NODE_SIZE, 0,
				       SLAB_NOLEAKTRACE, NULL);
	return block_cache && trace_cache && area_cache && node_cache ?
		       0 : -ENOMEM;
}

/*
 * Called by mm_init() once slab and kmalloc work: makes the caches and
 * the alias sets, then replays what the early log recorded.
 */
void __init memleak_init(void)
{
	unsigned long flags;
	int aliases;

	memleak_enter(&flags);
	radix_tree_init(&memleak.tree, alloc_tree_node, free_tree_node, NULL);
	radix_tree_keep_spares(&memleak.tree, SPARE_TREE_NODES);
	radix_tree_init(&alias_tree, alloc_alias_node, free_alias_node, NULL);
	memleak.min_age_jiffies =
		(unsigned long)CONFIG_DEBUG_MEMLEAK_MIN_AGE_MS * HZ / 1000;
	if (create_caches()) {
		memleak_disable("cannot create the metadata caches");
		memleak_leave(flags);
		return;
	}
	aliases = alias_records(__memleak_offsets_start, __memleak_offsets_end,
				1);
	if (aliases < 0)
		memleak_disable("out of memory for aliases");
	memleak.initialized = true;
	for (unsigned int i = 0; i < early_count && memleak.enabled; i++)
		replay_op(&early_log[i]);
	init_pending_logs();
	memleak_set_tracking(memleak.enabled);
	memleak_leave(flags);
	printk("memleak: tracking %lu blocks (%u early), %d aliases from %u "
	       "container_of() records\n", memleak.nr_blocks, early_count,
	       aliases, (unsigned int)(__memleak_offsets_end -
				       __memleak_offsets_start));
}
