/*
 * What the two halves of the leak collector's index share: index.c
 * (slab objects, by page entry, shape and bit pool) and index_tree.c
 * (every other block, in a tree of start pages); and the scan's lookup,
 * inline here so that scan.c's loop over words holds it. All run with
 * memleak_lock held.
 */
#ifndef MM_KMEMLEAK_INDEX_H
#define MM_KMEMLEAK_INDEX_H

#include <kernel/bitops.h>
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
 * The rest (blocks outside slabs, a word inside a block) is index.c's.
 */
struct memleak_block *memleak_index_scan_lookup_rest(unsigned long addr,
						     const struct page_entry *e,
						     unsigned int i,
						     unsigned long *start);

static inline struct memleak_block *
memleak_index_scan_lookup(unsigned long addr, bool *first_ref,
			  unsigned long *start)
{
	struct page_entry *e = entry_of(addr);
	const struct slab_shape *sh;
	struct slot_bits *bits;
	unsigned long base, bit;
	unsigned int i = 0;

	*first_ref = false;
	if (!e || !is_slab_shape(e->shape))
		return memleak_index_scan_lookup_rest(addr, e, i, start);
	sh = &memleak_shapes[e->shape];
	base = addr & sh->mask;
	i = slot_number(sh, addr - base);
	if (i >= sh->nr_slots)
		return NULL;	/* in the slab's unused tail */
	bits = slot_bits_of(e->first_bits, i);
	bit = slot_bit(e->first_bits, i);
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
	return memleak_index_scan_lookup_rest(addr, e, i, start);
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

#endif
