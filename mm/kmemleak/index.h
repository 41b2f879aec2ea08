/*
 * What the two halves of the leak collector's index share: index.c
 * (slab objects, by page entry, shape and bit pool) and index_tree.c
 * (every other block, in a tree of start pages). Also inline here, for
 * their callers' hot loops: the scan's lookup (scan.c's loop over
 * words), and placing and taking out a slab object's block (tracking.c,
 * for every allocation that outlives its CPU's log). All run with
 * memleak_lock held.
 */
#ifndef MM_KMEMLEAK_INDEX_H
#define MM_KMEMLEAK_INDEX_H

#include <kernel/bitops.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include "internal.h"

/*
 * A page's entry: what its tracked blocks are, and where their records
 * are. 12 bytes (16 on a 64-bit host), so that the entries of the pages
 * a scan looks at stay in the cache, and the lookup that finds a slot
 * holds its record's address from the same line.
 */
struct page_entry {
	struct memleak_block *records;	/* a slab's: one per slot */
	u32 first_bits;		/* a slab's: its first bit in the bit pool */
	u16 shape;		/* 0: none; SHAPE_TREE; else the slab's */
	u16 nr_used;		/* a slab's first page: its records in use */
};

/*
 * What a slab of some cache looks like: slabs are aligned to their size,
 * so a slab's first slot is any of its addresses masked. Caches of the
 * same geometry share one shape. Shape 0 is none: the page holds no
 * tracked slab object.
 */
struct slab_shape {
	unsigned long mask;		/* ~(bytes of a slab - 1) */
	unsigned int size;		/* bytes per slot */
	u32 reciprocal;			/* 2^32 / size rounded up; 0: divide */
	unsigned int obj_offset;	/* of the object in its slot */
	unsigned int nr_slots;
	unsigned int nr_pages;
};

#define MEMLEAK_MAX_SHAPES 256
extern struct slab_shape memleak_shapes[MEMLEAK_MAX_SHAPES];

/* off / size, by the reciprocal when there is one. */
static inline unsigned int divide_by_size(unsigned long off,
					  unsigned int size, u32 reciprocal)
{
	if (reciprocal)
		return (unsigned int)(((u64)off * reciprocal) >> 32);
	return (unsigned int)(off / size);
}

static inline unsigned int slot_number(const struct slab_shape *sh,
				       unsigned long off)
{
	return divide_by_size(off, sh->size, sh->reciprocal);
}

static inline unsigned long object_start(const struct slab_shape *sh,
					 unsigned long base, unsigned int i)
{
	return base + (unsigned long)i * sh->size + sh->obj_offset;
}

/* The shape of pages that blocks outside slabs cover (part of). */
#define SHAPE_TREE 0xffffu

static inline bool is_slab_shape(u32 shape)
{
	return shape && shape != SHAPE_TREE;
}

/*
 * slot_bits.c: the bit pool. The slab whose run starts at bit first_bits
 * has slot i's mark, simple and read bits in the words of
 * slot_bits_of(first_bits, i), at slot_bit(first_bits, i) in each.
 * Alloc gives a slab of nr_slots its run, cleared (false: out of
 * memory); free gives it back; pages counts the pool's.
 */
struct slot_bits {
	unsigned long mark, simple, read;
};
extern struct slot_bits *memleak_slot_bits;

static inline struct slot_bits *slot_bits_of(u32 first_bits, unsigned int i)
{
	return &memleak_slot_bits[(first_bits + i) / BITS_PER_LONG];
}

/* Slot i's place in its words, and its mask there. */
static inline unsigned int slot_bit_number(u32 first_bits, unsigned int i)
{
	return (first_bits + i) % BITS_PER_LONG;
}

static inline unsigned long slot_bit(u32 first_bits, unsigned int i)
{
	return 1ul << slot_bit_number(first_bits, i);
}

/* Slot i's mark, simple and read words in the pool (bit_of() in each). */
static inline struct slot_bits *bits_of(const struct page_entry *e,
					unsigned int i)
{
	return slot_bits_of(e->first_bits, i);
}

static inline unsigned long bit_of(const struct page_entry *e,
				  unsigned int i)
{
	return slot_bit(e->first_bits, i);
}

bool memleak_slot_bits_alloc(unsigned int nr_slots, u32 *first_bits);
void memleak_slot_bits_free(u32 first_bits, unsigned int nr_slots);
unsigned long memleak_slot_bits_pages(void);

/* Whole pages, untracked: the collector's own (index.c; memleak_lock held). */
void *memleak_alloc_table(unsigned int order);
void memleak_free_table(void *table, unsigned int order);

/* One entry per page frame of RAM, pfn min_pfn first (index.c). */
extern struct page_entry *memleak_page_entries;

/* The entry of the page holding addr, or NULL outside RAM. */
static inline struct page_entry *entry_of(unsigned long addr)
{
	if (!virt_addr_valid((void *)addr))
		return NULL;
	return &memleak_page_entries[(__pa(addr) >> PAGE_SHIFT) - min_pfn];
}

/*
 * The scan's lookup (see memleak_index_scan_lookup() in internal.h),
 * inline in the scan's loop over words, since it runs for every word
 * that may be a pointer: the usual answers, a marked slot or a simple
 * block's first reference, come from the page entry and the bit pool.
 * The rest (blocks outside slabs, a word inside a block, a block with
 * aliases or scan areas) is memleak_index_find_at()'s, which looks the
 * page entry and the slot up again: rare words, on a real heap.
 */
static inline struct memleak_block *
memleak_index_scan_lookup(unsigned long addr, bool *first_ref,
			  unsigned long *start)
{
	struct page_entry *e = entry_of(addr);
	const struct slab_shape *sh;
	struct slot_bits *bits;
	unsigned long base, bit;
	unsigned int i;

	*first_ref = false;
	if (!e || !is_slab_shape(e->shape))
		return memleak_index_find_at(addr, start);
	sh = &memleak_shapes[e->shape];
	base = addr & sh->mask;
	i = slot_number(sh, addr - base);
	if (i >= sh->nr_slots)
		return NULL;	/* in the slab's unused tail */
	bits = bits_of(e, i);
	bit = bit_of(e, i);
	if (bits->mark & bit)
		return NULL;
	if ((bits->simple & bit) && addr == object_start(sh, base, i)) {
		/*
		 * The scan's first reference: gray, so marked now, and
		 * queued, so read whole before the pause looks (read bit).
		 * Its record is not read here: see the bit pool.
		 */
		bits->mark |= bit;
		bits->read |= bit;
		*first_ref = true;
		*start = addr;
		return e->records + i;
	}
	return memleak_index_find_at(addr, start);
}

/*
 * index_tree.c: blocks outside slabs, each in a node of the tree's own.
 * Insert copies b into a new node, or fails (NULL) with -EEXIST when the
 * block would overlap a tracked one (or cover a page of tracked slab
 * objects), -ENOMEM. Remove frees the node, at the unpin when the
 * collector is pinned (memleak_tree_free_retired()). A walk visits the blocks
 * starting in the next start page from *key on, and sets *done after the
 * last.
 */
int memleak_tree_init(void);
unsigned long memleak_tree_pages(void);
unsigned long memleak_tree_blocks(void);
void memleak_tree_shrink(void);
struct memleak_block *memleak_tree_find(unsigned long addr);
struct memleak_block *memleak_tree_insert(unsigned long start, size_t size,
					  int min_count, int *err);
void memleak_tree_remove(struct memleak_block *b);
/* Whether b is a tree node's block (not a slab's record), and its start. */
bool memleak_tree_holds(const struct memleak_block *b);
unsigned long memleak_tree_block_start(const struct memleak_block *b);
/* Frees up to n retired nodes (not pinned); how many it freed. */
unsigned int memleak_tree_free_retired(unsigned int n);
unsigned int memleak_tree_walk_page(unsigned long *key, bool *done,
				    memleak_visit_fn *visit,
				    void *ctx);

/*
 * A block's tracking: placing it, finding it by its start when it is
 * freed, taking it out. A slab object's block, the usual one, is
 * placed and taken out right here, inline in tracking.c's create and
 * delete (a long-lived allocation pays both); the rest is index.c's.
 */

static inline bool record_used(const struct memleak_block *r)
{
	return r->flags & MEMLEAK_ALLOCATED;
}

/* Its first reference makes it gray (a slab block starts at its object). */
static inline bool block_is_simple(const struct memleak_block *b)
{
	return b->min_count == 1 && !block_is_black(b);
}

/*
 * The entry of the first page of the slab at base, from the entry e of
 * one of its pages at addr: the entries of a slab's pages lie in a row.
 */
static inline struct page_entry *first_entry(struct page_entry *e,
					     unsigned long addr,
					     unsigned long base)
{
	return e - ((addr - base) >> PAGE_SHIFT);
}

/*
 * The slot at start takes a new block (e: the entry of start's page, in
 * a slab with records): its record gets the block's start, size,
 * min_count and flags (the caller writes the rest), and its bits say
 * whether the block is simple.
 */
static __always_inline struct memleak_block *
insert_in_slab(unsigned long start, size_t size, int min_count,
	       struct page_entry *e, int *err)
{
	const struct slab_shape *sh;
	struct memleak_block *r;
	struct slot_bits *bits;
	unsigned long base, bit;
	unsigned int i;

	sh = &memleak_shapes[e->shape];
	base = start & sh->mask;
	i = slot_number(sh, start - base);
	if (i >= sh->nr_slots || start != object_start(sh, base, i)) {
		*err = -EINVAL;
		return NULL;
	}
	/* From the object's start to its slot's end. */
	if (max(size, (size_t)1) > sh->size - sh->obj_offset) {
		*err = -ERANGE;
		return NULL;
	}
	r = e->records + i;
	if (record_used(r)) {
		*err = -EEXIST;
		return NULL;
	}
	r->size = (u16)size;
	r->min_count = (s8)min_count;
	r->flags = MEMLEAK_ALLOCATED;
	bits = bits_of(e, i);
	bit = bit_of(e, i);
	bits->mark &= ~bit;	/* the slot's new block: unmarked */
	if (block_is_simple(r))
		bits->simple |= bit;
	first_entry(e, start, base)->nr_used++;
	return r;
}

/*
 * Frees the record of b, in slot i of the slab of page entry e (the
 * entry of the page its object starts in).
 */
static inline void remove_from_slab(struct memleak_block *b,
				    struct page_entry *e, unsigned int i)
{
	const struct slab_shape *sh = &memleak_shapes[e->shape];
	struct slot_bits *bits = bits_of(e, i);
	unsigned long bit = bit_of(e, i);

	bits->simple &= ~bit;
	/* Unread until its next block is read: set only in a used slot. */
	bits->read &= ~bit;
	b->flags = 0;
	e -= object_start(sh, 0, i) >> PAGE_SHIFT;	/* the slab's first */
	e->nr_used--;
}

/*
 * Places a new block: its slot's record (a slab object's) or a node of
 * the tree, with start, size, min_count and flags (MEMLEAK_ALLOCATED)
 * written; the caller writes every other field. NULL, with *err -EEXIST
 * (overlap), -ERANGE (past its slab object) or -ENOMEM, when it cannot.
 */
struct memleak_block *memleak_index_insert_rest(unsigned long start,
						size_t size, int min_count,
						struct page_entry *e, int *err);

static inline struct memleak_block *
memleak_index_insert(unsigned long start, size_t size, int min_count, int *err)
{
	struct page_entry *e = entry_of(start);

	/* A slab with records already: they say all. */
	if (e && is_slab_shape(e->shape))
		return insert_in_slab(start, size, min_count, e, err);
	return memleak_index_insert_rest(start, size, min_count, e, err);
}

/*
 * For a free or an annotation: the block that starts at start (not one
 * that holds it), or NULL, and where it was found (a slab object's page
 * entry and slot; entry NULL for a block outside slabs), so that its
 * removal need not look again.
 */
struct memleak_index_place {
	struct page_entry *entry;
	unsigned int slot;
};

struct memleak_block *memleak_index_find_start_rest(unsigned long start,
						    struct page_entry *e);

static inline struct memleak_block *
memleak_index_find_start(unsigned long start, struct memleak_index_place *place)
{
	struct page_entry *e = entry_of(start);
	const struct slab_shape *sh;
	struct memleak_block *b;
	unsigned long base;
	unsigned int i;

	place->entry = NULL;
	if (!e || !is_slab_shape(e->shape))
		return memleak_index_find_start_rest(start, e);
	sh = &memleak_shapes[e->shape];
	base = start & sh->mask;
	i = slot_number(sh, start - base);
	if (i >= sh->nr_slots)
		return NULL;	/* in the slab's unused tail */
	b = e->records + i;
	if (!record_used(b) || start != object_start(sh, base, i))
		return NULL;
	place->entry = e;
	place->slot = i;
	return b;
}

/*
 * Takes b, found at place, out of the index and frees its record (flags
 * 0: no longer MEMLEAK_ALLOCATED); what holds the record's memory is
 * given back at the last unpin (memleak_index_free_retired()) while the
 * collector is pinned.
 */
static inline void memleak_index_remove(struct memleak_block *b,
					const struct memleak_index_place *place)
{
	if (place->entry)
		remove_from_slab(b, place->entry, place->slot);
	else
		memleak_tree_remove(b);
}

#endif
