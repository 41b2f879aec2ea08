/*
 * The leak collector's index of the blocks outside slabs (large
 * kmalloc, page and vmalloc allocations, thread stacks, modules, the
 * boot allocator's tables, and anything a test tracks in its own
 * memory): few and large, they sit in a radix tree keyed by the page
 * number of their start, each entry the list of the blocks starting in
 * that page, in address order. Each block lives in a node of that list
 * (struct tree_block), so that the many blocks in slabs, whose records
 * are their slab's (index.c), carry no link. The pages of RAM they
 * cover get SHAPE_TREE in their page entries (index.h), so that index.c
 * sends a word there, and dismisses a word pointing into any other page
 * of RAM by its entry alone.
 *
 * Locking: memleak_lock, for every function here.
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/radix-tree.h>
#include <kernel/slab.h>
#include "index.h"

/*
 * One block in the list of those starting in a page. The block comes
 * first: container_of() at offset 0 records no alias, where one at the
 * size of a pointer would make that offset an alias of every tracked
 * block of this struct's size.
 */
struct tree_block {
	struct memleak_block block;
	struct tree_block *next;	/* the page's next block, by address */
	unsigned long start;
	size_t size;			/* the whole of it: block_size() */
};

/*
 * The tree's nodes and blocks: caches of ours too, with spare nodes for
 * a whole path.
 */
static struct kmem_cache *node_cache, *block_cache;

/*
 * Blocks taken out while the collector was pinned, freed at the unpin
 * (a queue may still point to them), linked through their next.
 */
static struct tree_block *retired_blocks;
static unsigned long nr_tree_blocks;	/* in the tree now */
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
	block_cache = kmem_cache_create("memleak_tree_block",
					sizeof(struct tree_block), 0,
					SLAB_NOLEAKTRACE, NULL);
	if (!node_cache || !block_cache)
		return -ENOMEM;
	radix_tree_init(&block_tree, alloc_tree_node, free_tree_node, NULL);
	radix_tree_keep_spares(&block_tree, SPARE_TREE_NODES);
	return 0;
}

unsigned long memleak_tree_pages(void)
{
	return memleak_cache_pages(node_cache) +
	       memleak_cache_pages(block_cache);
}

unsigned long memleak_tree_blocks(void)
{
	return nr_tree_blocks;
}

static struct tree_block *node_of(const struct memleak_block *b)
{
	return container_of(b, struct tree_block, block);
}

/* One past its last byte (a block of size 0 holds its start). */
static unsigned long node_end(const struct tree_block *t)
{
	return t->start + max(t->size, (size_t)1);
}

size_t memleak_tree_block_size(const struct memleak_block *b)
{
	return node_of(b)->size;
}

bool memleak_tree_holds(const struct memleak_block *b)
{
	return slab_cache_of(virt_to_page(b)) == block_cache;
}

unsigned long memleak_tree_block_start(const struct memleak_block *b)
{
	return node_of(b)->start;
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
		struct memleak_block *last = NULL;
		struct tree_block *l;

		l = radix_tree_lookup_le(&block_tree, key, &found);
		for (; l && l->start <= addr; l = l->next)
			last = &l->block;
		/* Every block of the page found starts past addr: look before. */
		if (last || !l || found == 0)
			return last;
		key = found - 1;
	}
}

struct memleak_block *memleak_tree_find(unsigned long addr)
{
	struct memleak_block *b = last_start_at_or_before(addr);

	return b && addr < node_end(node_of(b)) ? b : NULL;
}

/* Whether a block in the tree still covers part of the page at addr. */
static bool page_still_covered(unsigned long page)
{
	struct memleak_block *b = last_start_at_or_before(page + PAGE_SIZE - 1);

	return b && node_end(node_of(b)) > page;
}

/* The pages of RAM in [start, end) are covered by a tree block. */
static void mark_linear_pages(unsigned long start, unsigned long end)
{
	unsigned long p = ALIGN_DOWN(start, PAGE_SIZE);

	for (; p < end; p += PAGE_SIZE)
		if (entry_of(p))
			entry_of(p)->shape = SHAPE_TREE;
}

static void unmark_linear_pages(const struct memleak_block *b)
{
	unsigned long p = ALIGN_DOWN(node_of(b)->start, PAGE_SIZE);

	for (; p < node_end(node_of(b)); p += PAGE_SIZE)
		if (entry_of(p) && !page_still_covered(p))
			entry_of(p)->shape = 0;
}

/*
 * Whether [start, end) covers a page of the linear map holding tracked
 * slab objects.
 */
static bool covers_slab_blocks(unsigned long start, unsigned long end)
{
	unsigned long p = ALIGN_DOWN(start, PAGE_SIZE);

	for (; p < end; p += PAGE_SIZE) {
		struct page_entry *e = entry_of(p);

		if (e && is_slab_shape(e->shape))
			return true;
	}
	return false;
}

struct memleak_block *memleak_tree_insert(unsigned long start, size_t size,
					  int min_count, int *err)
{
	unsigned long end = start + max(size, (size_t)1);
	unsigned long page = start >> PAGE_SHIFT;
	struct tree_block **link, *head, *new;
	struct memleak_block *before;

	before = last_start_at_or_before(end - 1);
	*err = -EEXIST;
	if (before && node_end(node_of(before)) > start)
		return NULL;
	if (covers_slab_blocks(start, end))
		return NULL;
	*err = -ENOMEM;
	new = kmem_cache_alloc(block_cache, GFP_ATOMIC);
	if (!new)
		return NULL;
	new->block = (struct memleak_block){
		.size = (u16)min(size, (size_t)MEMLEAK_SIZE_LARGE),
		.min_count = (s8)min_count,
		.flags = MEMLEAK_ALLOCATED,
	};
	new->start = start;
	new->size = size;
	head = radix_tree_lookup(&block_tree, page);
	if (!head || head->start > start) {
		new->next = head;
		*err = 0;
		if (head)
			radix_tree_replace(&block_tree, page, new);
		else
			*err = radix_tree_insert(&block_tree, page, new);
	} else {
		link = &head->next;
		while (*link && (*link)->start < start)
			link = &(*link)->next;
		new->next = *link;
		*link = new;
		*err = 0;
	}
	if (*err) {
		kmem_cache_free(block_cache, new);
		return NULL;
	}
	mark_linear_pages(start, end);
	nr_tree_blocks++;
	return &new->block;
}

void memleak_tree_remove(struct memleak_block *b)
{
	struct tree_block *gone = node_of(b);
	unsigned long key = gone->start >> PAGE_SHIFT;
	struct tree_block *head = radix_tree_lookup(&block_tree, key);
	struct tree_block **link;

	if (head == gone) {
		if (head->next)
			radix_tree_replace(&block_tree, key, head->next);
		else
			radix_tree_delete(&block_tree, key);
	} else {
		for (link = &head->next; *link != gone;)
			link = &(*link)->next;
		*link = gone->next;
	}
	unmark_linear_pages(b);
	b->flags = 0;
	nr_tree_blocks--;
	if (!memleak.pins) {
		kmem_cache_free(block_cache, gone);
		return;
	}
	gone->next = retired_blocks;
	retired_blocks = gone;
	memleak.nr_retired++;
}

unsigned int memleak_tree_free_retired(unsigned int n)
{
	struct tree_block *t;
	unsigned int done = 0;

	for (; done < n && (t = retired_blocks); done++) {
		retired_blocks = t->next;
		kmem_cache_free(block_cache, t);
	}
	return done;
}

unsigned int memleak_tree_walk_page(unsigned long *key, bool *done,
				    memleak_visit_fn *visit,
				    void *ctx)
{
	unsigned long found;
	struct tree_block *l = radix_tree_lookup_ge(&block_tree, *key, &found);
	unsigned int n = 0;

	if (!l) {
		*done = true;
		return 0;
	}
	for (; l; l = l->next, n++)
		visit(&l->block, l->start, ctx);
	*key = found + 1;
	return n;
}
