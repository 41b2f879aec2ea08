/*
 * The leak collector's index of the blocks outside slabs (large
 * kmalloc, page and vmalloc allocations, thread stacks, modules, the
 * boot allocator's tables, and anything a test tracks in its own
 * memory): few and large, they sit in a radix tree keyed by the page
 * number of their start, each entry the list of the blocks starting in
 * that page, in address order (linked through the page_next of their
 * struct memleak_tree_block, index.h). The pages of
 * RAM they cover get SHAPE_TREE in their page entries (index.h), so
 * that index.c sends a word there, and dismisses a word pointing into
 * any other page of RAM by its entry alone.
 *
 * Locking: memleak_lock, for every function here.
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/radix-tree.h>
#include <kernel/slab.h>
#include "index.h"

/* The tree's nodes: a cache of ours too, with spares for a whole path. */
static struct kmem_cache *node_cache;
#define SPARE_TREE_NODES (RADIX_TREE_MAX_HEIGHT + 2)

/* Blocks outside slabs, keyed by the page number of their start. */
static struct radix_tree_root block_tree;

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

int memleak_tree_init(void)
{
	node_cache = kmem_cache_create("memleak_tree_node",
				       RADIX_TREE_NODE_SIZE, 0,
				       SLAB_NOLEAKTRACE, NULL);
	if (!node_cache)
		return -ENOMEM;
	radix_tree_init(&block_tree, alloc_tree_node, free_tree_node, NULL);
	radix_tree_keep_spares(&block_tree, SPARE_TREE_NODES);
	return 0;
}

unsigned long memleak_tree_pages(void)
{
	return memleak_cache_pages(node_cache);
}

/* Gives back the spare nodes, and keeps a path's worth again. */
void memleak_tree_shrink(void)
{
	radix_tree_keep_spares(&block_tree, 0);
	radix_tree_keep_spares(&block_tree, SPARE_TREE_NODES);
}

/* The block with the greatest start <= addr, or NULL. */
static struct memleak_block *last_start_at_or_before(unsigned long addr)
{
	unsigned long key = addr >> PAGE_SHIFT, found;

	for (;;) {
		struct memleak_block *b, *last = NULL;

		b = radix_tree_lookup_le(&block_tree, key, &found);
		for (; b && b->start <= addr; b = *page_next_of(b))
			last = b;
		/* Every block of the page found starts past addr: look before. */
		if (last || !b || found == 0)
			return last;
		key = found - 1;
	}
}

struct memleak_block *memleak_tree_find(unsigned long addr)
{
	struct memleak_block *b = last_start_at_or_before(addr);

	return b && addr < block_end(b) ? b : NULL;
}

/* Whether a block in the tree still covers part of the page at addr. */
static bool page_still_covered(unsigned long page)
{
	struct memleak_block *b = last_start_at_or_before(page + PAGE_SIZE - 1);

	return b && block_end(b) > page;
}

static void mark_linear_pages(const struct memleak_block *b)
{
	unsigned long p = ALIGN_DOWN(b->start, PAGE_SIZE);

	for (; p < block_end(b); p += PAGE_SIZE)
		if (entry_of(p))
			entry_of(p)->shape = SHAPE_TREE;
}

static void unmark_linear_pages(const struct memleak_block *b)
{
	unsigned long p = ALIGN_DOWN(b->start, PAGE_SIZE);

	for (; p < block_end(b); p += PAGE_SIZE)
		if (entry_of(p) && !page_still_covered(p))
			entry_of(p)->shape = 0;
}

/* Whether b covers a page of the linear map holding tracked slab objects. */
static bool covers_slab_blocks(const struct memleak_block *b)
{
	unsigned long p = ALIGN_DOWN(b->start, PAGE_SIZE);

	for (; p < block_end(b); p += PAGE_SIZE) {
		struct page_entry *e = entry_of(p);

		if (e && is_slab_shape(e->shape))
			return true;
	}
	return false;
}

int memleak_tree_insert(struct memleak_block *b)
{
	unsigned long key = b->start >> PAGE_SHIFT;
	struct memleak_block *before = last_start_at_or_before(block_end(b) - 1);
	struct memleak_block **link, *head;
	int err;

	if (before && block_end(before) > b->start)
		return -EEXIST;
	if (covers_slab_blocks(b))
		return -EEXIST;
	head = radix_tree_lookup(&block_tree, key);
	if (!head || head->start > b->start) {
		*page_next_of(b) = head;
		err = head ? 0 : radix_tree_insert(&block_tree, key, b);
		if (err)
			return err;
		if (head)
			radix_tree_replace(&block_tree, key, b);
	} else {
		for (link = page_next_of(head);
		     *link && (*link)->start < b->start;)
			link = page_next_of(*link);
		*page_next_of(b) = *link;
		*link = b;
	}
	mark_linear_pages(b);
	return 0;
}

void memleak_tree_remove(struct memleak_block *b)
{
	unsigned long key = b->start >> PAGE_SHIFT;
	struct memleak_block *head = radix_tree_lookup(&block_tree, key);
	struct memleak_block **link;

	if (head == b) {
		if (*page_next_of(b))
			radix_tree_replace(&block_tree, key, *page_next_of(b));
		else
			radix_tree_delete(&block_tree, key);
	} else {
		for (link = page_next_of(head); *link && *link != b;)
			link = page_next_of(*link);
		if (*link)
			*link = *page_next_of(b);
	}
	*page_next_of(b) = NULL;
	unmark_linear_pages(b);
}

unsigned int memleak_tree_walk_page(unsigned long *key, bool *done,
				    void (*visit)(struct memleak_block *b,
						  void *ctx),
				    void *ctx)
{
	unsigned long found;
	struct memleak_block *b = radix_tree_lookup_ge(&block_tree, *key, &found);
	unsigned int n = 0;

	if (!b) {
		*done = true;
		return 0;
	}
	for (; b; b = *page_next_of(b), n++)
		visit(b, ctx);
	*key = found + 1;
	return n;
}
