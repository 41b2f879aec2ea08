/*
 * The leak collector, part 1: tracking. Every annotation of
 * <kernel/memleak.h> ends here, and every allocation that lives long
 * enough to leave its CPU's log (memleak_log.c). Each tracked block gets a
 * struct memleak_block, found from any address inside it through the
 * allocator's geometry (memleak_index.c); the aliases, the offsets of
 * members that container_of() may be applied to, are kept per block size
 * and checked against the offset of an address in its block.
 *
 * Locking: memleak_lock (IRQs off) protects the index and the blocks; it
 * is taken with no allocator lock held, and inside it only the metadata
 * caches' slab and page-allocator locks are taken. Each CPU's log of
 * recent allocations (memleak_log.c) has a lock of its own, taken
 * before memleak_lock. Lock order: log lock -> memleak_lock -> slab
 * cache lock -> page allocator lock.
 * The collector's own allocations come from slab caches too: a per-CPU
 * flag turns the hooks off while the collector runs on that CPU, so they
 * are never tracked (and never recurse).
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/radix-tree.h>
#include <kernel/slab.h>
#include <kernel/smp.h>
#include <kernel/stacktrace.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/export.h>
#include "memleak.h"

struct memleak_state memleak = {
	.enabled = true,
	.stack_scan = IS_ENABLED(CONFIG_DEBUG_MEMLEAK_TASK_STACKS),
	.interior = IS_ENABLED(CONFIG_DEBUG_MEMLEAK_INTERIOR),
	.blocks = LIST_HEAD_INIT(memleak.blocks),
	.deferred = LIST_HEAD_INIT(memleak.deferred),
	.min_addr_inv = 0,	/* ~ULONG_MAX: nothing tracked yet */
	.max_addr_inv = ~0UL,	/* ~0 */
};
DEFINE_SPINLOCK(memleak_lock);

static struct kmem_cache *block_cache, *trace_cache, *area_cache;

#define TRACE_HASH_SIZE 1024
static struct memleak_trace *trace_hash[TRACE_HASH_SIZE];

/* The alias sets, indexed by block size. */
static struct radix_tree_root alias_tree;

static bool disable_reported;

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

struct memleak_trace *memleak_intern_trace(struct memleak_trace *key)
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
	memleak_index_shrink();
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
/* Blocks in the index                                                */

struct memleak_block *memleak_lookup_block(unsigned long addr)
{
	struct memleak_block *b = memleak_index_find(addr);

	return b && block_has_key(b, addr) ? b : NULL;
}

static const struct memleak_alias_set *aliases_of_size(size_t size)
{
	return size ? radix_tree_lookup(&alias_tree, size) : NULL;
}

static void free_block(struct memleak_block *b)
{
	struct memleak_scan_area *area;

	while ((area = b->areas)) {
		b->areas = area->next;
		kmem_cache_free(area_cache, area);
	}
	if (b->trace)
		put_trace(b->trace);
	kmem_cache_free(block_cache, b);
}

void memleak_pin(void)
{
	memleak.pins++;
}

/* The last unpin frees what was freed meanwhile. */
void memleak_unpin(void)
{
	if (--memleak.pins)
		return;
	while (!list_empty(&memleak.deferred)) {
		struct memleak_block *b = list_first_entry(
			&memleak.deferred, struct memleak_block, node);

		list_del(&b->node);
		free_block(b);
	}
}

static void discard_block(struct memleak_block *b, const char *why)
{
	put_trace(b->trace);
	kmem_cache_free(block_cache, b);
	memleak_disable(why);
}

void memleak_create_block(unsigned long start, size_t size, int min_count,
			  struct memleak_trace *trace, unsigned long when,
			  unsigned int cpu)
{
	struct memleak_block *b;
	int err;

	if (!trace) {
		memleak_disable("out of memory for backtraces");
		return;
	}
	b = kmem_cache_alloc(block_cache, GFP_ATOMIC);
	if (!b) {
		put_trace(trace);
		memleak_disable("out of memory for block metadata");
		return;
	}
	/* A compound literal, not memset: the compiler stores each field. */
	*b = (struct memleak_block){
		.start = start,
		.size = size,
		.min_count = (s16)min_count,
		.flags = MEMLEAK_ALLOCATED | (memleak.marking ? MEMLEAK_NEW : 0),
		.cpu = (u8)cpu,
		.jiffies = when,
		.aliases = aliases_of_size(size),
		.trace = trace,
	};
	err = memleak_index_insert(b);
	if (err == -EEXIST) {
		printk("memleak: block 0x%08lx (size %zu) overlaps a tracked one\n",
		       start, size);
		discard_block(b, "overlapping block");
		return;
	}
	if (err == -ERANGE) {
		printk("memleak: block 0x%08lx (size %zu) runs past its slab "
		       "object\n", start, size);
		discard_block(b, "block across slab objects");
		return;
	}
	if (err) {
		discard_block(b, "out of memory for the index");
		return;
	}
	/* A block new to the running scan is not white in it: see there. */
	if (b->flags & MEMLEAK_NEW)
		b->count = b->min_count;
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

bool memleak_try_delete_block(unsigned long start)
{
	struct memleak_block *b = memleak_index_find(start);

	if (!b || b->start != start)
		return false;
	if (b->flags & MEMLEAK_REPORTED) {
		memleak.nr_freed_after_report++;
		if (IS_ENABLED(CONFIG_DEBUG_MEMLEAK_ORPHAN_FREEING))
			orphan_freed(b);
	}
	memleak_index_remove(b);
	b->flags &= ~MEMLEAK_ALLOCATED;
	list_del(&b->node);
	memleak.nr_blocks--;
	if (memleak.pins)
		list_add_tail(&b->node, &memleak.deferred);
	else
		free_block(b);
	return true;
}

void memleak_delete_block(unsigned long start)
{
	if (!memleak_try_delete_block(start)) {
		printk("memleak: freeing unknown object at 0x%08lx\n", start);
		dump_stack();
	}
}

/* The block that starts at ptr, or NULL after a warning naming what. */
static struct memleak_block *find_start(unsigned long ptr, const char *what)
{
	struct memleak_block *b = memleak_index_find(ptr);

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
	b->pad_offset = offset;
	b->aliases = aliases_of_size(size);
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
		memleak_create_block(op->ptr, op->size, op->min_count,
				     memleak_intern_trace(&key), jiffies,
				     smp_processor_id());
		break;
	case EARLY_FREE:
		memleak_delete_block(op->ptr);
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
/* Annotations, and the hooks before memleak_init()                    */

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

	if (!ptr || !memleak_hook_enter(&flags))
		return;
	if (READ_ONCE(memleak.tracking))
		memleak_flush_logs();
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
	memleak_hook_leave(flags);
}

/*
 * A hook off its fast path: before memleak_init() the operation goes to
 * the early log; with the collector running on this CPU (its own
 * allocations) or disabled it is dropped.
 */
void memleak_untracked_alloc(const void *ptr, size_t size, int min_count)
{
	if (!READ_ONCE(memleak.initialized))
		do_op(EARLY_ALLOC, ptr, 0, size, min_count);
}

void memleak_untracked_free(const void *ptr)
{
	if (!READ_ONCE(memleak.initialized))
		do_op(EARLY_FREE, ptr, 0, 0, 0);
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
	memleak.nr_aliases += nr;
	memleak.nr_aliases -= nr_old;
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
	return block_cache && trace_cache && area_cache ? 0 : -ENOMEM;
}

static unsigned long cache_pages(const struct kmem_cache *c)
{
	return c ? READ_ONCE(c->nr_slabs) << c->order : 0;
}

unsigned long memleak_metadata_bytes(void)
{
	unsigned long flags, pages, bytes;

	memleak_enter(&flags);
	pages = cache_pages(block_cache) + cache_pages(trace_cache) +
		cache_pages(area_cache) + memleak_index_pages() +
		memleak_queue_pages();
	bytes = pages * PAGE_SIZE;
	memleak_leave(flags);
	return bytes;
}

unsigned long memleak_nr_free_pages(void)
{
	unsigned long flags, n;

	memleak_enter(&flags);
	n = nr_free_pages() + cache_pages(block_cache) +
	    cache_pages(trace_cache) + cache_pages(area_cache) +
	    memleak_index_pages() + memleak_queue_pages();
	memleak_leave(flags);
	return n;
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
	radix_tree_init(&alias_tree, alloc_alias_node, free_alias_node, NULL);
	memleak.min_age_jiffies =
		(unsigned long)CONFIG_DEBUG_MEMLEAK_MIN_AGE_MS * HZ / 1000;
	if (create_caches() || memleak_index_init() || memleak_queue_init()) {
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
	memleak_init_logs();
	memleak_set_tracking(memleak.enabled);
	memleak_leave(flags);
	printk("memleak: tracking %lu blocks (%u early), %d aliases from %u "
	       "container_of() records\n", memleak.nr_blocks, early_count,
	       aliases, (unsigned int)(__memleak_offsets_end -
				       __memleak_offsets_start));
}
