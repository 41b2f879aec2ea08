/*
 * The leak collector's index: from any address to the tracked block that
 * holds it, the question the scan asks of every word that might be a
 * pointer. It follows the allocator's own geometry instead of keeping a
 * tree of every block address (docs/memleak.md, "The index"):
 *
 *   word --pfn--> page entry --shape--> slot = (word - slab) * reciprocal
 *                     |                   |
 *                     |                   +--> mark, simple and read bits
 *                     |                        (a dense bit pool)
 *                     +--> e->records[slot]
 *
 * The scan's question, "is this word the first reference to an unmarked
 * block?", is answered from three small tables: an entry per page of
 * RAM, the shapes of the slab caches (a few dozen), and three bits per
 * slot of a slab holding tracked objects (mark, simple, read). Only a
 * word that is none of that (inside a block, a block needing several
 * references) reads the slab's record of that slot, whose address is
 * the page entry's records plus the slot.
 *
 * Each slab with tracked objects has an array of records, one struct
 * memleak_block per slot in slot order (a free slot's record has flags
 * 0, no MEMLEAK_ALLOCATED), and a run of words in the bit pool, made when
 * its first object is tracked and given back with the slab itself
 * (memleak_slab_released()). So a slab object's metadata is no
 * allocation of its own: tracking it writes its slot's record, freeing
 * it clears the record's flags, and its block is found by arithmetic.
 * Nor does the record hold the block's start: the block starts where
 * its slot's object does (one that does not is refused), so whoever
 * finds the record from an address or a walk has the start too, and
 * block_start() finds it for a record alone from its array's header.
 *
 * Blocks outside slabs (large kmalloc, page and vmalloc allocations,
 * thread stacks, modules...) are few and large: index_tree.c keeps them
 * in a tree of start pages, and the pages of RAM they cover have
 * SHAPE_TREE, so that a word pointing into any other page of RAM is
 * dismissed by its page entry alone.
 *
 * A record is reused by the next object tracked in its slot, so a
 * pointer to a block held across a window (the scan's queues, a
 * report's) may come to point to a newer block in the same slot: its
 * holders check MEMLEAK_ALLOCATED (and, in a scan, MEMLEAK_NEW) again
 * after each window. The arrays themselves, and the tree's blocks, are
 * given back only when the collector is not pinned (memleak_pin()):
 * until then a pointer to a block freed meanwhile stays readable.
 *
 * Locking: memleak_lock, for every function here. A slab's records
 * exist only while the slab does: its allocator gives it back through
 * memleak_slab_released(), which takes memleak_lock, so a slab cannot go
 * while the scan reads its records under the lock.
 */
#include <kernel/memleak.h>
#include <kernel/bitops.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/slab.h>
#include "internal.h"
#include "index.h"

/* The shapes of the slabs with records (index.h); shape 0 is none. */
struct slab_shape memleak_shapes[MEMLEAK_MAX_SHAPES] __memleak_noscan;
static unsigned int nr_shapes = 1;

/* One entry per page frame of RAM, pfn min_pfn first. */
struct page_entry *memleak_page_entries;
/* A bit per page: the first page of a slab with records (walks). */
static unsigned long *slab_starts;
static unsigned int page_entries_order, slab_starts_order;

/*
 * The bit pool (slot_bits.c): three bits for each slot of a slab with
 * tracked objects, the three of a slot in one cache line, so that it
 * answers the scan and takes its answer:
 *
 *   mark    the running scan has found this block gray or black: a word
 *           pointing to it changes nothing (most blocks are pointed to
 *           more than once). The next scan starts by clearing them
 *           (memleak_slot_bits_clear_marks()), a window's budget at a time.
 *   simple  the block is its slot's object (it starts where the object
 *           does) and one reference turns it gray (min_count 1, not
 *           ignored): a word equal to the object's address is the
 *           block's first reference, gray without reading the block
 *           (memleak_index_scan_lookup()).
 *   read    the running scan queued this block at its first reference
 *           (the simple ones, above), so that the mark's drain reads it
 *           whole before the pause looks; cleared with the marks, and
 *           when the slot's block is freed. The pause passes over a
 *           slab nobody wrote since the mark began a word of these bits
 *           at a time, the records of the blocks read unread.
 *
 * (The read bits had an array of their own, indexed alike: the lookup
 * that set one then missed the cache twice, for the mark and for it.)
 */

/*
 * Record arrays come from the collector's own caches, in eight sizes
 * from one power of two of slots to the next (arrays of 8, 9, ... 15,
 * 16, 18, ... 30, 32, 36 ... records and a header) up to a page, so
 * that an array wastes less than a ninth of its size and none for the
 * common slabs of a power of two of slots (64 objects of 64 bytes: an
 * array of 8 + 64 * 12 bytes exactly), and from whole pages above that
 * (a slab of 8-byte objects has 512 slots); all of them counted by
 * memleak_index_metadata(). (Four sizes an octave cost the random heap
 * of make bench 0.6 bytes more per block: its slabs of 96 and 192-byte
 * objects have 42 and 21 slots.)
 */
#define RECORDS_CLASSES_PER_OCTAVE 8
/* Their caches' slabs waste little, as they hold most of the metadata. */
#define RECORDS_CACHE_FLAGS (SLAB_NOLEAKTRACE | SLAB_PACKED)
#define MAX_RECORDS_CLASSES 64
static struct kmem_cache *records_cache[MAX_RECORDS_CLASSES];
static unsigned int nr_records_classes;	/* those within a page */
static unsigned long records_pages;	/* of the arrays above a page */

/*
 * Every records array starts with a header: which slab its records
 * describe, so that a record alone gives its block's start (slot i's
 * object: block_start()). The header of a record is found from where
 * the record lies: the records cache's own slab geometry gives the
 * array it is in; an array of whole pages has its pages' entries point
 * at its records, as a slab's pages do (those pages hold no tracked
 * block, so the scan never looks at their records).
 */
struct records_header {
	u32 slab;	/* the page entry of the slab's first page */
	u32 shape;
};

static struct memleak_block *records_of(struct records_header *h)
{
	return (struct memleak_block *)(h + 1);
}

static struct records_header *header_of_records(struct memleak_block *r)
{
	return (struct records_header *)r - 1;
}

/*
 * Arrays given back while the collector was pinned, freed at the unpin,
 * linked through the first bytes of their first record: a record that
 * stays free (its flags, which lie past them, stay 0), as all of theirs.
 * The header stays, so a record of theirs still gives its start.
 */
struct retired_array {
	struct retired_array *next;
};
_Static_assert(sizeof(struct retired_array) <=
		       offsetof(struct memleak_block, min_count),
	       "a retired array's link must leave its first record's flags");
static struct retired_array *retired_records;

static size_t records_bytes(unsigned int nr_slots)
{
	return sizeof(struct records_header) +
	       (size_t)nr_slots * sizeof(struct memleak_block);
}

void *memleak_alloc_table(unsigned int order)
{
	struct page *page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order);

	return page ? page_address(page) : NULL;
}

void memleak_free_table(void *table, unsigned int order)
{
	if (table)
		__free_pages(virt_to_page(table), order);
}

/* Class 8 * k + q holds (8 + q) * 2^k records, q from 0 to 7. */
static unsigned int class_slots(unsigned int class)
{
	const unsigned int n = RECORDS_CLASSES_PER_OCTAVE;

	return (n + class % n) << (class / n);
}

static size_t class_bytes(unsigned int class)
{
	return records_bytes(class_slots(class));
}

/* The least class for nr_slots records; nr_records_classes or more: pages. */
static unsigned int records_class(unsigned int nr_slots)
{
	unsigned int class = 0;

	while (class < nr_records_classes && class_slots(class) < nr_slots)
		class++;
	return class;
}

/* The entries of the pages of an array of whole pages point at its records. */
static void set_array_pages(struct records_header *h, size_t bytes,
			    struct memleak_block *records)
{
	struct page_entry *e = entry_of((unsigned long)h);

	for (unsigned long i = 0; i < 1ul << get_order(bytes); i++)
		e[i].records = records;
}

static struct records_header *alloc_records(unsigned int nr_slots)
{
	unsigned int class = records_class(nr_slots);
	size_t bytes = records_bytes(nr_slots);
	struct records_header *h;

	if (class < nr_records_classes)
		return kmem_cache_alloc(records_cache[class], GFP_ATOMIC);
	h = memleak_alloc_table(get_order(bytes));
	if (!h)
		return NULL;
	records_pages += 1ul << get_order(bytes);
	set_array_pages(h, bytes, records_of(h));
	return h;
}

static void free_records(struct records_header *h, unsigned int nr_slots)
{
	unsigned int class = records_class(nr_slots);
	size_t bytes = records_bytes(nr_slots);

	if (class < nr_records_classes) {
		kmem_cache_free(records_cache[class], h);
		return;
	}
	set_array_pages(h, bytes, NULL);
	memleak_free_table(h, get_order(bytes));
	records_pages -= 1ul << get_order(bytes);
}

int memleak_index_init(void)
{
	unsigned long nr_pages = max_pfn - min_pfn;

	while (nr_records_classes < MAX_RECORDS_CLASSES &&
	       class_bytes(nr_records_classes) <= PAGE_SIZE)
		nr_records_classes++;
	for (unsigned int c = 0; c < nr_records_classes; c++) {
		char name[SLAB_NAME_LEN];

		snprintf(name, sizeof(name), "memleak_records_%zu",
			 class_bytes(c));
		records_cache[c] = kmem_cache_create(name, class_bytes(c), 0,
						     RECORDS_CACHE_FLAGS, NULL);
		if (!records_cache[c])
			return -ENOMEM;
	}
	if (memleak_tree_init())
		return -ENOMEM;
	page_entries_order = get_order(nr_pages * sizeof(struct page_entry));
	slab_starts_order = get_order(BITS_TO_LONGS(nr_pages) * sizeof(long));
	memleak_page_entries = memleak_alloc_table(page_entries_order);
	slab_starts = memleak_alloc_table(slab_starts_order);
	if (!memleak_page_entries || !slab_starts)
		return -ENOMEM;
	memset(memleak_page_entries, 0, nr_pages * sizeof(struct page_entry));
	memset(slab_starts, 0, BITS_TO_LONGS(nr_pages) * sizeof(long));
	return 0;
}

unsigned long memleak_index_table_pages(void)
{
	unsigned long pages = 0;

	if (memleak_page_entries)
		pages += 1ul << page_entries_order;
	if (slab_starts)
		pages += 1ul << slab_starts_order;
	return pages + memleak_slot_bits_pages();
}

static unsigned long record_pages(void)
{
	unsigned long pages = records_pages;

	for (unsigned int c = 0; c < nr_records_classes; c++)
		pages += memleak_cache_pages(records_cache[c]);
	return pages;
}

void memleak_index_metadata(struct memleak_metadata *m)
{
	m->slab_blocks = memleak.nr_blocks - memleak_tree_blocks();
	m->records = record_pages() * PAGE_SIZE;
	m->tables = memleak_index_table_pages() * PAGE_SIZE;
	m->tree = memleak_tree_pages() * PAGE_SIZE;
}

void memleak_index_shrink(void)
{
	memleak_tree_shrink();
}

static bool same_shape(const struct slab_shape *a, const struct slab_shape *b)
{
	return a->mask == b->mask && a->size == b->size &&
	       a->reciprocal == b->reciprocal &&
	       a->obj_offset == b->obj_offset && a->nr_slots == b->nr_slots;
}

/* The shape of slabs of geometry g, added if new; 0 when full. */
static u32 shape_of(const struct slab_geometry *g)
{
	struct slab_shape sh = {
		.mask = ~((unsigned long)g->nr_pages * PAGE_SIZE - 1),
		.size = g->size,
		.reciprocal = g->reciprocal,
		.obj_offset = g->obj_offset,
		.nr_slots = g->nr_slots,
		.nr_pages = g->nr_pages,
	};

	for (u32 i = 1; i < nr_shapes; i++)
		if (same_shape(&memleak_shapes[i], &sh))
			return i;
	if (nr_shapes == MEMLEAK_MAX_SHAPES)
		return 0;
	memleak_shapes[nr_shapes] = sh;
	return nr_shapes++;
}

/* ------------------------------------------------------------------ */
/* Slab objects: slot arithmetic                                       */

/* The address of page entry number page (pfn min_pfn + page). */
static unsigned long page_addr(unsigned long page)
{
	return (unsigned long)__va((min_pfn + page) << PAGE_SHIFT);
}

/*
 * addr's slot in the slab of its page entry e (a slab's): false in the
 * slab's unused tail.
 */
static inline bool slot_in_slab(const struct page_entry *e, unsigned long addr,
				unsigned int *i)
{
	const struct slab_shape *sh = &memleak_shapes[e->shape];

	*i = slot_number(sh, addr - (addr & sh->mask));
	return *i < sh->nr_slots;
}

/*
 * The page entry of the slab holding addr, and addr's slot; NULL outside
 * slabs with tracked objects or in a slab's tail.
 */
static inline struct page_entry *slab_slot(unsigned long addr, unsigned int *i)
{
	struct page_entry *e = entry_of(addr);

	if (!e || !is_slab_shape(e->shape) || !slot_in_slab(e, addr, i))
		return NULL;
	return e;
}

/*
 * The block in slot i of the slab at base (page entry e), if it holds
 * addr; *start is the slot's object's.
 */
static inline struct memleak_block *
slot_holding(const struct page_entry *e, unsigned long base, unsigned int i,
	     unsigned long addr, unsigned long *start)
{
	const struct slab_shape *sh = &memleak_shapes[e->shape];
	struct memleak_block *b = e->records + i;

	*start = object_start(sh, base, i);
	if (record_used(b) && addr >= *start &&
	    addr - *start < max(block_size(b), (size_t)1))
		return b;
	return NULL;
}

static void set_pages(unsigned long start, unsigned int nr,
		      struct memleak_block *records, u32 shape, u32 first_bits)
{
	struct page_entry *e = entry_of(start);

	for (unsigned int i = 0; i < nr; i++) {
		e[i].records = records;
		e[i].shape = (u16)shape;
		e[i].first_bits = first_bits;
		e[i].nr_used = 0;
	}
}

/* Records for the slab of geometry g; its first page's entry, or NULL. */
static struct page_entry *new_records(const struct slab_geometry *g)
{
	size_t bytes = records_bytes(g->nr_slots);
	u32 shape = shape_of(g), first_bits;
	struct records_header *h;
	struct memleak_block *r;

	if (!shape)
		return NULL;
	if (!memleak_slot_bits_alloc(g->nr_slots, &first_bits))
		return NULL;
	h = alloc_records(g->nr_slots);
	if (!h) {
		memleak_slot_bits_free(first_bits, g->nr_slots);
		return NULL;
	}
	h->slab = (u32)(entry_of(g->base) - memleak_page_entries);
	h->shape = shape;
	r = records_of(h);
	for (unsigned int i = 0; i < g->nr_slots; i++)
		r[i].flags = 0;		/* free; the rest is written when used */
	memleak.index_bytes += bytes;
	set_pages(g->base, g->nr_pages, r, shape, first_bits);
	set_bit(entry_of(g->base) - memleak_page_entries, slab_starts);
	return entry_of(g->base);
}

/*
 * The slab went back to the page allocator: its pages forget the
 * records, which are freed now or, while the collector is pinned, at
 * the unpin.
 */
static void drop_records(struct page_entry *first, unsigned long base)
{
	const struct slab_shape *sh = &memleak_shapes[first->shape];
	struct memleak_block *r = first->records;
	size_t bytes = records_bytes(sh->nr_slots);
	u32 first_bits = first->first_bits;
	struct retired_array *retired;

	set_pages(base, sh->nr_pages, NULL, 0, 0);
	clear_bit(first - memleak_page_entries, slab_starts);
	memleak_slot_bits_free(first_bits, sh->nr_slots);
	memleak.index_bytes -= bytes;
	if (!memleak.pins) {
		free_records(header_of_records(r), sh->nr_slots);
		return;
	}
	retired = (struct retired_array *)r;
	retired->next = retired_records;
	retired_records = retired;
	memleak.nr_retired++;
}

/* ------------------------------------------------------------------ */
/* The interface                                                       */

/* The tree's block holding addr, and its start. */
static struct memleak_block *tree_find_at(unsigned long addr,
					  unsigned long *start)
{
	struct memleak_block *b = memleak_tree_find(addr);

	if (b)
		*start = memleak_tree_block_start(b);
	return b;
}

struct memleak_block *memleak_index_find_at(unsigned long addr,
					    unsigned long *start)
{
	struct page_entry *e = entry_of(addr);
	unsigned int i;

	if (!e || e->shape == SHAPE_TREE)
		return tree_find_at(addr, start);
	if (!e->shape || !slot_in_slab(e, addr, &i))
		return NULL;
	return slot_holding(e, addr & memleak_shapes[e->shape].mask, i, addr,
			    start);
}

struct memleak_block *memleak_index_find(unsigned long addr)
{
	unsigned long start;

	return memleak_index_find_at(addr, &start);
}

struct memleak_block *memleak_index_find_start_rest(unsigned long start,
						    struct page_entry *e)
{
	unsigned long at;
	struct memleak_block *b;

	if (e && e->shape != SHAPE_TREE)
		return NULL;	/* shape 0: no tracked block in the page */
	b = tree_find_at(start, &at);
	return b && at == start ? b : NULL;
}

/*
 * A slab object's start and type come from its record alone, as in the
 * scan's lookup. addr past the end of a block that is smaller than its
 * object still gets the object's block here: callers that act on an
 * answer look the block up to be sure.
 */
bool memleak_index_peek(unsigned long addr, unsigned long *start, u8 *type)
{
	struct memleak_block *b;
	unsigned int i;
	struct page_entry *e = slab_slot(addr, &i);

	if (e) {
		const struct slab_shape *sh = &memleak_shapes[e->shape];

		b = e->records + i;
		*start = object_start(sh, addr & sh->mask, i);
	} else {
		b = memleak_tree_find(addr);
		*start = b ? memleak_tree_block_start(b) : 0;
	}
	if (!b || !record_used(b))
		return false;
	*type = block_type_id(b);
	return addr >= *start;
}

bool memleak_index_marked(unsigned long addr)
{
	unsigned int i;
	struct page_entry *e = slab_slot(addr, &i);

	return e && (bits_of(e, i)->mark & bit_of(e, i));
}

struct memleak_block *memleak_index_slot(unsigned long addr)
{
	unsigned int i;
	struct page_entry *e = slab_slot(addr, &i);

	/* Computed from the page tables alone: the record is not read. */
	return e ? e->records + i : NULL;
}

/*
 * The header of the records array holding b, a slab's record: the array
 * is an object of a records cache, or whole pages whose entries point
 * at its records.
 */
static struct records_header *header_of(const struct memleak_block *b)
{
	struct slab_geometry g;
	unsigned long at = (unsigned long)b, slot;

	if (!slab_geometry_of(b, &g))
		return header_of_records(entry_of(at)->records);
	slot = divide_by_size(at - g.base, g.size, g.reciprocal);
	return (struct records_header *)(g.base + slot * g.size + g.obj_offset);
}

unsigned long block_start(const struct memleak_block *b)
{
	struct records_header *h;

	if (memleak_tree_holds(b))
		return memleak_tree_block_start(b);
	h = header_of(b);
	return object_start(&memleak_shapes[h->shape], page_addr(h->slab),
			    (unsigned int)(b - records_of(h)));
}

/*
 * The entry of the first page of a slab block's slab, and its slot; NULL
 * for a block in the tree, or a record of a slab gone.
 */
static struct page_entry *slot_of_block(const struct memleak_block *b,
					unsigned int *i)
{
	struct records_header *h;
	struct page_entry *e;

	if (memleak_tree_holds(b))
		return NULL;
	h = header_of(b);
	e = &memleak_page_entries[h->slab];
	*i = (unsigned int)(b - records_of(h));
	return e->records == records_of(h) ? e : NULL;
}

void memleak_index_mark(const struct memleak_block *b, unsigned long start)
{
	unsigned int i;
	struct page_entry *e = slab_slot(start, &i);

	if (e && e->records + i == b)
		bits_of(e, i)->mark |= bit_of(e, i);
}

void memleak_index_update(const struct memleak_block *b)
{
	struct slot_bits *bits;
	unsigned int i;
	struct page_entry *e = slot_of_block(b, &i);

	if (!e)
		return;
	bits = bits_of(e, i);
	if (block_is_simple(b))
		bits->simple |= bit_of(e, i);
	else
		bits->simple &= ~bit_of(e, i);
}

bool memleak_index_page_used(unsigned long addr)
{
	struct page_entry *e = entry_of(addr);

	return e && e->shape;
}

/* ------------------------------------------------------------------ */
/* Walks                                                               */

/*
 * The first slot from i on whose bit is clear (nr_slots or more: none),
 * a word at a time: in the slab's marks, or in its read bits.
 */
static __always_inline unsigned int
next_clear(const struct page_entry *e, unsigned int i, unsigned int nr_slots,
	   bool in_read_bits)
{
	while (i < nr_slots) {
		unsigned int bit = slot_bit_number(e->first_bits, i);
		unsigned long word = in_read_bits ? bits_of(e, i)->read :
						    bits_of(e, i)->mark;
		unsigned long clear = ~word >> bit;

		if (clear)
			return i + (unsigned int)__builtin_ctzl(clear);
		i += BITS_PER_LONG - bit;
	}
	return i;
}

/*
 * What a walk's steps cost it, in quarters of a visit: a block passed
 * over unread costs a quarter, a block reset without a visit (the
 * scan's reset: about 28 instructions each in QEMU, a visit about 50)
 * three. At a quarter, a window of the reset took 58,000 instructions
 * on i386, the longest of the scan; at three, 24,000 on both arches
 * (memleak-scan-qemu.sh).
 */
#define VISIT_COST 4
#define PASS_COST 1
#define RESET_COST 3

/*
 * The blocks of the slab of page entry e (at base) from slot *slot on,
 * in address order, those kind says, at most max (at least 1) visits'
 * worth; *slot is where to go on, 0 when the slab is done. The records
 * lie in a row: the hardware fetches them ahead. Made once per kind, a
 * constant in each (below), so that a walk of one kind pays nothing for
 * the others (in the scan's reset, a window's walk took 2,700 more
 * instructions on i386 when it did).
 */
static __always_inline unsigned int
walk_slab(const struct page_entry *e, unsigned long base, unsigned int *slot,
	  unsigned int max, enum memleak_walk_kind kind,
	  unsigned int *passed_total, memleak_visit_fn *visit, void *ctx)
{
	const struct slab_shape *sh = &memleak_shapes[e->shape];
	struct memleak_block *r = e->records;
	unsigned int nr_slots = sh->nr_slots;
	unsigned int cost = 0, passed = 0;
	bool pass_read = kind == MEMLEAK_WALK_UNREAD &&
			 !memleak_range_written(base, base + sh->nr_pages *
								     PAGE_SIZE);

	for (unsigned int i = *slot; i < nr_slots; i++) {
		if (kind == MEMLEAK_WALK_UNMARKED) {
			i = next_clear(e, i, nr_slots, false);
			if (i >= nr_slots)
				break;
		} else if (pass_read) {
			/* A read bit is set only in a used slot. */
			unsigned int next = next_clear(e, i, nr_slots, true);
			unsigned int skipped = min(next, nr_slots) - i;

			passed += skipped;
			cost += skipped * PASS_COST;
			i = next;
			if (i >= nr_slots)
				break;
		}
		if (cost >= max * VISIT_COST) {
			*slot = i;
			*passed_total += passed;
			return max;
		}
		if (!record_used(&r[i]))
			continue;
		if (kind == MEMLEAK_WALK_RESET &&
		    !memleak_reset_for_scan(&r[i])) {
			cost += RESET_COST;	/* white: nothing more to do */
			continue;
		}
		visit(&r[i], object_start(sh, base, i), ctx);
		cost += VISIT_COST;
	}
	*slot = 0;
	*passed_total += passed;
	return cost / VISIT_COST;
}

/* The kinds of walk_slab(), each a function of its own. */
#define DEFINE_SLAB_WALK(name, kind)                                       \
	static __noinline unsigned int name(                               \
		const struct page_entry *e, unsigned long base,             \
		struct memleak_index_pos *pos, unsigned int max,            \
		memleak_visit_fn *visit, void *ctx)                         \
	{                                                                  \
		return walk_slab(e, base, &pos->slot, max, kind,            \
				 &pos->passed, visit, ctx);                 \
	}
DEFINE_SLAB_WALK(walk_every_slot, MEMLEAK_WALK_EVERY)
DEFINE_SLAB_WALK(walk_unmarked_slots, MEMLEAK_WALK_UNMARKED)
DEFINE_SLAB_WALK(walk_unread_slots, MEMLEAK_WALK_UNREAD)
DEFINE_SLAB_WALK(walk_resetting_slots, MEMLEAK_WALK_RESET)

/* A block outside slabs in a walk that resets: see walk_tree(). */
struct reset_visit {
	memleak_visit_fn *visit;
	void *ctx;
};

static void reset_tree_block(struct memleak_block *b, unsigned long start,
			     void *ctx)
{
	struct reset_visit *v = ctx;

	if (memleak_reset_for_scan(b))
		v->visit(b, start, v->ctx);
}

/* The tree's part of a walk, by start page, at most max visits. */
static void walk_tree(struct memleak_index_pos *pos, unsigned int max,
		      memleak_visit_fn *visit, void *ctx)
{
	struct reset_visit reset = { visit, ctx };
	unsigned int n = 0;

	if (pos->kind == MEMLEAK_WALK_RESET) {
		visit = reset_tree_block;
		ctx = &reset;
	}
	while (n < max && !pos->tree_done)
		n += memleak_tree_walk_page(&pos->key, &pos->tree_done, visit,
					    ctx);
}

/*
 * What looking into a slab costs a walk of the unmarked blocks, in
 * blocks visited: two per word of its marks and two for the slab, a
 * little above what it takes. In QEMU a slab of 64 slots passed over
 * took about 170 instructions on i386, a block visited about 50; charged
 * as one block, a window read 512 slabs' marks (67,354 instructions at
 * 100 k blocks, memleak-scan-qemu.sh).
 */
static unsigned int marks_cost(const struct page_entry *e)
{
	return 2 + 2 * BITS_TO_LONGS(memleak_shapes[e->shape].nr_slots);
}

/*
 * Fetches the records of the next slab after page while a walk of kind
 * reads page's: each slab's records lie elsewhere, a miss of its own.
 * Only a slab that starts within a word of slab starts: further on, the
 * walk would look for it twice. A walk of the unmarked blocks reads
 * only the marks of most slabs (all of their blocks marked), so it
 * fetches nothing.
 */
static void prefetch_next_slab(unsigned long page, unsigned long nr_pages,
			       enum memleak_walk_kind kind)
{
	unsigned long end = min(nr_pages, page + 1 + BITS_PER_LONG), next;

	if (kind == MEMLEAK_WALK_UNMARKED)
		return;
	next = find_next_bit(slab_starts, end, page + 1);
	if (next < end)
		memleak_prefetch_lines(memleak_page_entries[next].records,
				       MEMLEAK_PREFETCH_BYTES);
}

bool memleak_index_walk(struct memleak_index_pos *pos, unsigned int max,
			memleak_visit_fn *visit,
			void *ctx)
{
	unsigned long nr_pages = max_pfn - min_pfn;
	unsigned int n = 0;

	if (!slab_starts)
		return false;	/* never made: memleak=off, or no memory */
	/*
	 * Slabs first, in address order, each from its first page: found
	 * in the bitmap of slab starts, a word of which passes over 32 or
	 * 64 pages without one.
	 */
	for (;;) {
		unsigned long page = find_next_bit(slab_starts, nr_pages,
						   pos->page);
		const struct page_entry *e = &memleak_page_entries[page];

		if (page != pos->page)
			pos->slot = 0;	/* its slab went meanwhile */
		pos->page = page;
		if (page == nr_pages)
			break;
		if (n >= max)
			return true;
		prefetch_next_slab(page, nr_pages, pos->kind);
		if (!e->nr_used)
			pos->slot = 0;	/* none left in it */
		else if (pos->kind == MEMLEAK_WALK_UNMARKED)
			n += walk_unmarked_slots(e, page_addr(page), pos,
						 max - n, visit, ctx) +
			     marks_cost(e);
		else if (pos->kind == MEMLEAK_WALK_UNREAD)
			n += walk_unread_slots(e, page_addr(page), pos, max - n,
					       visit, ctx);
		else if (pos->kind == MEMLEAK_WALK_RESET)
			n += walk_resetting_slots(e, page_addr(page), pos,
						  max - n, visit, ctx);
		else
			n += walk_every_slot(e, page_addr(page), pos, max - n,
					     visit, ctx);
		if (pos->slot)
			return true;	/* the slab's rest, next time */
		pos->page++;
	}
	/* Then the tree. */
	if (n < max)
		walk_tree(pos, max - n, visit, ctx);
	return !pos->tree_done;
}

struct memleak_block *memleak_index_insert_rest(unsigned long start,
						size_t size, int min_count,
						struct page_entry *e, int *err)
{
	struct slab_geometry g;

	/*
	 * Each path checks overlaps its own way: one block per slot, or the
	 * tree. Objects of 64 KiB and more (kmalloc's largest classes) are
	 * few and large, and their size would not fit a record: the tree
	 * takes them, as it takes the large kmalloc blocks above them.
	 */
	if (!slab_geometry_of((void *)start, &g) || g.size >= MEMLEAK_SIZE_LARGE)
		return memleak_tree_insert(start, size, min_count, err);
	*err = -EEXIST;
	if (e->shape == SHAPE_TREE)
		return NULL;
	*err = -ENOMEM;
	if (!new_records(&g))
		return NULL;
	return insert_in_slab(start, size, min_count, e, err);
}

bool memleak_index_slab_released(unsigned long base)
{
	struct page_entry *first = entry_of(base);

	if (!first || !is_slab_shape(first->shape))
		return true;	/* it never held a tracked object */
	if (first->nr_used)
		return false;
	drop_records(first, base);
	return true;
}

unsigned int memleak_index_free_retired(unsigned int n)
{
	struct retired_array *r;
	unsigned int done = 0;

	for (; done < n && (r = retired_records); done++) {
		struct records_header *h = header_of_records((void *)r);

		retired_records = r->next;
		free_records(h, memleak_shapes[h->shape].nr_slots);
	}
	return done + memleak_tree_free_retired(n - done);
}
