/*
 * The leak collector's index: from any address to the tracked block that
 * holds it, the question the scan asks of every word that might be a
 * pointer. It follows the allocator's own geometry instead of keeping a
 * tree of every block address:
 *
 *   word --pfn--> struct page --memleak_index--> slab's slot array
 *        --(word - base) * reciprocal--> slot --> block
 *
 * A slab object is found in three dependent loads (the page's field, the
 * slot array's header and its slot, usually on one cache line), then the
 * block itself. Each slab with tracked objects has a slot array, made
 * when its first object is tracked and freed when its last one goes;
 * every page of the slab points to it.
 *
 * Blocks outside slabs (large kmalloc, page and vmalloc allocations,
 * thread stacks, modules, the boot allocator's tables, and anything a
 * test tracks in its own memory) are few and large. They sit in a radix
 * tree keyed by the page number of their start, each entry the list of
 * blocks starting in that page, in address order; the pages of the
 * linear map they cover are marked IN_TREE, so that a word pointing into
 * any other page of RAM is dismissed by its struct page alone.
 *
 * Locking: memleak_lock, for every function here and for the pages'
 * memleak_index fields. A slot array exists only while its slab holds a
 * tracked (so allocated) object, so the slab cannot be given back while
 * the scan reads it.
 */
#include <kernel/memleak.h>
#include <kernel/bitops.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/radix-tree.h>
#include <kernel/slab.h>
#include "internal.h"

/*
 * One slab's tracked objects: two bits per slot, then the block (or
 * NULL) in each slot (slots_of()). Every load of the scan's lookup is a
 * cache miss on a random heap, so the bits, beside the header, answer
 * the common questions without reading the slot or the block:
 *
 *   mark    the scan has found this block gray or black: a word
 *           pointing to it changes nothing (most blocks are pointed to
 *           more than once);
 *   simple  the block is its slot's object (it starts where the object
 *           does) and one reference turns it gray (min_count 1, not
 *           ignored): a word equal to the object's address is the
 *           block's first reference, gray without reading the block
 *           (memleak_index_scan_lookup()).
 *
 * After the bits, a byte per slot: the block's type id (types.c), so
 * that the scan's pointer checks learn what a typed pointer points to
 * without reading the slot or the block (memleak_index_peek()).
 * The slots come last.
 *
 * Marks belong to one scan, its epoch (memleak_index_new_epoch()): an
 * array whose epoch is older has no valid marks, and is cleared the
 * first time this scan marks in it, so that starting a scan does not
 * walk every array.
 */
struct slab_slots {
	unsigned long base;		/* the slab's first slot */
	unsigned int size;		/* bytes per slot */
	u32 reciprocal;			/* 2^32 / size rounded up; 0: divide */
	unsigned int obj_offset;	/* of the object in its slot */
	unsigned int nr_slots;
	u32 epoch;			/* of the scan the marks belong to */
	unsigned int nr_pages;
	unsigned int nr_used;		/* slots holding a block */
	unsigned long bits[];		/* marks, then simple: bitmap_longs() each */
};

static unsigned int bitmap_longs(const struct slab_slots *s)
{
	return BITS_TO_LONGS(s->nr_slots);
}

static unsigned long *marks_of(struct slab_slots *s)
{
	return s->bits;
}

static unsigned long *simple_of(struct slab_slots *s)
{
	return s->bits + bitmap_longs(s);
}

/* The type bytes, beside the bitmaps: a peek need not read a slot. */
static u8 *types_of(struct slab_slots *s)
{
	return (u8 *)(s->bits + 2 * bitmap_longs(s));
}

static unsigned int types_longs(unsigned int nr_slots)
{
	return DIV_ROUND_UP(nr_slots, sizeof(long));
}

static struct memleak_block **slots_of(struct slab_slots *s)
{
	return (struct memleak_block **)(s->bits + 2 * bitmap_longs(s) +
					 types_longs(s->nr_slots));
}

/* The running scan's epoch (0: none has started yet). */
static u32 mark_epoch;

/* A page's memleak_index when blocks outside slabs cover (part of) it. */
#define IN_TREE ((void *)1)

/* Blocks outside slabs, keyed by the page number of their start. */
static struct radix_tree_root block_tree;

/*
 * Slot arrays come from the collector's own caches, one per power of two
 * of slots (1 .. 2^MAX_SLOTS_SHIFT; a slab of 8-byte objects in a 4 KiB
 * page has 512), so that the page counts of memleak_nr_free_pages() see
 * them. Larger arrays, which no cache of ours needs, come from kmalloc.
 */
#define MAX_SLOTS_SHIFT 10
static struct kmem_cache *slots_cache[MAX_SLOTS_SHIFT + 1];

static unsigned int slots_shift(unsigned int nr_slots)
{
	unsigned int shift = 0;

	while ((1u << shift) < nr_slots)
		shift++;
	return shift;
}

/*
 * The header, the two bitmaps, the types and the slots (the layout of
 * types_of() and slots_of()).
 */
static size_t slots_bytes(unsigned int nr_slots)
{
	return sizeof(struct slab_slots) +
	       (2 * BITS_TO_LONGS(nr_slots) + types_longs(nr_slots)) *
		       sizeof(long) +
	       nr_slots * sizeof(struct memleak_block *);
}

/* The tree's nodes: a cache of ours too, with spares for a whole path. */
static struct kmem_cache *node_cache;
#define SPARE_TREE_NODES (RADIX_TREE_MAX_HEIGHT + 2)

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


int memleak_index_init(void)
{
	for (unsigned int i = 0; i <= MAX_SLOTS_SHIFT; i++) {
		char name[SLAB_NAME_LEN];

		snprintf(name, sizeof(name), "memleak_slots_%u", 1u << i);
		slots_cache[i] = kmem_cache_create(name, slots_bytes(1u << i), 0,
						   SLAB_NOLEAKTRACE, NULL);
		if (!slots_cache[i])
			return -ENOMEM;
	}
	node_cache = kmem_cache_create("memleak_tree_node",
				       RADIX_TREE_NODE_SIZE, 0,
				       SLAB_NOLEAKTRACE, NULL);
	if (!node_cache)
		return -ENOMEM;
	radix_tree_init(&block_tree, alloc_tree_node, free_tree_node, NULL);
	radix_tree_keep_spares(&block_tree, SPARE_TREE_NODES);
	return 0;
}

unsigned long memleak_index_pages(void)
{
	unsigned long pages = memleak_cache_pages(node_cache);

	for (unsigned int i = 0; i <= MAX_SLOTS_SHIFT; i++)
		pages += memleak_cache_pages(slots_cache[i]);
	return pages;
}

void memleak_index_shrink(void)
{
	radix_tree_keep_spares(&block_tree, 0);
	radix_tree_keep_spares(&block_tree, SPARE_TREE_NODES);
}

static unsigned long block_end(const struct memleak_block *b)
{
	return b->start + (b->size ? b->size : 1);
}

/* ------------------------------------------------------------------ */
/* Slab objects: slot arithmetic                                       */

static unsigned int slot_number(const struct slab_slots *s, unsigned long addr)
{
	unsigned long off = addr - s->base;

	if (s->reciprocal)
		return (unsigned int)(((u64)off * s->reciprocal) >> 32);
	return (unsigned int)(off / s->size);
}

static unsigned long object_start(const struct slab_slots *s, unsigned int i)
{
	return s->base + (unsigned long)i * s->size + s->obj_offset;
}

static bool slot_marked(struct slab_slots *s, unsigned int i)
{
	return s->epoch == mark_epoch && test_bit(i, marks_of(s));
}

/* Marks of an older scan are cleared before this one's are set. */
static void set_slot_mark(struct slab_slots *s, unsigned int i)
{
	if (s->epoch != mark_epoch) {
		memset(marks_of(s), 0, bitmap_longs(s) * sizeof(long));
		s->epoch = mark_epoch;
	}
	set_bit(i, marks_of(s));
}

static bool block_is_simple(const struct memleak_block *b,
			    const struct slab_slots *s, unsigned int i)
{
	return b->start == object_start(s, i) && b->min_count == 1 &&
	       !block_is_black(b);
}

static struct memleak_block *find_in_slab(struct slab_slots *s,
					  unsigned long addr, bool unmarked,
					  bool *first_ref)
{
	unsigned int i = slot_number(s, addr);
	struct memleak_block *b;

	if (i >= s->nr_slots)
		return NULL;	/* in the slab's unused tail */
	if (unmarked && slot_marked(s, i))
		return NULL;
	b = slots_of(s)[i];
	if (unmarked && b && test_bit(i, simple_of(s)) &&
	    addr == object_start(s, i)) {
		/* The scan's first reference: gray, so marked now. */
		set_slot_mark(s, i);
		*first_ref = true;
		return b;	/* not read: see struct slab_slots */
	}
	if (b && addr >= b->start && addr < block_end(b))
		return b;
	return NULL;
}

static void set_pages(unsigned long start, unsigned int nr, void *value)
{
	struct page *page = virt_to_page((void *)start);

	for (unsigned int i = 0; i < nr; i++)
		page[i].memleak_index = value;
}

static struct slab_slots *new_slots(const struct slab_geometry *g)
{
	unsigned int shift = slots_shift(g->nr_slots);
	size_t bytes = slots_bytes(g->nr_slots);
	struct slab_slots *s;

	if (shift <= MAX_SLOTS_SHIFT)
		s = kmem_cache_alloc(slots_cache[shift], GFP_ATOMIC);
	else
		s = kmalloc(bytes, GFP_ATOMIC);
	if (!s)
		return NULL;
	memset(s, 0, bytes);
	s->base = g->base;
	s->size = g->size;
	s->reciprocal = g->reciprocal;
	s->obj_offset = g->obj_offset;
	s->nr_slots = g->nr_slots;
	s->nr_pages = g->nr_pages;
	s->epoch = mark_epoch;
	memleak.index_bytes += bytes;
	set_pages(s->base, s->nr_pages, s);
	return s;
}

static void free_slots(struct slab_slots *s)
{
	unsigned int shift = slots_shift(s->nr_slots);

	set_pages(s->base, s->nr_pages, NULL);
	memleak.index_bytes -= slots_bytes(s->nr_slots);
	if (shift <= MAX_SLOTS_SHIFT)
		kmem_cache_free(slots_cache[shift], s);
	else
		kfree(s);
}

static int insert_in_slab(struct memleak_block *b,
			  const struct slab_geometry *g)
{
	struct slab_slots *s = virt_to_page((void *)b->start)->memleak_index;
	unsigned int i;

	if (s == IN_TREE)
		return -EEXIST;
	if (!s) {
		s = new_slots(g);
		if (!s)
			return -ENOMEM;
	}
	i = slot_number(s, b->start);
	if (i >= s->nr_slots ||
	    block_end(b) > s->base + (unsigned long)(i + 1) * s->size) {
		if (!s->nr_used)
			free_slots(s);
		return -ERANGE;
	}
	if (slots_of(s)[i])
		return -EEXIST;
	slots_of(s)[i] = b;
	types_of(s)[i] = b->type;
	if (block_is_simple(b, s, i))
		set_bit(i, simple_of(s));
	s->nr_used++;
	return 0;
}

static void remove_from_slab(struct memleak_block *b, struct slab_slots *s)
{
	unsigned int i = slot_number(s, b->start);

	if (slots_of(s)[i] != b)
		return;
	slots_of(s)[i] = NULL;
	types_of(s)[i] = 0;
	/* The slot's next block starts unmarked, and maybe not simple. */
	clear_bit(i, marks_of(s));
	clear_bit(i, simple_of(s));
	if (--s->nr_used == 0)
		free_slots(s);
}

/* ------------------------------------------------------------------ */
/* Other blocks: the tree of start pages                               */

/* The block with the greatest start <= addr, or NULL. */
static struct memleak_block *last_start_at_or_before(unsigned long addr)
{
	unsigned long key = addr >> PAGE_SHIFT, found;

	for (;;) {
		struct memleak_block *b, *last = NULL;

		b = radix_tree_lookup_le(&block_tree, key, &found);
		for (; b && b->start <= addr; b = b->page_next)
			last = b;
		/* Every block of the page found starts past addr: look before. */
		if (last || !b || found == 0)
			return last;
		key = found - 1;
	}
}

static struct memleak_block *find_in_tree(unsigned long addr)
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
		if (virt_addr_valid((void *)p))
			virt_to_page((void *)p)->memleak_index = IN_TREE;
}

static void unmark_linear_pages(const struct memleak_block *b)
{
	unsigned long p = ALIGN_DOWN(b->start, PAGE_SIZE);

	for (; p < block_end(b); p += PAGE_SIZE)
		if (virt_addr_valid((void *)p) && !page_still_covered(p))
			virt_to_page((void *)p)->memleak_index = NULL;
}

/* Whether b covers a page of the linear map holding tracked slab objects. */
static bool covers_slab_blocks(const struct memleak_block *b)
{
	unsigned long p = ALIGN_DOWN(b->start, PAGE_SIZE);

	for (; p < block_end(b); p += PAGE_SIZE) {
		void *index;

		if (!virt_addr_valid((void *)p))
			continue;
		index = virt_to_page((void *)p)->memleak_index;
		if (index && index != IN_TREE)
			return true;
	}
	return false;
}

static int insert_in_tree(struct memleak_block *b)
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
		b->page_next = head;
		err = head ? 0 : radix_tree_insert(&block_tree, key, b);
		if (err)
			return err;
		if (head)
			radix_tree_replace(&block_tree, key, b);
	} else {
		for (link = &head->page_next; *link && (*link)->start < b->start;)
			link = &(*link)->page_next;
		b->page_next = *link;
		*link = b;
	}
	mark_linear_pages(b);
	return 0;
}

static void remove_from_tree(struct memleak_block *b)
{
	unsigned long key = b->start >> PAGE_SHIFT;
	struct memleak_block *head = radix_tree_lookup(&block_tree, key);
	struct memleak_block **link;

	if (head == b) {
		if (b->page_next)
			radix_tree_replace(&block_tree, key, b->page_next);
		else
			radix_tree_delete(&block_tree, key);
	} else {
		for (link = &head->page_next; *link && *link != b;)
			link = &(*link)->page_next;
		if (*link)
			*link = b->page_next;
	}
	b->page_next = NULL;
	unmark_linear_pages(b);
}

/* ------------------------------------------------------------------ */
/* The interface                                                       */

static struct memleak_block *find(unsigned long addr, bool unmarked,
				  bool *first_ref)
{
	void *index;

	*first_ref = false;
	if (!virt_addr_valid((void *)addr))
		return find_in_tree(addr);
	index = virt_to_page((void *)addr)->memleak_index;
	if (!index)
		return NULL;
	if (index == IN_TREE)
		return find_in_tree(addr);
	return find_in_slab(index, addr, unmarked, first_ref);
}

struct memleak_block *memleak_index_find(unsigned long addr)
{
	bool first_ref;

	return find(addr, false, &first_ref);
}

/*
 * A slab object's start and type come from the slot array alone: the
 * block is not read, as in the scan's lookup. addr past the end of a
 * block that is smaller than its object still gets the object's block
 * here: callers that act on an answer look the block up to be sure.
 */
bool memleak_index_peek(unsigned long addr, unsigned long *start, u8 *type)
{
	struct memleak_block *b;
	struct slab_slots *s;
	unsigned int i;

	s = virt_addr_valid((void *)addr) ?
		    virt_to_page((void *)addr)->memleak_index : IN_TREE;
	if (!s || s == IN_TREE) {
		b = s ? find_in_tree(addr) : NULL;
		if (b) {
			*start = b->start;
			*type = b->type;
		}
		return b;
	}
	i = slot_number(s, addr);
	if (i >= s->nr_slots)
		return false;
	*type = types_of(s)[i];
	/* Type 0 is also an empty slot: only then is the slot read. */
	if (!*type && !slots_of(s)[i])
		return false;
	*start = test_bit(i, simple_of(s)) ? object_start(s, i) :
					     slots_of(s)[i]->start;
	return addr >= *start;
}

struct memleak_block *memleak_index_scan_lookup(unsigned long addr,
						bool *first_ref)
{
	return find(addr, true, first_ref);
}

/* The slot array and slot of a slab block, or NULL. */
static struct slab_slots *slots_of_block(const struct memleak_block *b,
					 unsigned int *i)
{
	struct slab_slots *s;

	if (!virt_addr_valid((void *)b->start))
		return NULL;
	s = virt_to_page((void *)b->start)->memleak_index;
	if (!s || s == IN_TREE)
		return NULL;
	*i = slot_number(s, b->start);
	return slots_of(s)[*i] == b ? s : NULL;
}

void memleak_index_mark(const struct memleak_block *b)
{
	unsigned int i;
	struct slab_slots *s = slots_of_block(b, &i);

	if (s)
		set_slot_mark(s, i);
}

void memleak_index_update(const struct memleak_block *b)
{
	unsigned int i;
	struct slab_slots *s = slots_of_block(b, &i);

	if (!s)
		return;
	if (block_is_simple(b, s, i))
		set_bit(i, simple_of(s));
	else
		clear_bit(i, simple_of(s));
}

void memleak_index_new_epoch(void)
{
	/*
	 * After 2^32 scans an array untouched since the epoch of the same
	 * number would pass for marked: a block taken for gray, a leak
	 * missed once, never a false report. Skipping 0 keeps new arrays
	 * of a collector that never scanned unmarked.
	 */
	if (++mark_epoch == 0)
		mark_epoch = 1;
}

int memleak_index_insert(struct memleak_block *b)
{
	struct slab_geometry g;

	/* Each path checks overlaps its own way: one block per slot, or the tree. */
	if (slab_geometry_of((void *)b->start, &g))
		return insert_in_slab(b, &g);
	return insert_in_tree(b);
}

void memleak_index_remove(struct memleak_block *b)
{
	void *index = NULL;

	if (virt_addr_valid((void *)b->start))
		index = virt_to_page((void *)b->start)->memleak_index;
	if (index && index != IN_TREE)
		remove_from_slab(b, index);
	else
		remove_from_tree(b);
}
