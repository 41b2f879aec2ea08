/*
 * What the two halves of the leak collector's index share: index.c
 * (slab objects, by page entry, shape and bit pool) and index_tree.c
 * (every other block, in a tree of start pages). Both run with
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
