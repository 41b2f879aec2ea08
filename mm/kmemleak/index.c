/*
 * The leak collector's index: from any address to the tracked block that
 * holds it, the question the scan asks of every word that might be a
 * pointer. It follows the allocator's own geometry instead of keeping a
 * tree of every block address (docs/memleak.md, "The index"):
 *
 *   word --pfn--> page entry --shape--> slot = (word - slab) * reciprocal
 *                     |                   |
 *                     |                   +--> mark and simple bits
 *                     |                        (a dense bit pool)
 *                     +--> the slab's slot array --> type, block
 *
 * The scan's question, "is this word the first reference to an unmarked
 * block?", is answered from three small tables: an 8-byte entry per
 * page of RAM, the shapes of the slab caches (a few dozen), and two
 * bits per slot of a slab holding tracked objects (mark, simple). Only a
 * word that is none of that (inside a block, a block needing several
 * references) reads the slab's slot array and the block.
 *
 * Each slab with tracked objects has a slot array (the block in each
 * slot, and its type) and a run of words in the bit pool, made
 * when its first object is tracked and given back with its last one.
 *
 * Blocks outside slabs (large kmalloc, page and vmalloc allocations,
 * thread stacks, modules...) are few and large: index_tree.c keeps them
 * in a tree of start pages, and the pages of RAM they cover have
 * SHAPE_TREE, so that a word pointing into any other page of RAM is
 * dismissed by its page entry alone.
 *
 * Locking: memleak_lock, for every function here. A slot array exists
 * only while its slab holds a tracked (so allocated) object, so the slab
 * cannot be given back while the scan reads it.
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

/*
 * What a slab of some cache looks like: slabs are aligned to their size,
 * so a slab's first slot is any of its addresses masked. Caches of the
 * same geometry share one shape.
 */
struct slab_shape {
	unsigned long mask;		/* ~(bytes of a slab - 1) */
	unsigned int size;		/* bytes per slot */
	u32 reciprocal;			/* 2^32 / size rounded up; 0: divide */
	unsigned int obj_offset;	/* of the object in its slot */
	unsigned int nr_slots;
	unsigned int nr_pages;
};

/* Shape 0 is none: the page holds no tracked slab object. */
#define MAX_SHAPES 256
static struct slab_shape shapes[MAX_SHAPES] __memleak_noscan;
static unsigned int nr_shapes = 1;

struct slab_slots;

/*
 * One entry per page frame of RAM, pfn min_pfn first; beside them, for
 * the pages of a slab with tracked objects, its slot array (off the
 * scan's fast path).
 */
struct page_entry *memleak_page_entries;
static struct slab_slots **page_slots;
/* A bit per page: the first page of a slab with a slot array (walks). */
static unsigned long *slab_starts;
static unsigned int page_entries_order, page_slots_order, slab_starts_order;

/*
 * One slab's tracked objects, off the scan's fast path: the block in
 * each slot (or NULL), after a byte per slot for its type id (types.c),
 * so that the scan's pointer checks learn what a typed pointer points to
 * without reading the block (memleak_index_peek()).
 */
struct slab_slots {
	unsigned long base;		/* the slab's first slot */
	u32 shape;
	u32 first_pair;			/* its run in the bit pool */
	unsigned int nr_used;		/* slots holding a block */
	u8 types[] __aligned(sizeof(void *));	/* then the slots: slots_at() */
};

/*
 * The bit pool: a slab's run of word pairs holds two bits per slot, the
 * two of a slot side by side, so that one cache line answers the scan:
 *
 *   mark    the running scan has found this block gray or black: a word
 *           pointing to it changes nothing (most blocks are pointed to
 *           more than once). The next scan starts by clearing them
 *           (memleak_index_clear_marks()), a window's budget at a time.
 *   simple  the block is its slot's object (it starts where the object
 *           does) and one reference turns it gray (min_count 1, not
 *           ignored): a word equal to the object's address is the
 *           block's first reference, gray without reading the block
 *           (memleak_index_scan_lookup()).
 *
 * Runs are a power of two of pairs long, from a free list per length
 * (linked through the simple words, which are never cleared whole) or
 * from the end of the pool, which doubles when full. Bit patterns, no
 * pointers: the pool is pages the scan never reads as roots.
 */
struct bit_pair {
	unsigned long mark, simple;
};
#define RUN_ORDERS 16
static struct bit_pair *bit_pool;
static unsigned long pool_pairs;	/* capacity, in pairs */
static unsigned long pool_end;		/* pairs handed out so far */
static u32 free_runs[RUN_ORDERS];	/* first free run of each order + 1 */

static unsigned int order_of_words(unsigned int words)
{
	unsigned int order = 0;

	while ((1u << order) < words)
		order++;
	return order;
}

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
	return order_of_words(nr_slots);
}

/* Bytes of the type ids before the slots. */
static size_t types_bytes(unsigned int nr_slots)
{
	return ALIGN(nr_slots, sizeof(void *));
}

/* The header, the type ids and the slots (see slots_at()). */
static size_t slots_bytes(unsigned int nr_slots)
{
	return sizeof(struct slab_slots) + types_bytes(nr_slots) +
	       nr_slots * sizeof(struct memleak_block *);
}

/* The slots of the array s of a slab of shape sh; s need not be read. */
static struct memleak_block **slots_at(struct slab_slots *s,
				       const struct slab_shape *sh)
{
	return (struct memleak_block **)(s->types + types_bytes(sh->nr_slots));
}

static struct memleak_block **slots_of(struct slab_slots *s)
{
	return slots_at(s, &shapes[s->shape]);
}

/* Whole pages, untracked: the collector's own (memleak_lock held). */
static void *alloc_table(unsigned int order)
{
	struct page *page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order);

	return page ? page_address(page) : NULL;
}

static void free_table(void *table, unsigned int order)
{
	if (table)
		__free_pages(virt_to_page(table), order);
}

static unsigned int pool_order(unsigned long pairs)
{
	return get_order(pairs * sizeof(struct bit_pair));
}

int memleak_index_init(void)
{
	unsigned long nr_pages = max_pfn - min_pfn;

	for (unsigned int i = 0; i <= MAX_SLOTS_SHIFT; i++) {
		char name[SLAB_NAME_LEN];

		snprintf(name, sizeof(name), "memleak_slots_%u", 1u << i);
		slots_cache[i] = kmem_cache_create(name, slots_bytes(1u << i), 0,
						   SLAB_NOLEAKTRACE, NULL);
		if (!slots_cache[i])
			return -ENOMEM;
	}
	if (memleak_tree_init())
		return -ENOMEM;
	page_entries_order = get_order(nr_pages * sizeof(struct page_entry));
	page_slots_order = get_order(nr_pages * sizeof(struct slab_slots *));
	slab_starts_order = get_order(BITS_TO_LONGS(nr_pages) * sizeof(long));
	memleak_page_entries = alloc_table(page_entries_order);
	page_slots = alloc_table(page_slots_order);
	slab_starts = alloc_table(slab_starts_order);
	if (!memleak_page_entries || !page_slots || !slab_starts)
		return -ENOMEM;
	memset(memleak_page_entries, 0, nr_pages * sizeof(struct page_entry));
	memset(page_slots, 0, nr_pages * sizeof(struct slab_slots *));
	memset(slab_starts, 0, BITS_TO_LONGS(nr_pages) * sizeof(long));
	return 0;
}

unsigned long memleak_index_table_pages(void)
{
	unsigned long pages = 0;

	if (memleak_page_entries)
		pages += 1ul << page_entries_order;
	if (page_slots)
		pages += 1ul << page_slots_order;
	if (slab_starts)
		pages += 1ul << slab_starts_order;
	if (pool_pairs)
		pages += 1ul << pool_order(pool_pairs);
	return pages;
}

unsigned long memleak_index_pages(void)
{
	unsigned long pages = memleak_tree_pages() + memleak_index_table_pages();

	for (unsigned int i = 0; i <= MAX_SLOTS_SHIFT; i++)
		pages += memleak_cache_pages(slots_cache[i]);
	return pages;
}

void memleak_index_shrink(void)
{
	memleak_tree_shrink();
}

/* The slot array of a slab page's entry e. */
static struct slab_slots *slots_of_entry(const struct page_entry *e)
{
	return page_slots[e - memleak_page_entries];
}

/* ------------------------------------------------------------------ */
/* The bit pool                                                        */

/* The pool twice as large (at least pairs more), or false. */
static bool grow_pool(unsigned long pairs)
{
	unsigned long least = PAGE_SIZE / sizeof(struct bit_pair);
	unsigned long n = max(pool_pairs * 2, least);
	struct bit_pair *pool;

	while (n < pool_end + pairs)
		n *= 2;
	pool = alloc_table(pool_order(n));
	if (!pool)
		return false;
	if (pool_pairs) {
		memcpy(pool, bit_pool, pool_end * sizeof(*pool));
		free_table(bit_pool, pool_order(pool_pairs));
	}
	bit_pool = pool;
	pool_pairs = n;
	return true;
}

/* A run of pairs, cleared; false when out of memory. */
static bool alloc_run(unsigned int pairs, u32 *first)
{
	unsigned int order = order_of_words(pairs);

	if (order >= RUN_ORDERS)
		return false;
	if (free_runs[order]) {
		*first = free_runs[order] - 1;
		free_runs[order] = (u32)bit_pool[*first].simple;
	} else {
		if (pool_end + (1u << order) > pool_pairs &&
		    !grow_pool(1u << order))
			return false;
		*first = (u32)pool_end;
		pool_end += 1u << order;
	}
	memset(&bit_pool[*first], 0, (1u << order) * sizeof(struct bit_pair));
	return true;
}

static void free_run(u32 first, unsigned int pairs)
{
	unsigned int order = order_of_words(pairs);

	bit_pool[first].simple = free_runs[order];
	free_runs[order] = first + 1;
}

unsigned long memleak_index_clear_marks(unsigned long from, unsigned long words)
{
	unsigned long end = min(pool_end, from + words);

	for (; from < end; from++)
		bit_pool[from].mark = 0;
	return from < pool_end ? from : 0;
}

void memleak_index_clear_all_marks(void)
{
	memleak_index_clear_marks(0, pool_end);
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
		if (same_shape(&shapes[i], &sh))
			return i;
	if (nr_shapes == MAX_SHAPES)
		return 0;
	shapes[nr_shapes] = sh;
	return nr_shapes++;
}

/* ------------------------------------------------------------------ */
/* Slab objects: slot arithmetic                                       */

static unsigned int slot_number(const struct slab_shape *sh,
				unsigned long off)
{
	if (sh->reciprocal)
		return (unsigned int)(((u64)off * sh->reciprocal) >> 32);
	return (unsigned int)(off / sh->size);
}

static unsigned long object_start(const struct slab_shape *sh,
				  unsigned long base, unsigned int i)
{
	return base + (unsigned long)i * sh->size + sh->obj_offset;
}

/* Where slot i's bits are in the pool, and their mask in each word. */
static unsigned long pair_index(u32 first_pair, unsigned int i)
{
	return first_pair + i / BITS_PER_LONG;
}

static unsigned long bit_mask(unsigned int i)
{
	return 1ul << (i % BITS_PER_LONG);
}

static bool block_is_simple(const struct memleak_block *b,
			    const struct slab_shape *sh, unsigned long base,
			    unsigned int i)
{
	return b->start == object_start(sh, base, i) && b->min_count == 1 &&
	       !block_is_black(b);
}

/* Slot i's mark and simple words in the pool (bit_mask(i) in each). */
static struct bit_pair *bits_of(const struct slab_slots *s, unsigned int i)
{
	return &bit_pool[pair_index(s->first_pair, i)];
}

static void set_simple(const struct slab_slots *s, unsigned int i, bool on)
{
	if (on)
		bits_of(s, i)->simple |= bit_mask(i);
	else
		bits_of(s, i)->simple &= ~bit_mask(i);
}

/* The block in the slot holding addr, or NULL (an empty slot, the tail). */
static struct memleak_block *slot_block(struct slab_slots *s,
					unsigned long addr, unsigned int *i)
{
	const struct slab_shape *sh = &shapes[s->shape];

	*i = slot_number(sh, addr - s->base);
	return *i < sh->nr_slots ? slots_of(s)[*i] : NULL;
}

static struct memleak_block *find_in_slab(struct slab_slots *s,
					  unsigned long addr)
{
	unsigned int i;
	struct memleak_block *b = slot_block(s, addr, &i);

	if (b && addr >= b->start && addr < block_end(b))
		return b;
	return NULL;
}

static void set_pages(unsigned long start, unsigned int nr,
		      struct slab_slots *s, u32 shape, u32 first_pair)
{
	struct page_entry *e = entry_of(start);

	for (unsigned int i = 0; i < nr; i++) {
		page_slots[e + i - memleak_page_entries] = s;
		e[i].shape = shape;
		e[i].first_pair = first_pair;
	}
}

static struct slab_slots *new_slots(const struct slab_geometry *g)
{
	unsigned int shift = slots_shift(g->nr_slots);
	size_t bytes = slots_bytes(g->nr_slots);
	u32 shape = shape_of(g), first_pair;
	struct slab_slots *s;

	if (!shape)
		return NULL;
	if (!alloc_run(BITS_TO_LONGS(g->nr_slots), &first_pair))
		return NULL;
	if (shift <= MAX_SLOTS_SHIFT)
		s = kmem_cache_alloc(slots_cache[shift], GFP_ATOMIC);
	else
		s = kmalloc(bytes, GFP_ATOMIC);
	if (!s) {
		free_run(first_pair, BITS_TO_LONGS(g->nr_slots));
		return NULL;
	}
	memset(s, 0, bytes);
	s->base = g->base;
	s->shape = shape;
	s->first_pair = first_pair;
	memleak.index_bytes += bytes;
	set_pages(s->base, g->nr_pages, s, shape, first_pair);
	set_bit(entry_of(s->base) - memleak_page_entries, slab_starts);
	return s;
}

static void free_slots(struct slab_slots *s)
{
	const struct slab_shape *sh = &shapes[s->shape];
	unsigned int shift = slots_shift(sh->nr_slots);

	set_pages(s->base, sh->nr_pages, NULL, 0, 0);
	clear_bit(entry_of(s->base) - memleak_page_entries, slab_starts);
	free_run(s->first_pair, BITS_TO_LONGS(sh->nr_slots));
	memleak.index_bytes -= slots_bytes(sh->nr_slots);
	if (shift <= MAX_SLOTS_SHIFT)
		kmem_cache_free(slots_cache[shift], s);
	else
		kfree(s);
}

/* Puts b in its slot of s (NULL: none could be made). */
static int insert_in_slab(struct memleak_block *b, struct slab_slots *s)
{
	const struct slab_shape *sh;
	struct memleak_block **slots;
	struct bit_pair *bits;
	unsigned int i;

	if (!s)
		return -ENOMEM;
	sh = &shapes[s->shape];
	i = slot_number(sh, b->start - s->base);
	if (i >= sh->nr_slots ||
	    block_end(b) > s->base + (unsigned long)(i + 1) * sh->size) {
		if (!s->nr_used)
			free_slots(s);
		return -ERANGE;
	}
	slots = slots_at(s, sh);
	if (slots[i])
		return -EEXIST;
	slots[i] = b;
	s->types[i] = b->type;
	bits = bits_of(s, i);
	bits->mark &= ~bit_mask(i);	/* the slot's new block: unmarked */
	if (block_is_simple(b, sh, s->base, i))
		bits->simple |= bit_mask(i);
	s->nr_used++;
	return 0;
}

/* Takes the block starting at start out of its slot of s; NULL if none. */
static struct memleak_block *remove_from_slab(struct slab_slots *s,
					      unsigned long start)
{
	unsigned int i;
	struct memleak_block *b = slot_block(s, start, &i);

	if (!b || b->start != start)
		return NULL;
	slots_of(s)[i] = NULL;
	s->types[i] = 0;
	bits_of(s, i)->simple &= ~bit_mask(i);
	if (--s->nr_used == 0)
		free_slots(s);
	return b;
}

/* ------------------------------------------------------------------ */
/* The interface                                                       */

struct memleak_block *memleak_index_find(unsigned long addr)
{
	struct page_entry *e = entry_of(addr);

	if (!e || e->shape == SHAPE_TREE)
		return memleak_tree_find(addr);
	return e->shape ? find_in_slab(slots_of_entry(e), addr) : NULL;
}

/*
 * A slab object's start and type come from the slot array alone: the
 * block is not read, as in the scan's lookup. addr past the end of a
 * block that is smaller than its object still gets the object's block
 * here: callers that act on an answer look the block up to be sure.
 */
bool memleak_index_peek(unsigned long addr, unsigned long *start, u8 *type)
{
	struct page_entry *e = entry_of(addr);
	struct memleak_block *b;
	struct slab_slots *s;
	unsigned int i;

	if (!e || !is_slab_shape(e->shape)) {
		b = !e || e->shape == SHAPE_TREE ? memleak_tree_find(addr) : NULL;
		if (b) {
			*start = b->start;
			*type = b->type;
		}
		return b;
	}
	s = slots_of_entry(e);
	b = slot_block(s, addr, &i);
	if (!b)
		return false;
	*type = s->types[i];
	*start = bits_of(s, i)->simple & bit_mask(i) ?
			 object_start(&shapes[s->shape], s->base, i) : b->start;
	return addr >= *start;
}

struct memleak_block *memleak_index_scan_lookup(unsigned long addr,
						bool *first_ref)
{
	struct page_entry *e = entry_of(addr);
	const struct slab_shape *sh;
	unsigned long base, w, bit;
	unsigned int i;

	*first_ref = false;
	if (!e)
		return memleak_tree_find(addr);
	if (!is_slab_shape(e->shape))
		return e->shape == SHAPE_TREE ? memleak_tree_find(addr) : NULL;
	sh = &shapes[e->shape];
	base = addr & sh->mask;
	i = slot_number(sh, addr - base);
	if (i >= sh->nr_slots)
		return NULL;	/* in the slab's unused tail */
	w = pair_index(e->first_pair, i);
	bit = bit_mask(i);
	if (bit_pool[w].mark & bit)
		return NULL;
	if ((bit_pool[w].simple & bit) && addr == object_start(sh, base, i)) {
		/* The scan's first reference: gray, so marked now. */
		bit_pool[w].mark |= bit;
		*first_ref = true;
		return NULL;	/* not read: see the bit pool */
	}
	return find_in_slab(slots_of_entry(e), addr);
}

/*
 * The page entry of the slab holding addr, with its shape and addr's
 * slot; NULL outside slabs with tracked objects or in a slab's tail.
 */
static inline struct page_entry *slab_slot(unsigned long addr,
					   const struct slab_shape **sh,
					   unsigned int *i)
{
	struct page_entry *e = entry_of(addr);

	if (!e || !is_slab_shape(e->shape))
		return NULL;
	*sh = &shapes[e->shape];
	*i = slot_number(*sh, addr - (addr & (*sh)->mask));
	return *i < (*sh)->nr_slots ? e : NULL;
}

bool memleak_index_marked(unsigned long addr)
{
	const struct slab_shape *sh;
	unsigned int i;
	struct page_entry *e = slab_slot(addr, &sh, &i);

	return e && (bit_pool[pair_index(e->first_pair, i)].mark & bit_mask(i));
}

struct memleak_block **memleak_index_slot(unsigned long addr)
{
	const struct slab_shape *sh;
	unsigned int i;
	struct page_entry *e = slab_slot(addr, &sh, &i);

	/* Computed from the page entry alone: the slot array is not read. */
	return e ? slots_at(slots_of_entry(e), sh) + i : NULL;
}

/* The slot array and slot of a slab block, or NULL. */
static struct slab_slots *slots_of_block(const struct memleak_block *b,
					 unsigned int *i)
{
	struct page_entry *e = entry_of(b->start);
	struct slab_slots *s;

	if (!e || !is_slab_shape(e->shape))
		return NULL;
	s = slots_of_entry(e);
	return slot_block(s, b->start, i) == b ? s : NULL;
}

void memleak_index_mark(const struct memleak_block *b)
{
	unsigned int i;
	struct slab_slots *s = slots_of_block(b, &i);

	if (s)
		bits_of(s, i)->mark |= bit_mask(i);
}

void memleak_index_update(const struct memleak_block *b)
{
	unsigned int i;
	struct slab_slots *s = slots_of_block(b, &i);

	if (s)
		set_simple(s, i,
			   block_is_simple(b, &shapes[s->shape], s->base, i));
}

bool memleak_index_page_used(unsigned long addr)
{
	struct page_entry *e = entry_of(addr);

	return e && e->shape;
}

/* ------------------------------------------------------------------ */
/* Walks                                                               */

/* How far ahead a slab's walk fetches the blocks of its slots. */
#define WALK_PREFETCH 8
/*
 * The blocks of slot array s from slot *slot on, in address order, at
 * most max (at least 1); *slot is where to go on, 0 when the slab is
 * done.
 */
static unsigned int walk_slab(struct slab_slots *s, unsigned int *slot,
			      unsigned int max,
			      void (*visit)(struct memleak_block *b, void *ctx),
			      void *ctx)
{
	unsigned int nr_slots = shapes[s->shape].nr_slots, n = 0;
	struct memleak_block **slots = slots_of(s);

	for (unsigned int i = *slot; i < nr_slots; i++) {
		if (n == max) {
			*slot = i;
			return n;
		}
		if (i + WALK_PREFETCH < nr_slots && slots[i + WALK_PREFETCH])
			__builtin_prefetch(slots[i + WALK_PREFETCH]);
		if (slots[i]) {
			visit(slots[i], ctx);
			n++;
		}
	}
	*slot = 0;
	return n;
}

bool memleak_index_walk(struct memleak_index_pos *pos, unsigned int max,
			void (*visit)(struct memleak_block *b, void *ctx),
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

		if (page != pos->page)
			pos->slot = 0;	/* its slab went meanwhile */
		pos->page = page;
		if (page == nr_pages)
			break;
		if (n == max)
			return true;
		n += walk_slab(page_slots[page], &pos->slot, max - n, visit, ctx);
		if (pos->slot)
			return true;	/* the slab's rest, next time */
		pos->page++;
	}
	/* Then the tree, by start page. */
	while (n < max && !pos->tree_done)
		n += memleak_tree_walk_page(&pos->key, &pos->tree_done, visit,
					    ctx);
	return !pos->tree_done;
}

int memleak_index_insert(struct memleak_block *b)
{
	struct page_entry *e = entry_of(b->start);
	struct slab_geometry g;

	/* A slab with tracked objects already: its slot array says all. */
	if (e && is_slab_shape(e->shape))
		return insert_in_slab(b, slots_of_entry(e));
	/* Each path checks overlaps its own way: one block per slot, or the tree. */
	if (!slab_geometry_of((void *)b->start, &g))
		return memleak_tree_insert(b);
	if (e->shape == SHAPE_TREE)
		return -EEXIST;
	return insert_in_slab(b, new_slots(&g));
}

struct memleak_block *memleak_index_remove(unsigned long start)
{
	struct page_entry *e = entry_of(start);
	struct memleak_block *b;

	if (e && is_slab_shape(e->shape))
		return remove_from_slab(slots_of_entry(e), start);
	b = memleak_tree_find(start);
	if (!b || b->start != start)
		return NULL;
	memleak_tree_remove(b);
	return b;
}
