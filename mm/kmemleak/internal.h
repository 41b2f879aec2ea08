/*
 * The leak collector's private data structures and the interfaces its
 * files offer each other (mm/kmemleak/, docs/memleak.md):
 *
 *   tracking.c    blocks, the collector's state, start-up
 *   index.c       address -> block (page entry -> shape, bits, records)
 *   index_tree.c  the blocks outside slabs, in a tree of start pages
 *   traces.c      allocation contexts, stored once each
 *   aliases.c     container_of() offsets per block size
 *   extra.c       the rare parts of a block: scan areas, padding
 *   types.c       typed blocks: precise scanning, pointer type checks
 *   early.c       the buffer of operations before memleak_init()
 *   annotations.c memleak_padding(), _not_leak(), _ignore(), _scan_area()
 *   suppress.c    patterns that leave known leaks out; not-leak/ignore ADDR
 *   suppress_pattern.c  the patterns' checks, matching and file syntax
 *   log.c         the hooks' fast path: per-CPU logs of recent allocations
 *   queue.c       the scan's queues of blocks
 *   scan.c        the scan, and its confirmation with the world stopped
 *   written.c     the pages written while a scan runs (its pause)
 *   classify.c    suspects sorted: direct, indirect, possibly lost
 *   roots.c       the kernel's roots; stopping the other CPUs
 *   report.c      printing blocks and suspects
 *   command.c     the 'memleak' shell command
 *   thread.c      background scans
 *   measure.c     one scan and its cost, for 'mmbench scan'
 */
#ifndef MM_KMEMLEAK_INTERNAL_H
#define MM_KMEMLEAK_INTERNAL_H

#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/memleak.h>
#include <kernel/memleak_type.h>
#include <kernel/spinlock.h>
#include <kernel/types.h>
#include "suppress_pattern.h"

#define MEMLEAK_TRACE_LENGTH CONFIG_DEBUG_MEMLEAK_TRACE_LENGTH
/*
 * Allocator frames (<kernel/alloc_entry.h>) a capture may find above
 * the hook and drop, beyond the MEMLEAK_TRACE_LENGTH it keeps: kzalloc
 * -> kmalloc, vzalloc -> vmalloc_caller are 2; the rest is a margin.
 */
#define MEMLEAK_ALLOC_FRAMES 4
/* Allocations each CPU keeps in its log before they become blocks. */
#define MEMLEAK_PENDING_ALLOCS 16
#define MEMLEAK_COMM_LEN 16

/*
 * Where and by whom blocks were allocated. Many blocks share one
 * context (same thread, same call chain), so contexts are stored once,
 * in a hash table, and counted.
 */
struct memleak_trace {
	struct memleak_trace *hash_next;
	u32 hash;
	u32 refs;		/* blocks (and report holders) using it */
	u32 id;			/* blocks name it by it: memleak_trace_of() */
	int pid;
	u16 nr_entries;
	u8 parked;		/* in the ring of unused traces */
	/*
	 * Which CPU allocated, and what: the type id (memleak_type_id(),
	 * 0 untyped). Traces that differ in either are two traces.
	 */
	u8 cpu;
	u8 type;
	/* Word-aligned: task_current_identity() copies it by words. */
	char comm[MEMLEAK_COMM_LEN] __aligned(sizeof(long));
	unsigned long entries[MEMLEAK_TRACE_LENGTH];
};

/*
 * Every stored trace by id (traces.c), so that a block names its trace
 * in 2 bytes: pages of pointers, MEMLEAK_TRACES_PER_PAGE each, made as
 * needed and never freed, so a reader needs no more than memleak_lock.
 * Id 0 is none, so at most MEMLEAK_MAX_TRACES live at once.
 */
#define MEMLEAK_MAX_TRACES 0xffffu
#define MEMLEAK_TRACES_PER_PAGE (PAGE_SIZE / sizeof(void *))
#define MEMLEAK_TRACE_PAGES \
	DIV_ROUND_UP(MEMLEAK_MAX_TRACES + 1, MEMLEAK_TRACES_PER_PAGE)
extern struct memleak_trace **memleak_trace_pages[MEMLEAK_TRACE_PAGES];

/* Where the table keeps trace id (its page must exist). */
static inline struct memleak_trace **memleak_trace_entry(u32 id)
{
	return &memleak_trace_pages[id / MEMLEAK_TRACES_PER_PAGE]
				   [id % MEMLEAK_TRACES_PER_PAGE];
}

static inline struct memleak_trace *memleak_trace_of(u32 id)
{
	return *memleak_trace_entry(id);
}

/* Only these parts of a block are scanned, when it has any. */
struct memleak_scan_area {
	struct memleak_scan_area *next;
	unsigned long offset;
	size_t length;
};

/*
 * The offsets at which blocks of one size may also be pointed to; an
 * array of nr use counts follows offsets[] (tracking.c, alias_users()).
 */
struct memleak_alias_set {
	unsigned int nr;
	unsigned int size;	/* of the blocks it is for (for GDB) */
	unsigned long offsets[];
};

/*
 * The set of the blocks of size bytes, NULL when none (aliases.c): from
 * an array for the small sizes most blocks have, inline, since the scan
 * asks it for every word that points inside a block.
 */
#define MEMLEAK_SMALL_ALIAS_SIZES 1024
extern const struct memleak_alias_set
	*memleak_small_alias_sets[MEMLEAK_SMALL_ALIAS_SIZES];
const struct memleak_alias_set *memleak_large_aliases_of_size(size_t size);

static inline const struct memleak_alias_set *
memleak_aliases_of_size(size_t size)
{
	if (size < MEMLEAK_SMALL_ALIAS_SIZES)
		return memleak_small_alias_sets[size];
	return memleak_large_aliases_of_size(size);
}

/* Block flags. */
#define MEMLEAK_ALLOCATED (1 << 0)	/* cleared when freed */
#define MEMLEAK_BLACK (1 << 1)		/* memleak_ignore: not scanned, not reported */
#define MEMLEAK_REPORTED (1 << 2)	/* listed by an earlier 'memleak' */
#define MEMLEAK_CLEARED (1 << 3)	/* hidden by 'memleak clear' */
#define MEMLEAK_CHECKSUM_VALID (1 << 4)	/* has a sum in checksums.c */
#define MEMLEAK_SUSPECT (1 << 5)	/* white and old enough after the last scan */
#define MEMLEAK_NEW (1 << 6)		/* allocated during the running scan */
#define MEMLEAK_CONFIRMED (1 << 7)	/* white with the world stopped */
/* The last scan's verdict on a suspect (classify.c) */
#define MEMLEAK_INDIRECT (1 << 8)	/* another suspect points to it */
#define MEMLEAK_INTERIOR_REF (1 << 9)	/* reachable memory points inside it */
#define MEMLEAK_COVERED (1 << 10)	/* reached from a direct suspect */
#define MEMLEAK_REFERS_TO_SUSPECTS (1 << 11)	/* a suspect pointing at suspects */
#define MEMLEAK_EXPLAIN_SEEN (1 << 12)	/* queued by 'memleak why' (explain.c) */
#define MEMLEAK_EXTRA (1 << 13)		/* has scan areas or padding (extra.c) */
#define MEMLEAK_TYPED (1 << 14)		/* its trace's type id is not 0 */
#define MEMLEAK_SCANNED (1 << 15)	/* read whole by the running scan's mark */

/* What a suspect is, as LeakSanitizer and Valgrind name it. */
enum memleak_tier {
	MEMLEAK_DIRECT_LEAK,
	MEMLEAK_INDIRECT_LEAK,
	MEMLEAK_POSSIBLY_LOST,
	MEMLEAK_NR_TIERS
};

/*
 * One tracked block: 12 bytes (see docs/memleak.md). Its start is where
 * its record is (block_start()): a slab object's block is its slot's
 * record in its slab's array of records (index.c), so the slot gives
 * the start; every other block lives in a node of the tree of blocks
 * outside slabs (index_tree.c), which keeps start and size. Its size in
 * 16 bits (block_size(): a larger block is in the tree), its trace as
 * a 16-bit id (the trace holds its CPU and type), its aliases its
 * size's, its checksum (white blocks only) in checksums.c. A slab
 * record is reused by the next object tracked in its slot. A free
 * record has flags 0.
 * The colours of the 2006 design are derived from count and min_count:
 * white while count < min_count, gray once count >= min_count (so
 * min_count 0 is gray forever), black when MEMLEAK_BLACK is set.
 */
struct memleak_block {
	u32 jiffies;		/* allocation time (the low half on 64 bits) */
	u16 trace;		/* its trace's id: block_trace() (CPU, type) */
	u16 size;		/* or MEMLEAK_SIZE_LARGE: see block_size() */
	s8 min_count;		/* memleak_alloc()'s, at most 127 */
	s8 count;		/* references found by the running scan */
	u16 flags;
};
_Static_assert(sizeof(struct memleak_block) == 12, "a record is 12 bytes");

/*
 * A size the record's 16 bits cannot hold. Only blocks in the tree are
 * that large (it takes the objects of slots this large too:
 * memleak_index_insert()), and their tree node keeps the whole size.
 */
#define MEMLEAK_SIZE_LARGE 0xffffu

size_t memleak_tree_block_size(const struct memleak_block *b);

static inline size_t block_size(const struct memleak_block *b)
{
	if (likely(b->size != MEMLEAK_SIZE_LARGE))
		return b->size;
	return memleak_tree_block_size(b);
}

/*
 * What a walk of the blocks calls for each (memleak_walk_blocks(),
 * memleak_index_walk()): the block, its start (the walk knows its
 * slot, so it costs nothing there, where block_start() looks the
 * record's array up), and the walker's ctx.
 */
typedef void memleak_visit_fn(struct memleak_block *b, unsigned long start,
			      void *ctx);

/*
 * The first byte of b, from where its record lies (index.c). A path that
 * already knows the start (the scan's queue of object addresses, the
 * index's lookups) passes it on instead.
 */
unsigned long block_start(const struct memleak_block *b);

/*
 * Where the checksums' keys are counted from (checksums.c): the first
 * byte of RAM on a 64-bit host, so that a record's address fits 32 bits.
 */
static inline unsigned long memleak_addr_base(void)
{
	return sizeof(long) == 4 ? 0 : min_pfn << PAGE_SHIFT;
}

static inline struct memleak_trace *block_trace(const struct memleak_block *b)
{
	return b->trace ? memleak_trace_of(b->trace) : NULL;
}

static inline bool block_is_black(const struct memleak_block *b)
{
	return b->flags & MEMLEAK_BLACK;
}

static inline bool block_is_gray(const struct memleak_block *b)
{
	return !block_is_black(b) && b->count >= b->min_count;
}

static inline bool block_is_white(const struct memleak_block *b)
{
	return !block_is_black(b) && b->count < b->min_count;
}

/*
 * What a scan finds out about a block, which the next one starts
 * without (MEMLEAK_CONFIRMED stays: see scan.c, step 5).
 */
#define MEMLEAK_SCAN_FLAGS                                                \
	(MEMLEAK_SUSPECT | MEMLEAK_NEW | MEMLEAK_INDIRECT |              \
	 MEMLEAK_INTERIOR_REF | MEMLEAK_COVERED |                        \
	 MEMLEAK_REFERS_TO_SUSPECTS | MEMLEAK_SCANNED)

/*
 * A scan's first step for one block: no references found yet, so white,
 * or gray when it never leaks (min_count 0). Returns whether gray.
 */
static inline bool memleak_reset_for_scan(struct memleak_block *b)
{
	b->count = 0;
	b->flags &= ~MEMLEAK_SCAN_FLAGS;
	return block_is_gray(b);
}

/*
 * checksums.c: the sums of blocks white at a scan, by block. A block
 * with MEMLEAK_CHECKSUM_VALID has one, until it is freed (forget).
 * replace stores b's and returns 1 when b had one (then in *old), 0 when
 * not; it and reserve (room for n more, a table no larger than four
 * times what it needs; memleak_lock not held) fail with -ENOMEM.
 * prefetch fetches where b's would be. reserve is resize_begin (1: a new
 * table, 0: none needed), resize_step until it returns false (a page of
 * entries moved per window), resize_end; apart for the tests, which
 * free blocks between the steps.
 */
int memleak_checksum_reserve(unsigned long n);
int memleak_checksum_resize_begin(unsigned long n);
bool memleak_checksum_resize_step(void);
void memleak_checksum_resize_end(void);
void memleak_checksum_prefetch(const struct memleak_block *b);
bool memleak_checksum_get(const struct memleak_block *b, u32 *sum);
int memleak_checksum_replace(const struct memleak_block *b, u32 sum,
			     u32 *old);
void memleak_checksum_forget(const struct memleak_block *b);
unsigned long memleak_checksum_pages(void);
unsigned long memleak_checksum_entries(void);

/*
 * extra.c: the rare parts of a block (its scan areas, its padding), for
 * blocks with MEMLEAK_EXTRA; the setters fail with -ENOMEM.
 */
int memleak_extra_init(void);
unsigned long memleak_extra_pages(void);
unsigned long memleak_extra_pad_offset(const struct memleak_block *b);
size_t memleak_extra_object_size(const struct memleak_block *b);
const struct memleak_scan_area *
memleak_extra_scan_areas(const struct memleak_block *b);
int memleak_set_padding(struct memleak_block *b, unsigned long offset,
			size_t size);
int memleak_add_scan_area(struct memleak_block *b, unsigned long offset,
			  size_t length);
/*
 * Takes b's record, b having MEMLEAK_EXTRA, and its areas from b: freed
 * now, or at the unpin while the collector is pinned (a scan may be
 * reading the areas: memleak_extra_free_retired()).
 * The *_free_retired(n) functions free up to n of what was retired while
 * pinned (not pinned now) and return how many they freed; each place
 * that retires something counts it in memleak.nr_retired, tracking.c's
 * free_retired() counts what they give back.
 */
void memleak_free_extra(struct memleak_block *b);
unsigned int memleak_extra_free_retired(unsigned int n);

/* memleak_padding(): where the object starts in b (0 for most). */
static inline unsigned long block_pad_offset(const struct memleak_block *b)
{
	return b->flags & MEMLEAK_EXTRA ? memleak_extra_pad_offset(b) : 0;
}

/*
 * The offsets b's object may also be pointed to at: those of its size,
 * which memleak_padding() may give (else b's own).
 */
static inline const struct memleak_alias_set *
block_aliases(const struct memleak_block *b)
{
	return memleak_aliases_of_size(b->flags & MEMLEAK_EXTRA ?
				       memleak_extra_object_size(b) :
				       block_size(b));
}

/* The only parts of b that are scanned; NULL (most blocks): all of it. */
static inline const struct memleak_scan_area *
block_scan_areas(const struct memleak_block *b)
{
	return b->flags & MEMLEAK_EXTRA ? memleak_extra_scan_areas(b) : NULL;
}

/*
 * The parts of a block the scan reads, [start, end): each of its scan
 * areas, or the whole block when it has none. for_each_block_part(b,
 * start, p) visits those of block b at start; a body that may let b go
 * (a lock dropped) leaves the loop before the next part once b is
 * freed, as the areas are then only kept until the unpin.
 */
struct block_part {
	unsigned long start, end;
	const struct memleak_scan_area *next;	/* the next part's area */
};

static inline bool block_area_part(unsigned long start,
				   const struct memleak_scan_area *a,
				   struct block_part *p)
{
	if (!a)
		return false;
	p->start = start + a->offset;
	p->end = p->start + a->length;
	p->next = a->next;
	return true;
}

static inline bool block_first_part(const struct memleak_block *b,
				    unsigned long start, struct block_part *p)
{
	const struct memleak_scan_area *a = block_scan_areas(b);

	if (a)
		return block_area_part(start, a, p);
	p->start = start;
	p->end = start + block_size(b);
	p->next = NULL;
	return true;
}

#define for_each_block_part(b, start, p)                                \
	for (bool more_ = block_first_part(b, start, &(p)); more_;      \
	     more_ = block_area_part(start, (p).next, &(p)))

/*
 * Whether addr is one of the addresses b is known by: its start, the
 * object's start after memleak_padding(), or an alias of the object.
 */
static inline bool block_has_key(const struct memleak_block *b,
				 unsigned long start, unsigned long addr)
{
	unsigned long off = addr - start, pad = block_pad_offset(b);
	const struct memleak_alias_set *set;

	if (off == 0 || off == pad)
		return true;
	set = block_aliases(b);
	if (!set || off < pad)
		return false;
	off -= pad;
	for (unsigned int i = 0; i < set->nr; i++)
		if (set->offsets[i] == off)
			return true;
	return false;
}

/*
 * queue.c: first-in first-out queues of blocks, in page-sized
 * chunks; memleak_lock held, the blocks pinned (memleak_pin()). Each
 * entry is a block and its start, which a slab's record does not hold:
 * whoever queues a block knows it (a walk, a lookup), and whoever takes
 * it wants it. The scan's gray queue may hold a start alone (block
 * NULL), a slab object found by its first reference, whose record is
 * looked up later (scan.c).
 */
struct memleak_queue_entry {
	struct memleak_block *block;
	unsigned long start;
};
#define MEMLEAK_QUEUE_CHUNK                                                  \
	((PAGE_SIZE - 2 * sizeof(void *)) / sizeof(struct memleak_queue_entry))
struct memleak_queue_chunk {
	struct memleak_queue_chunk *next;
	unsigned int head, tail;	/* pop at head, push at tail */
	struct memleak_queue_entry entry[MEMLEAK_QUEUE_CHUNK];
};
struct memleak_queue {
	struct memleak_queue_chunk *first, *last;
	unsigned long nr;
};

/*
 * The steps of a scan (scan.c), timed for 'memleak stats': where a scan
 * of a large heap spends its time.
 */
enum memleak_phase {
	MEMLEAK_PHASE_RESET,		/* step 1: colours, marks */
	MEMLEAK_PHASE_MARK,		/* steps 2-3: roots, gray list */
	MEMLEAK_PHASE_CHECKSUM,		/* step 4: whites listed, summed */
	MEMLEAK_PHASE_CONFIRM,		/* step 5: the world stopped */
	MEMLEAK_PHASE_CLASSIFY,		/* suspects listed and sorted */
	MEMLEAK_NR_PHASES
};
extern const char *const memleak_phase_names[MEMLEAK_NR_PHASES];

/* State shared by the collector's files, all under memleak_lock. */

struct memleak_state {
	bool enabled;		/* tracking and scanning work */
	bool initialized;	/* past memleak_init(): no more early log */
	bool tracking;		/* both: the hooks' fast paths may run */
	bool stack_scan;	/* scan thread stacks as roots */
	bool interior;		/* any interior pointer counts (else: aliases) */
	bool marking;		/* a scan is past step 1: new blocks are NEW */
	bool confirming;	/* the world is stopped for step 5 */
	const char *disabled_why;	/* memleak_disable()'s first reason */
	unsigned long min_age_jiffies;
	/*
	 * Bounds of every block tracked so far, to pass over most words
	 * cheaply. Stored inverted: this is .data, a root, and the lowest
	 * block's address must not count as a reference to it.
	 */
	unsigned long min_addr_inv, max_addr_inv;
	unsigned long nr_blocks;
	unsigned long nr_traces;
	unsigned long nr_aliases;	/* offsets in the alias sets */
	unsigned long index_bytes;	/* index.c's slab records */
	/*
	 * While pinned (scans, reports), the memory of freed blocks' records
	 * (and of their scan areas) is kept until the last unpin, so the
	 * pointers in queues stay readable (index.c).
	 */
	unsigned int pins;
	unsigned long nr_retired;	/* kept until unpinned, not freed yet */
	/* statistics of the last scan; cycles of <kernel/cycles.h> */
	unsigned long scan_jiffies;
	u64 scan_cycles;
	u64 phase_cycles[MEMLEAK_NR_PHASES];
	unsigned long bytes_scanned;
	/* of those, in typed blocks' pointer fields; skipped: their data */
	unsigned long bytes_precise, bytes_skipped;
	bool typed;		/* typed blocks are scanned by their types */
	unsigned long nr_type_findings;
	unsigned long nr_suspects;
	unsigned long nr_new;
	/* white and confirmed, but younger than min_age: not reported yet */
	unsigned long nr_young;
	/* white, old enough, but matched by a suppression (suppress.c) */
	unsigned long nr_suppressed, suppressed_bytes;
	/* the suspects of the last scan by tier (classify.c) */
	unsigned long tier_blocks[MEMLEAK_NR_TIERS];
	unsigned long tier_bytes[MEMLEAK_NR_TIERS];
	/*
	 * Blocks freed after a scan had reported them: each one was either
	 * a live block reported as a leak, or a leak its owner freed through
	 * a pointer it kept hidden (inverted, say).
	 */
	unsigned long nr_freed_after_report;
	unsigned long scans;
	u64 scan_irqoff_cycles;	/* longest IRQ-off window of the last scan */
	u64 max_irqoff_cycles;	/* ... of every scan so far */
	/* step 5: the world stopped to confirm white blocks */
	unsigned long pauses;
	unsigned long pause_failures;	/* the world could not be stopped */
	unsigned long nr_rescued;	/* white blocks it found referenced */
	u64 pause_cycles;	/* the last pause */
	unsigned long pause_bytes;	/* read in the last pause */
	u64 max_pause_cycles;
	bool pause_knew_writes;	/* the last pause knew the written pages */
	unsigned long pause_unwritten;	/* blocks it passed over: unwritten */
	unsigned long pause_passed;	/* of those, by their read bits alone */
};

extern struct memleak_state memleak;
extern struct spinlock memleak_lock;

/*
 * b's type id (0: untyped), kept in its trace; MEMLEAK_TYPED spares the
 * untyped blocks, most of them, the trace's two loads.
 */
static inline u8 block_type_id(const struct memleak_block *b)
{
	return b->flags & MEMLEAK_TYPED ? block_trace(b)->type : 0;
}

/* Read for every gray block: inline. See types.c. */
static inline const struct memleak_type *
memleak_block_type(const struct memleak_block *b)
{
	u8 id = memleak.typed ? block_type_id(b) : 0;

	return id ? &__start_memleak_types[id - 1] : NULL;
}

/*
 * Whether value lies within the bounds of every block tracked so far:
 * small numbers, text addresses... do not, and need no index lookup.
 */
static inline bool memleak_in_bounds(unsigned long value)
{
	return ~value <= memleak.min_addr_inv && ~value > memleak.max_addr_inv;
}

/* tracking.c */
void memleak_disable(const char *why);
/* Pages of a metadata cache (NULL: none yet), for the page counts. */
unsigned long memleak_cache_pages(const struct kmem_cache *c);
/* The block addr is a key of (block_has_key()), or NULL. */
struct memleak_block *memleak_lookup_block(unsigned long addr);
/* Pins the blocks' metadata: see memleak_state.pins; memleak_lock held. */
void memleak_pin(void);
void memleak_unpin(void);
/*
 * The rest of what the last unpin did not free (it frees a window's
 * worth), a window at a time; no lock held. Stops if pinned again (the
 * next unpin goes on).
 */
void memleak_free_retired(void);
/* traces.c */
int memleak_traces_init(void);
unsigned long memleak_traces_pages(void);
/* Frees the unused traces kept for reuse. */
void memleak_traces_shrink(void);
/* The last reference to t went: it waits among the unused traces. */
void memleak_trace_unused(struct memleak_trace *t);

/* Inline: every allocation takes a reference, every free drops one. */
static inline void memleak_trace_get(struct memleak_trace *t)
{
	t->refs++;
}

static inline void memleak_trace_put(struct memleak_trace *t)
{
	if (--t->refs == 0)
		memleak_trace_unused(t);
}

/*
 * The stored copy of the context *key (a new one if needed), with a
 * reference taken; NULL when out of memory.
 */
struct memleak_trace *memleak_intern_trace(struct memleak_trace *key);
/* How many of the n call sites at the start of sites are the allocators'. */
unsigned int memleak_allocator_frames(const unsigned long *sites,
				      unsigned int n);

/*
 * types.c: typed blocks (<kernel/memleak_type.h>). A block's type is a
 * byte, the descriptor's place in the "memleak_types" section plus one;
 * 0 for none, for a descriptor outside it (a module's) and for a block
 * too small for its type. memleak_block_type() is NULL for an untyped
 * block, or for any while typed scanning is off ('memleak typed=off').
 * memleak_scan_typed_block() reads a typed block the way scan.c reads
 * others (memleak_scan_words()), at its pointer fields only, checking
 * what they point to during the main pass; false when the block was
 * freed meanwhile. memleak_lock held for both.
 */
u8 memleak_type_id(const struct memleak_type *type, size_t size);
/*
 * Whether the scan reads the word at offset in b: false in a typed
 * block's data fields and padding. What explains or classifies the
 * scan's verdicts reads blocks the same way (classify.c, explain.c,
 * graph.c).
 */
bool memleak_reads_word(const struct memleak_block *b, unsigned long offset);
bool memleak_scan_typed_block(struct memleak_block *b, unsigned long start,
			      const struct memleak_type *type,
			      unsigned long *flags);
/*
 * Type findings: forgotten at the start of each scan; confirmed (or
 * dropped) at its end, no lock held, the logs flushed; printed by
 * 'memleak' after the leaks. memleak_print_type_findings() returns how
 * many it printed.
 */
void memleak_types_new_scan(void);
void memleak_types_confirm(void);
unsigned long memleak_print_type_findings(void);
/* For 'memleak stats': how much of the heap is typed. */
void memleak_print_typed_share(void);

/* aliases.c */
extern const struct memleak_offset __memleak_offsets_start[];
extern const struct memleak_offset __memleak_offsets_end[];
int memleak_aliases_init(void);

/*
 * The operations that go through the early buffer (early.c) before
 * memleak_init(); the annotations go through memleak_annotate()
 * (annotations.c) after it. memleak_lock held.
 */
enum memleak_op {
	MEMLEAK_OP_ALLOC, MEMLEAK_OP_FREE, MEMLEAK_OP_PADDING,
	MEMLEAK_OP_NOT_LEAK, MEMLEAK_OP_IGNORE, MEMLEAK_OP_SCAN_AREA,
};
void memleak_early_log(enum memleak_op op, unsigned long ptr,
		       unsigned long offset, size_t size, int min_count,
		       const struct memleak_type *block_type);
/* Replays the buffer; returns the operations it held. */
unsigned int memleak_early_replay(void);
void memleak_annotate(enum memleak_op op, unsigned long ptr,
		      unsigned long offset, size_t size);
/*
 * A block for an allocation, which takes over a reference to trace
 * (NULL: out of memory; it names the CPU and the type too), and the
 * removal of one at a free (a warning when no block starts at start);
 * memleak_lock held, this CPU inside the collector. Failures disable the
 * collector.
 */
void memleak_create_block(unsigned long start, size_t size, int min_count,
			  struct memleak_trace *trace, unsigned long jiffies);
void memleak_delete_block(unsigned long start);
/* The same without the warning: false when no block starts there. */
bool memleak_try_delete_block(unsigned long start);
/*
 * A hook off its fast path: before memleak_init() the operation goes to
 * the early log; with the collector running on this CPU (its own
 * allocations) or disabled it is dropped.
 */
void memleak_untracked_alloc(const void *ptr, size_t size, int min_count,
			     const struct memleak_type *type);
void memleak_untracked_free(const void *ptr);

/*
 * Where the collector's metadata goes, in bytes, for 'memleak stats' and
 * the benchmarks' bytes-per-block figures: the records of the tracked
 * slab blocks (their slabs' arrays, whole), the index's tables (an
 * entry and a record pointer per page of RAM, the bit pool), the tree
 * of the blocks outside slabs (nodes and blocks), the traces, the scan
 * areas and paddings, the scan's queues and the checksums.
 * memleak_metadata_bytes() is their sum.
 */
struct memleak_metadata {
	unsigned long slab_blocks;	/* how many blocks the records hold */
	unsigned long records, tables, tree;
	unsigned long traces, extra, queues, checksums;
	unsigned long scan;	/* a running scan's bitmaps (scan.c, written.c) */
};
void memleak_metadata(struct memleak_metadata *m);
unsigned long memleak_metadata_bytes(void);

/*
 * index.c: the block holding an address (start <= addr < end; a
 * block of size 0 holds its start), and the index's upkeep. Insert fails
 * with -EEXIST when the block would overlap a tracked one, -ERANGE when
 * it starts in a slab object and runs past it, -ENOMEM.
 */
int memleak_index_init(void);
/* Its part of struct memleak_metadata (slab_blocks, records, tables, tree). */
void memleak_index_metadata(struct memleak_metadata *m);
/* Of those, the tables: page entries, slot-array pointers, bit pool. */
unsigned long memleak_index_table_pages(void);
/* Gives back the tree's spare nodes (and keeps a path's worth again). */
void memleak_index_shrink(void);
/* The block holding addr, or NULL; _at() also gives its start. */
struct memleak_block *memleak_index_find(unsigned long addr);
struct memleak_block *memleak_index_find_at(unsigned long addr,
					    unsigned long *start);
/*
 * For the pointer checks (types.c): the start and type id of the block
 * holding addr, read from its slot's record for slab objects (no range
 * check); false when no block holds it. See index.c for what it may get
 * wrong.
 */
bool memleak_index_peek(unsigned long addr, unsigned long *start, u8 *type);
/*
 * For the scan (see index.c's bit pools): the block at addr unless it is
 * marked (already found gray or black), and its start (*start). When
 * addr is the start of a simple block (one reference turns it gray),
 * the index marks it, sets *first_ref and returns its slot's record
 * without reading it: the caller queues it, to be fetched ahead of its
 * reading (free, or another block's, if the object was freed
 * meanwhile; the scan pins records, so it stays memory).
 * memleak_index_slot() computes the record of addr's slot alike, from
 * the page tables alone. A block the scan finds gray or black otherwise
 * is marked with memleak_index_mark(b, start) (slab blocks only; others
 * are never marked, nor simple). Marks last until the next scan clears
 * them, a budget of words at a time: memleak_slot_bits_clear_marks(from,
 * words) returns where to go on, 0 when done;
 * memleak_slot_bits_clear_all_marks() clears them all at once (tests).
 * After a change to a block's min_count or flags,
 * memleak_index_update() says whether it is simple.
 */
/* memleak_index_scan_lookup(addr, first_ref, start): inline, index.h */
struct memleak_block *memleak_index_slot(unsigned long addr);
/*
 * Whether addr lies in a slab slot the last scan marked: its block (if
 * any) is not white, so no suspect; from the page entry and the mark
 * pool alone, for what reads the suspects after a scan (classify.c).
 */
bool memleak_index_marked(unsigned long addr);
void memleak_index_mark(const struct memleak_block *b, unsigned long start);
void memleak_index_update(const struct memleak_block *b);
/* slot_bits.c, where the marks are */
unsigned long memleak_slot_bits_clear_marks(unsigned long from,
					    unsigned long words);
void memleak_slot_bits_clear_all_marks(void);
/*
 * Visits every block, slab objects in address order (their metadata
 * fetched ahead), then the others, at most max at a time: returns true
 * while some are left, to go on from *pos, which starts as
 * MEMLEAK_INDEX_WALK_START. Blocks added or
 * freed between calls may be visited or not; visit may not free blocks.
 * A walk from MEMLEAK_INDEX_WALK_UNMARKED passes over the slab objects
 * whose slot is marked, their records unread, a word of mark bits at a
 * time: after a scan's marking, what is left are the blocks that may be
 * white. Each slab it looks into counts as blocks visited (two, and two
 * per word of its marks), so that a call's work stays bounded however
 * many it passes over. A walk from MEMLEAK_INDEX_WALK_UNREAD, for the
 * scan's pause, passes over the slab objects the mark queued at their
 * first reference and so read whole (the index's read bits) in a slab
 * none of whose pages was written since the mark began
 * (memleak_range_written()), a word of read bits at a time, their
 * records unread, four of them counting as one visit;
 * pos->passed adds up how many it passed over. A walk from
 * MEMLEAK_INDEX_WALK_RESET, a scan's first step, resets every block
 * (memleak_reset_for_scan()) and visits only those that are gray even
 * so; a slab's records are reset in a row, each counting as three
 * quarters of a visit.
 */
enum memleak_walk_kind {
	MEMLEAK_WALK_EVERY,	/* every block */
	MEMLEAK_WALK_UNMARKED,	/* slab objects: only those not marked */
	MEMLEAK_WALK_UNREAD,	/* slab objects: not those read, unwritten */
	MEMLEAK_WALK_RESET,	/* every block reset, the gray ones visited */
};
struct memleak_index_pos {
	unsigned long page;	/* the page entries' next */
	unsigned int slot;	/* in that page's slab, when inside it */
	unsigned long key;	/* the tree's next start page */
	bool tree_done;
	enum memleak_walk_kind kind;
	unsigned int passed;	/* blocks passed over unread, so far */
};
#define MEMLEAK_INDEX_WALK_START { 0, 0, 0, false, MEMLEAK_WALK_EVERY, 0 }
#define MEMLEAK_INDEX_WALK_UNMARKED { 0, 0, 0, false, MEMLEAK_WALK_UNMARKED, 0 }
#define MEMLEAK_INDEX_WALK_UNREAD { 0, 0, 0, false, MEMLEAK_WALK_UNREAD, 0 }
#define MEMLEAK_INDEX_WALK_RESET { 0, 0, 0, false, MEMLEAK_WALK_RESET, 0 }
bool memleak_index_walk(struct memleak_index_pos *pos, unsigned int max,
			memleak_visit_fn *visit,
			void *ctx);
/*
 * Whether the page holding addr is known to the index: it holds (part
 * of) a block outside slabs, or a slab with records (for tests).
 */
bool memleak_index_page_used(unsigned long addr);
/*
 * Placing a block, finding one by its start and taking it out:
 * memleak_index_insert(), memleak_index_find_start() and
 * memleak_index_remove() in index.h.
 */
unsigned int memleak_index_free_retired(unsigned int n);
/*
 * The slab at base went back to the page allocator: its records go too.
 * False, records kept, when it still held tracked blocks.
 */
bool memleak_index_slab_released(unsigned long base);

/* log.c */
/*
 * Interrupts off and this CPU marked as inside the collector, so that
 * its own allocations are not tracked; false (interrupts as they were)
 * when it already was.
 */
bool memleak_hook_enter(unsigned long *flags);
void memleak_hook_leave(unsigned long flags);
/* Whether this CPU runs the collector (interrupts off). */
bool memleak_in_collector(void);
/* The same, for the scan: with memleak_lock taken. */
void memleak_enter(unsigned long *flags);
void memleak_leave(unsigned long flags);
/*
 * Sets memleak.tracking and its copy in every CPU's hook flags (host
 * tests turn a disabled collector back on with it).
 */
void memleak_set_tracking(bool on);
/* Scans the allocations waiting in the logs; the world stopped. */
void memleak_scan_pending(void);
/* Gives the allocations still waiting in the per-CPU logs their blocks. */
void memleak_flush_pending(void);
/* The same, from inside the collector (memleak_hook_enter()), no lock held. */
void memleak_flush_logs(void);
/* At memleak_init(), before tracking starts. */
void memleak_init_logs(void);

/*
 * classify.c: sets MEMLEAK_INDIRECT on the suspects of the queue that
 * are not direct leaks, and counts the tiers; the collector pinned, no
 * lock held.
 */
struct memleak_queue;
void memleak_classify_suspects(struct memleak_queue *suspects);
/*
 * A word of white block from (at start) that may point to another white
 * block, noted by step 4 for the classification's first pass
 * (memleak_lock held), a block's words in a row; every scan that notes
 * also classifies, which empties the notes.
 */
void memleak_classify_note(struct memleak_block *from, unsigned long start,
			   unsigned long word);
enum memleak_tier memleak_block_tier(const struct memleak_block *b);

/*
 * suppress.c: patterns that leave known leaks out of the reports. With
 * memleak_lock held: memleak_suppress_new_scan() resets the counts,
 * memleak_suppressed() says (and counts) whether a block's trace
 * matches one. memleak_add_suppression() takes the lock itself; 0, or
 * -1 after a message.
 */
void memleak_suppress_init(void);
void memleak_suppress_new_scan(void);
bool memleak_suppressed(const struct memleak_block *b);
int memleak_add_suppression(const char *pattern);

/* suppress_pattern.c: see suppress_pattern.h */

/* scan.c */
int memleak_scan(void);
/*
 * Counts the references in [start, end) (word-aligned inward), within
 * the IRQ-off window's budget, memleak_lock held; with owner given,
 * false as soon as owner has been freed (the lock is dropped between
 * windows). For types.c's typed blocks.
 */
bool memleak_scan_words(unsigned long start, unsigned long end,
			struct memleak_block *owner, unsigned long *flags);
/* The pages of the pause's filter of white blocks; memleak_lock held. */
unsigned long memleak_white_filter_pages(void);
/*
 * Calls visit(b, ctx) for every tracked block, memleak_lock held, in the
 * index's order (no lock held by the caller): a block freed or made
 * while the walk runs may be visited or not, any other exactly once.
 */
void memleak_walk_blocks(memleak_visit_fn *visit,
			 void *ctx);
/*
 * For explain.c: scans kept out (false while one runs or the collector
 * is off) and the blocks pinned, so the last scan's colours hold still
 * while it reads them; and the roots' ranges as the scan reads them,
 * each given to visit() (no lock held) instead of being scanned, thread
 * stacks always (memleak_walking_roots), the caller's own stack only
 * above floor. The walk needs the claim.
 */
bool memleak_claim_scan(void);
void memleak_release_scan(void);
/*
 * command.c, for the subcommands that read the last scan's colours: a
 * fresh scan, then none other until memleak_release_scan() (a scan
 * running when the claim was refused is waited for: it was fresh too);
 * -EBUSY, said as 'memleak CMD: ...', when the collector is disabled
 * or other scans keep running.
 */
int memleak_scan_and_claim(const char *cmd);
/* "memleak[ CMD]: the collector is disabled (why)". */
void memleak_say_disabled(const char *cmd);
void memleak_walk_roots(void (*visit)(unsigned long start, unsigned long end,
				      const char *root, void *ctx),
			void *ctx, unsigned long floor);
extern bool memleak_walking_roots;

/* queue.c: see the queues' types before struct memleak_state. */
int memleak_queue_init(void);
unsigned long memleak_queue_pages(void);
/* After a scan, no memleak_lock held: the emptied chunks given back. */
void memleak_queue_shrink(void);
/*
 * The spare chunks (queue.c): whether fewer are kept than a window of
 * the scan may fill, read without the lock, a hint; and, memleak_lock
 * held, one more taken from the allocator (false when there are enough,
 * or it is out of memory).
 */
bool memleak_queue_short_of_spares(void);
bool memleak_queue_take_spare(void);
/*
 * Push, pop and peek run for every block a scan queues, so their
 * common case is inline here; queue.c has the rest, a chunk added when
 * the last one is full (push_chunk, false when out of memory) and the
 * first one dropped once emptied.
 */
bool memleak_queue_push_chunk(struct memleak_queue *q, struct memleak_block *b,
			      unsigned long start);
void memleak_queue_drop_first(struct memleak_queue *q);

/* False when out of memory (the block is not queued). */
static inline bool memleak_queue_push(struct memleak_queue *q,
				      struct memleak_block *b,
				      unsigned long start)
{
	struct memleak_queue_chunk *last = q->last;

	if (!last || last->tail == MEMLEAK_QUEUE_CHUNK)
		return memleak_queue_push_chunk(q, b, start);
	last->entry[last->tail++] = (struct memleak_queue_entry){ b, start };
	q->nr++;
	return true;
}

/*
 * Blocks a walk of the index lists for a command to read afterwards, a
 * window at a time ('memleak refs', the graph's holders): once a push
 * fails the list is incomplete, and the command says so.
 */
struct memleak_block_list {
	struct memleak_queue queue;
	bool out_of_memory;
};

static inline void memleak_block_list_add(struct memleak_block_list *l,
					  struct memleak_block *b,
					  unsigned long start)
{
	if (!l->out_of_memory && !memleak_queue_push(&l->queue, b, start))
		l->out_of_memory = true;
}

/*
 * Takes the first entry into *e; false when q is empty. With keep_last,
 * the last chunk, emptied, is kept and starts again (until
 * memleak_queue_empty()): the gray queue drains as fast as it fills
 * when the scan walks a list, and would otherwise give back a chunk and
 * take one again for every block.
 */
static __always_inline bool queue_pop(struct memleak_queue *q,
				      struct memleak_queue_entry *e,
				      bool keep_last)
{
	struct memleak_queue_chunk *first = q->first;

	if (!first || first->head == first->tail)
		return false;
	*e = first->entry[first->head++];
	q->nr--;
	if (first->head != first->tail)
		return true;
	if (keep_last && !first->next)
		first->head = first->tail = 0;
	else
		memleak_queue_drop_first(q);
	return true;
}

static inline bool memleak_queue_pop(struct memleak_queue *q,
				     struct memleak_queue_entry *e)
{
	return queue_pop(q, e, false);
}

static inline bool memleak_queue_pop_keeping(struct memleak_queue *q,
					     struct memleak_queue_entry *e)
{
	return queue_pop(q, e, true);
}

/*
 * The entry ahead places after the next one, if in the first chunk: the
 * scan prefetches through it (scan.c).
 */
static inline const struct memleak_queue_entry *
memleak_queue_peek(const struct memleak_queue *q, unsigned int ahead)
{
	const struct memleak_queue_chunk *first = q->first;

	if (!first || first->head + ahead >= first->tail)
		return NULL;	/* past this chunk: not worth the walk */
	return &first->entry[first->head + ahead];
}

void memleak_queue_empty(struct memleak_queue *q);
/*
 * The same for one of the scan's own queues, a few chunks in each
 * window of memleak_lock, which it takes (memleak_scan_window_enter()):
 * at the end of a scan the suspects' queue holds a chunk per 500 or so
 * of them, and each chunk freed may give a slab back.
 */
void memleak_queue_empty_in_windows(struct memleak_queue *q);
/*
 * Puts q in the order of before(), a strict one. Without memleak_lock:
 * q is the caller's alone, its blocks pinned, and before() reads only
 * what never changes in a block (start, jiffies...). False, q
 * unchanged, when out of memory.
 */
bool memleak_queue_sort(struct memleak_queue *q,
			bool (*before)(const struct memleak_queue_entry *a,
				       const struct memleak_queue_entry *b));
/* Every queued entry e, in order, without taking it out. */
#define memleak_queue_for_each(q, chunk, i, e)                               \
	for (chunk = (q)->first; chunk; chunk = chunk->next)                 \
		for (i = chunk->head;                                        \
		     i < chunk->tail && ((e = &chunk->entry[i]), 1); i++)
/*
 * For a pass that reads every block of a queue in turn (its record, then
 * its memory): blocks lie all over the heap, so each is two cache misses,
 * the second waiting for the first. Called for entry i of chunk, this
 * fetches the record of the block 2 * MEMLEAK_QUEUE_AHEAD places on and
 * the memory of the one MEMLEAK_QUEUE_AHEAD on (its record fetched that
 * many blocks ago), so that the misses of several blocks overlap. A pass
 * that reads records only fetches them alone (the first half).
 */
#define MEMLEAK_QUEUE_AHEAD 4

/*
 * Fetches a block's memory ahead of its reading: its first lines, as
 * many as most blocks have (a line alone leaves the next ones to miss
 * while the block is read; a larger block's rest comes as it is read,
 * the hardware seeing a stream).
 */
#define MEMLEAK_PREFETCH_BYTES 256
#define MEMLEAK_LINE_BYTES 64

/* Fetches the lines of [p, p + bytes) ahead of their reading. */
static inline void memleak_prefetch_lines(const void *p, unsigned int bytes)
{
	for (unsigned int at = 0; at < bytes; at += MEMLEAK_LINE_BYTES)
		__builtin_prefetch((const char *)p + at);
}

static inline void memleak_prefetch_memory(const struct memleak_block *b,
					   unsigned long start)
{
	memleak_prefetch_lines((const void *)start,
			       min(block_size(b),
				   (size_t)MEMLEAK_PREFETCH_BYTES));
}

static inline void
memleak_queue_prefetch_record(const struct memleak_queue_chunk *chunk,
			      unsigned int i)
{
	if (i + 2 * MEMLEAK_QUEUE_AHEAD < chunk->tail)
		__builtin_prefetch(
			chunk->entry[i + 2 * MEMLEAK_QUEUE_AHEAD].block);
}

/* The entry whose memory is fetched while entry i is read, if any. */
static inline const struct memleak_queue_entry *
memleak_queue_ahead(const struct memleak_queue_chunk *chunk, unsigned int i)
{
	if (i + MEMLEAK_QUEUE_AHEAD >= chunk->tail)
		return NULL;
	return &chunk->entry[i + MEMLEAK_QUEUE_AHEAD];
}

static inline void
memleak_queue_prefetch(const struct memleak_queue_chunk *chunk, unsigned int i)
{
	const struct memleak_queue_entry *e = memleak_queue_ahead(chunk, i);

	memleak_queue_prefetch_record(chunk, i);
	if (e)
		memleak_prefetch_memory(e->block, e->start);
}

/*
 * A window of the scan with interrupts off, memleak_lock held: timed,
 * for 'memleak stats' and 'mmbench scan', wherever in the scan it is
 * (scan.c, classify.c, the checksum table's resize). Each caller keeps
 * its own budget of work per window.
 */
void memleak_scan_window_enter(unsigned long *flags);
void memleak_scan_window_leave(unsigned long flags);
/* Where memleak_scan()'s frame begins, for the stack roots. */
extern unsigned long memleak_stack_floor;

/*
 * roots.c (arch/host/memleak.c in host builds): every other CPU
 * parked with interrupts off, its registers on its stack, where the
 * stack roots read them; interrupts off here too until resumed. False
 * when some CPU could not be stopped (then nothing is).
 */
bool memleak_stop_world(void);
void memleak_resume_world(void);

/*
 * written.c: the pages written since the mark began, so that the pause
 * reads again only those (<kernel/written.h>). A range outside RAM, or
 * on a machine that cannot tell, always counts as written.
 */
void memleak_track_writes(void);
/* With the world stopped; false: every range counts as written. */
bool memleak_collect_writes(void);
bool memleak_range_written(unsigned long start, unsigned long end);
void memleak_untrack_writes(void);
/*
 * The pages of the bitmap of written pages (kept from scan to scan, given
 * back by memleak_written_shrink()); memleak_lock held.
 */
unsigned long memleak_written_bitmap_pages(void);
void memleak_written_shrink(void);
/*
 * Names the word at addr, which the root called root reads, into buf:
 * ".bss: slots+0x1c", "per-cpu 1: lt_percpu_ref+0x4",
 * "stack of "shell" (pid 2): 0x4011ff0c"; no lock held.
 */
void memleak_describe_root(unsigned long addr, const char *root, char *buf,
			   size_t size);

/* thread.c (arch/host/memleak.c in host builds) */
int memleak_set_auto_scan(const char *value);
/*
 * memleak_scan(), after the scan already running (the scan thread's), if
 * any, is done: for callers that need a scan of their own. -EBUSY only
 * when the collector is disabled.
 */
int memleak_scan_wait(void);

/*
 * command.c: the 'memleak' shell command, which runs subcommands. A
 * file adds one with MEMLEAK_COMMAND(name, fn, min_args, max_args,
 * args, help): 'memleak NAME ARG...' (or 'memleak NAME=ARG') calls
 * fn(argc, argv) with argv[0] the name, once the number of arguments is
 * within bounds; fn returns 0 on success. They are found through the
 * "memleak_cmds" linker section, so adding one edits no table.
 */
struct memleak_command {
	const char *name;
	const char *args;	/* for the usage line, e.g. "ADDR" */
	const char *help;	/* one line for 'memleak help' */
	int min_args, max_args;
	int (*run)(int argc, char **argv);
};
#define MEMLEAK_COMMAND(cmd_name, fn, min, max, args_text, help_text)    \
	static const struct memleak_command __memleak_cmd_##fn __used     \
		__section("memleak_cmds") __aligned(sizeof(void *)) = {    \
			.name = cmd_name,                                 \
			.args = args_text,                                \
			.help = help_text,                                \
			.min_args = min,                                  \
			.max_args = max,                                  \
			.run = fn,                                        \
		}
extern const struct memleak_command __start_memleak_cmds[];
extern const struct memleak_command __stop_memleak_cmds[];

/* report.c (and memleak_clear_reports(), <kernel/memleak.h>) */
void memleak_print_block(const struct memleak_block *b);
/* Every suspect of the last scan still allocated; returns how many. */
unsigned long memleak_print_suspects(void);
/*
 * One line per allocation site and tier of the last scan's suspects,
 * the most bytes first.
 */
void memleak_print_digest(void);
/* Everything known about b, colour and flags too; memleak_lock held. */
void memleak_dump_block(const struct memleak_block *b);

#endif
