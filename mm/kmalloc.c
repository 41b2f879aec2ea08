/*
 * kmalloc: general-purpose allocation on top of the slab caches. Sizes
 * up to 128 KiB round up to one of 17 classes, each a cache
 * ("kmalloc-N"); larger requests get whole pages from the buddy
 * allocator, marked PG_kmalloc in their first struct page so kfree()
 * and ksize() recognise them. kfree() tells the two apart by the flags
 * of the page the pointer is in.
 *
 * Memory is 8-byte aligned; power-of-two sizes are naturally aligned
 * when there are no red zones. No lock of its own.
 */
#include <kernel/slab.h>
#include <kernel/alloc_entry.h>
#include <kernel/mm.h>
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/export.h>

#define KMALLOC_ALIGN 8
/* Sizes up to this use the lookup table, larger ones the bit width. */
#define SMALL_MAX 192

static const unsigned int class_size[KMALLOC_NR_CLASSES] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096,
	8192, 16384, 32768, 65536, 131072,
};

/* The class of sizes 1..192, indexed by (size - 1) / 8. */
static const unsigned char small_class[SMALL_MAX / 8] = {
	0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
	5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6,
};

static struct kmem_cache *kmalloc_caches[KMALLOC_NR_CLASSES];

/* Index of the class for 1 <= size <= KMALLOC_MAX_CACHE_SIZE. */
static inline unsigned int class_index(size_t size)
{
	if (size <= SMALL_MAX)
		return small_class[(size - 1) >> 3];
	/* 256 is class 7, 512 class 8, ...: the bit width of size - 1, less 1. */
	return (unsigned int)(sizeof(long) * 8 - __builtin_clzl(size - 1)) - 1;
}

size_t kmalloc_size_class(size_t size)
{
	if (size == 0 || size > KMALLOC_MAX_CACHE_SIZE)
		return 0;
	return class_size[class_index(size)];
}

struct kmem_cache *kmalloc_cache(size_t size)
{
	if (size == 0 || size > KMALLOC_MAX_CACHE_SIZE)
		return NULL;
	return kmalloc_caches[class_index(size)];
}

/* Whole pages for a block above the largest class. */
static __alloc_entry void *kmalloc_large(size_t size, unsigned int gfp)
{
	unsigned int order = get_order(size);
	struct page *page;

	if (order >= MAX_ORDER) {
		if (!(gfp & __GFP_NOWARN))
			printk("kmalloc: %zu bytes is more than the largest block (%lu)\n",
			       size, PAGE_SIZE << (MAX_ORDER - 1));
		return NULL;
	}
	page = alloc_pages(gfp, order);
	if (!page)
		return NULL;
	page->flags |= PG_kmalloc;
	mod_page_state(NR_KMALLOC_LARGE_PAGES, 1L << order);
	return page_address(page);
}

/* Leak collector hook: every large kmalloc block is freed here. */
static void kfree_large(struct page *page)
{
	unsigned int order = page->order;

	memleak_free(page_address(page));
	page->flags &= ~PG_kmalloc;
	mod_page_state(NR_KMALLOC_LARGE_PAGES, -(1L << order));
	__free_pages(page, order);
}

/* A kmalloc block the collector is not told of (ZERO_SIZE_PTR for 0). */
static __always_inline void *kmalloc_untracked(size_t size, unsigned int gfp)
{
	if (likely(size - 1 < KMALLOC_MAX_CACHE_SIZE))
		return kmem_cache_alloc_untracked(
			kmalloc_caches[class_index(size)], gfp);
	if (size == 0)
		return ZERO_SIZE_PTR;
	return kmalloc_large(size, gfp);
}

/*
 * Leak collector hooks: every kmalloc block, small or large, with the
 * size asked for; in the entry points, so that the backtrace starts at
 * the caller.
 */
__alloc_entry void *kmalloc(size_t size, unsigned int gfp)
{
	void *p = kmalloc_untracked(size, gfp);

	if (likely(p != ZERO_SIZE_PTR))
		memleak_alloc(p, size, 1);
	return p;
}
EXPORT_SYMBOL(kmalloc);

__alloc_entry void *kmalloc_typed(size_t size, unsigned int gfp,
				  const struct memleak_type *type)
{
	void *p = kmalloc_untracked(size, gfp);

	if (likely(p != ZERO_SIZE_PTR))
		memleak_alloc_typed(p, size, 1, type);
	return p;
}
EXPORT_SYMBOL(kmalloc_typed);

__alloc_entry void *kzalloc(size_t size, unsigned int gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}
EXPORT_SYMBOL(kzalloc);

__alloc_entry void *kcalloc(size_t n, size_t size, unsigned int gfp)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes)) {
		if (!(gfp & __GFP_NOWARN))
			printk("kcalloc: %zu * %zu bytes overflows\n", n, size);
		return NULL;
	}
	return kmalloc(bytes, gfp | __GFP_ZERO);
}
EXPORT_SYMBOL(kcalloc);

/* The page a kmalloc pointer lives in, or NULL (reported) for a bad pointer. */
static struct page *kmalloc_page(const void *p, const char *who)
{
	if (!virt_addr_valid(p)) {
		mm_report("%s of %p: not in RAM, not a kmalloc block", who, p);
		return NULL;
	}
	return virt_to_page(p);
}

static bool is_large_block(const struct page *page, const void *p)
{
	return (page->flags & PG_kmalloc) && p == page_address(page);
}

void kfree(const void *p)
{
	struct page *page;

	if (unlikely(ZERO_OR_NULL_PTR(p)))
		return;
	page = kmalloc_page(p, "kfree");
	if (unlikely(!page))
		return;
	if (likely(page->flags & PG_slab)) {
		struct page *head = (page->flags & PG_head) ? page : page->head;

		slab_free(head->slab_cache, head, (void *)p, "kfree");
	} else if (is_large_block(page, p)) {
		kfree_large(page);
	} else {
		mm_report("kfree of %p: not a live kmalloc block (free, or inside one)",
			  p);
	}
}
EXPORT_SYMBOL(kfree);

/* The usable size of a live block, or 0 (reported). */
static size_t block_size(const void *p, const char *who)
{
	struct page *page = kmalloc_page(p, who);
	struct kmem_cache *c;

	if (!page)
		return 0;
	if (is_large_block(page, p))
		return PAGE_SIZE << page->order;
	c = slab_cache_of(page);
	if (!c || !slab_object_live(c, page, p)) {
		mm_report("%s of %p: not the start of a live kmalloc block", who, p);
		return 0;
	}
	return c->object_size;
}

size_t ksize(const void *p)
{
	if (ZERO_OR_NULL_PTR(p))
		return 0;
	return block_size(p, "ksize");
}
EXPORT_SYMBOL(ksize);

/* What kmalloc(size) would give: the class, or whole pages. */
static size_t rounded_size(size_t size)
{
	if (size <= KMALLOC_MAX_CACHE_SIZE)
		return kmalloc_size_class(size);
	return PAGE_SIZE << get_order(size);
}

__alloc_entry void *krealloc(const void *p, size_t size, unsigned int gfp)
{
	size_t old;
	void *new;

	if (ZERO_OR_NULL_PTR(p))
		return kmalloc(size, gfp);
	if (size == 0) {
		kfree(p);
		return ZERO_SIZE_PTR;
	}
	old = block_size(p, "krealloc");
	if (!old)
		return NULL;
	/* Same block size: nothing to move (shrinking a lot does move). */
	if (size <= old && rounded_size(size) == old)
		return (void *)p;
	new = kmalloc(size, gfp);
	if (!new)
		return NULL;
	memcpy(new, p, min(old, size));
	kfree(p);
	return new;
}
EXPORT_SYMBOL(krealloc);

void __init kmalloc_init(void)
{
	char name[SLAB_NAME_LEN];

	for (int i = 0; i < KMALLOC_NR_CLASSES; i++) {
		snprintf(name, sizeof(name), "kmalloc-%u", class_size[i]);
		kmalloc_caches[i] = kmem_cache_create(name, class_size[i],
						      KMALLOC_ALIGN, SLAB_KMALLOC,
						      NULL);
		if (!kmalloc_caches[i])
			panic("kmalloc: cannot create cache %s", name);
	}
}
