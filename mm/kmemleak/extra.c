/*
 * The rare parts of a tracked block, kept out of struct memleak_block so
 * that the many blocks without them do not pay for them: the scan areas
 * memleak_scan_area() gives a block, and where its object starts and its
 * size after memleak_padding(). A block that has either carries
 * MEMLEAK_EXTRA, and its record sits in a small hash table by block
 * address; every other block answers "no areas, no padding" from its
 * flags alone.
 *
 * A record goes with its block: memleak_free_extra() takes it from the
 * block when the block is freed, but while the collector is pinned it
 * keeps the memory until the last unpin, as index.c keeps the blocks':
 * a scan reading a block's areas across windows must not find them
 * freed, whatever took the block's record meanwhile.
 *
 * Locking: memleak_lock, for every function here.
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/slab.h>
#include "internal.h"

struct memleak_extra {
	struct memleak_extra *next;		/* in its bucket */
	const struct memleak_block *block;
	struct memleak_scan_area *areas;	/* newest first */
	unsigned long pad_offset;
	size_t object_size;			/* 0: the block's size */
};

#define EXTRA_HASH_BITS 6
static struct memleak_extra *extra_table[1 << EXTRA_HASH_BITS];
static struct kmem_cache *extra_cache, *area_cache;
/* Taken from their blocks while pinned: freed at the unpin. */
static struct memleak_extra *retired_extras;

int memleak_extra_init(void)
{
	extra_cache = kmem_cache_create("memleak_extra",
					sizeof(struct memleak_extra), 0,
					SLAB_NOLEAKTRACE, NULL);
	area_cache = kmem_cache_create("memleak_scan_area",
				       sizeof(struct memleak_scan_area), 0,
				       SLAB_NOLEAKTRACE, NULL);
	return extra_cache && area_cache ? 0 : -ENOMEM;
}

unsigned long memleak_extra_pages(void)
{
	return memleak_cache_pages(extra_cache) +
	       memleak_cache_pages(area_cache);
}

/* Multiplicative hashing: the top bits of the address times 2^32 / phi. */
static struct memleak_extra **bucket_of(const struct memleak_block *b)
{
	u32 h = (u32)((unsigned long)b / sizeof(long)) * 0x9e3779b9u;

	return &extra_table[h >> (32 - EXTRA_HASH_BITS)];
}

static struct memleak_extra *find_extra(const struct memleak_block *b)
{
	struct memleak_extra *x = *bucket_of(b);

	while (x && x->block != b)
		x = x->next;
	return x;
}

/* b's record, made if it has none yet; NULL when out of memory. */
static struct memleak_extra *get_extra(struct memleak_block *b)
{
	struct memleak_extra **bucket = bucket_of(b), *x;

	if (b->flags & MEMLEAK_EXTRA)
		return find_extra(b);
	x = kmem_cache_alloc(extra_cache, GFP_ATOMIC);
	if (!x)
		return NULL;
	*x = (struct memleak_extra){ .next = *bucket, .block = b };
	*bucket = x;
	b->flags |= MEMLEAK_EXTRA;
	return x;
}

unsigned long memleak_extra_pad_offset(const struct memleak_block *b)
{
	return find_extra(b)->pad_offset;
}

size_t memleak_extra_object_size(const struct memleak_block *b)
{
	size_t size = find_extra(b)->object_size;

	return size ? size : block_size(b);
}

const struct memleak_scan_area *
memleak_extra_scan_areas(const struct memleak_block *b)
{
	return find_extra(b)->areas;
}

int memleak_set_padding(struct memleak_block *b, unsigned long offset,
			size_t size)
{
	struct memleak_extra *x;

	if (!offset && size == block_size(b) && !(b->flags & MEMLEAK_EXTRA))
		return 0;
	x = get_extra(b);
	if (!x)
		return -ENOMEM;
	x->pad_offset = offset;
	x->object_size = size;
	return 0;
}

int memleak_add_scan_area(struct memleak_block *b, unsigned long offset,
			  size_t length)
{
	struct memleak_scan_area *area = kmem_cache_alloc(area_cache,
							  GFP_ATOMIC);
	struct memleak_extra *x = area ? get_extra(b) : NULL;

	if (!x) {
		if (area)
			kmem_cache_free(area_cache, area);
		return -ENOMEM;
	}
	*area = (struct memleak_scan_area){ x->areas, offset, length };
	x->areas = area;
	return 0;
}

static void destroy_extra(struct memleak_extra *x)
{
	struct memleak_scan_area *area;

	while ((area = x->areas)) {
		x->areas = area->next;
		kmem_cache_free(area_cache, area);
	}
	kmem_cache_free(extra_cache, x);
}

void memleak_free_extra(struct memleak_block *b)
{
	struct memleak_extra **link = bucket_of(b), *x;

	while (*link && (*link)->block != b)
		link = &(*link)->next;
	x = *link;
	*link = x->next;
	b->flags &= ~MEMLEAK_EXTRA;
	if (!memleak.pins) {
		destroy_extra(x);
		return;
	}
	x->block = NULL;
	x->next = retired_extras;
	retired_extras = x;
	memleak.nr_retired++;
}

unsigned int memleak_extra_free_retired(unsigned int n)
{
	struct memleak_extra *x;
	unsigned int done = 0;

	for (; done < n && (x = retired_extras); done++) {
		retired_extras = x->next;
		destroy_extra(x);
	}
	return done;
}
