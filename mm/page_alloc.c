/*
 * The buddy page allocator. Free memory is kept as naturally aligned
 * blocks of 2^order pages, one free list per order. Allocation splits
 * the smallest free block that fits, putting the unused halves back;
 * freeing merges a block with its buddy (the other half of the block
 * they were split from) for as long as the buddy is free too, so free
 * blocks are always as large as they can be.
 *
 * With CONFIG_PAGE_POISON a freed page is filled with the free poison
 * byte, and checked when it is handed out again: a changed byte means
 * someone wrote to it after freeing it. New pages get the allocation
 * poison, so reads of memory nobody initialised stand out too. Pages
 * never allocated since boot carry no poison (PG_poisoned tells).
 *
 * Locking: zone_lock (taken with interrupts off) guards the free lists
 * and the PG_buddy and order fields of free pages. An allocated block
 * belongs to its owner; its refcount changes atomically.
 */
#include <kernel/mm.h>
#include <kernel/alloc_entry.h>
#include <kernel/memblock.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>

struct page *mem_map;
unsigned long min_pfn, max_pfn;

struct free_area {
	struct list_head list;
	unsigned long nr;	/* blocks on the list */
};

static struct free_area free_area[MAX_ORDER];
static struct spinlock zone_lock = SPINLOCK_INIT;
/* Pages only __GFP_HIGH allocations may take. */
static unsigned long atomic_reserve;
static long page_states[NR_PAGE_STATES];
static unsigned long error_count;

/* Keep 1/64 of RAM, at most 512 KiB, for atomic callers. */
#define RESERVE_DIVISOR 64
#define RESERVE_MAX_PAGES 128

void mod_page_state(enum page_state item, long delta)
{
	if ((unsigned int)item >= NR_PAGE_STATES) {
		mm_report("mod_page_state: no page state %d", (int)item);
		return;
	}
	__atomic_add_fetch(&page_states[item], delta, __ATOMIC_RELAXED);
}

unsigned long page_state(enum page_state item)
{
	long value;

	if ((unsigned int)item >= NR_PAGE_STATES)
		return 0;
	value = __atomic_load_n(&page_states[item], __ATOMIC_RELAXED);
	return value < 0 ? 0 : (unsigned long)value;
}

unsigned long nr_free_pages(void)
{
	return page_state(NR_FREE_PAGES);
}

unsigned long mm_errors(void)
{
	return __atomic_load_n(&error_count, __ATOMIC_RELAXED);
}

void mm_report(const char *fmt, ...)
{
	va_list ap;

	__atomic_add_fetch(&error_count, 1, __ATOMIC_RELAXED);
	printk("warning: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
}

static unsigned long page_addr(const struct page *page)
{
	return (unsigned long)page_address(page);
}

/* ---------------------------------------------------------- poisoning */

#ifdef CONFIG_PAGE_POISON
#define POISON_FREE ((unsigned char)CONFIG_PAGE_POISON_FREE)
#define POISON_ALLOC ((unsigned char)CONFIG_PAGE_POISON_ALLOC)

static void poison_block(struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < 1UL << order; i++) {
		memset(page_address(page + i), POISON_FREE, PAGE_SIZE);
		page[i].flags |= PG_poisoned;
	}
}

/* Reports the first byte of a free page that lost its poison. */
static void check_page_poison(struct page *page)
{
	const unsigned long pattern = POISON_FREE * (~0UL / 0xff);
	const unsigned long *word = page_address(page);
	const unsigned char *byte = page_address(page);
	unsigned long i = 0;

	while (i < PAGE_SIZE / sizeof(long) && word[i] == pattern)
		i++;
	if (i == PAGE_SIZE / sizeof(long))
		return;
	i *= sizeof(long);
	while (byte[i] == POISON_FREE)
		i++;
	mm_report("page 0x%lx modified after free at offset %lu (0x%02x, free poison 0x%02x)",
		  page_addr(page), i, byte[i], POISON_FREE);
}

static void unpoison_block(struct page *page, unsigned int order)
{
	for (unsigned long i = 0; i < 1UL << order; i++) {
		if (page[i].flags & PG_poisoned) {
			check_page_poison(page + i);
			page[i].flags &= ~PG_poisoned;
		}
	}
}
#else
#define POISON_ALLOC 0
static void poison_block(struct page *page, unsigned int order)
{
	(void)page, (void)order;
}

static void unpoison_block(struct page *page, unsigned int order)
{
	(void)page, (void)order;
}
#endif

/* ---------------------------------------------------------- free lists */

static void add_free(struct page *page, unsigned int order)
{
	page->flags |= PG_buddy;
	page->order = order;
	list_add(&page->lru, &free_area[order].list);
	free_area[order].nr++;
}

static void del_free(struct page *page, unsigned int order)
{
	list_del(&page->lru);
	page->flags &= ~PG_buddy;
	free_area[order].nr--;
}

/* Takes a block of this order, splitting a larger one if need be. */
static struct page *take_block(unsigned int order)
{
	for (unsigned int o = order; o < MAX_ORDER; o++) {
		struct page *page;

		if (list_empty(&free_area[o].list))
			continue;
		page = list_first_entry(&free_area[o].list, struct page, lru);
		del_free(page, o);
		while (o > order) {
			o--;
			add_free(page + (1UL << o), o);
		}
		return page;
	}
	return NULL;
}

/* Puts a block back, merged with its buddies as far as they are free. */
static void merge_free(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);

	while (order < MAX_ORDER - 1) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy;

		if (!pfn_valid(buddy_pfn))
			break;
		buddy = pfn_to_page(buddy_pfn);
		if (!(buddy->flags & PG_buddy) || buddy->order != order)
			break;
		del_free(buddy, order);
		pfn &= ~(1UL << order);
		order++;
	}
	add_free(pfn_to_page(pfn), order);
}

unsigned long buddy_free_blocks(unsigned int order)
{
	unsigned long flags, nr;

	if (order >= MAX_ORDER)
		return 0;
	flags = spin_lock_irqsave(&zone_lock);
	nr = free_area[order].nr;
	spin_unlock_irqrestore(&zone_lock, flags);
	return nr;
}

/* ---------------------------------------------------------- allocation */

static bool may_take(unsigned int gfp, unsigned int order)
{
	unsigned long keep = (gfp & __GFP_HIGH) ? 0 : atomic_reserve;

	return nr_free_pages() >= (1UL << order) + keep;
}

static void prep_new_block(struct page *page, unsigned int order,
			   unsigned int gfp)
{
	unpoison_block(page, order);
	page->flags |= PG_head;
	page->order = order;
	page->refcount = 1;
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
	else if (POISON_ALLOC)
		memset(page_address(page), POISON_ALLOC, PAGE_SIZE << order);
}

__alloc_entry struct page *alloc_pages(unsigned int gfp, unsigned int order)
{
	struct page *page = NULL;
	unsigned long flags;

	if (order >= MAX_ORDER) {
		if (!(gfp & __GFP_NOWARN))
			printk("alloc_pages: order %u is above the largest, %u\n",
			       order, MAX_ORDER - 1);
		return NULL;
	}
	flags = spin_lock_irqsave(&zone_lock);
	if (may_take(gfp, order))
		page = take_block(order);
	if (page)
		mod_page_state(NR_FREE_PAGES, -(1L << order));
	spin_unlock_irqrestore(&zone_lock, flags);
	if (!page) {
		if (!(gfp & __GFP_NOWARN))
			printk("alloc_pages: out of memory (order %u, %lu pages free)\n",
			       order, nr_free_pages());
		return NULL;
	}
	prep_new_block(page, order, gfp);
	return page;
}

__alloc_entry unsigned long __get_free_pages(unsigned int gfp,
					 unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? page_addr(page) : 0;
}

__alloc_entry unsigned long get_free_page(unsigned int gfp)
{
	return __get_free_pages(gfp, 0);
}

/* ---------------------------------------------------------- freeing */

static bool page_in_map(const struct page *page)
{
	return page >= mem_map && page < mem_map + (max_pfn - min_pfn);
}

/* Says what is wrong with freeing this block, or NULL when nothing is. */
static const char *bad_free_reason(const struct page *page, unsigned int order)
{
	unsigned int flags = page->flags;

	if (order >= MAX_ORDER)
		return "order too large";
	if (page_to_pfn(page) & ((1UL << order) - 1))
		return "not aligned to the order";
	if (flags & PG_reserved)
		return "reserved page, never allocated";
	if (flags & (PG_buddy | PG_poisoned))
		return "double free: the page is free";
	if (!(flags & PG_head))
		return "not the first page of an allocated block";
	if (page->order != order)
		return "freed with another order than it was allocated with";
	if (flags & PG_slab)
		return "a slab page: free its objects with kmem_cache_free";
	if (flags & PG_kmalloc)
		return "a kmalloc block: use kfree";
	return NULL;
}

/* Drops one reference; true when it was the last. */
static bool put_ref(struct page *page, unsigned int order)
{
	short ref = __atomic_load_n(&page->refcount, __ATOMIC_RELAXED);

	do {
		if (ref <= 0) {
			mm_report("free_pages: page 0x%lx (order %u): double free",
				  page_addr(page), order);
			return false;
		}
	} while (!__atomic_compare_exchange_n(&page->refcount, &ref, ref - 1,
					      false, __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	return ref == 1;
}

void __free_pages(struct page *page, unsigned int order)
{
	const char *why;
	unsigned long flags;

	if (!page || !page_in_map(page)) {
		mm_report("free_pages: %p is not a struct page of RAM", page);
		return;
	}
	why = bad_free_reason(page, order);
	if (why) {
		mm_report("free_pages: page 0x%lx (order %u): %s", page_addr(page),
			  order, why);
		if (page->flags & PG_head)
			printk("  (allocated with order %u)\n", page->order);
		return;
	}
	if (!put_ref(page, order))
		return;
	page->flags &= ~PG_head;
	poison_block(page, order);
	flags = spin_lock_irqsave(&zone_lock);
	merge_free(page, order);
	mod_page_state(NR_FREE_PAGES, 1L << order);
	spin_unlock_irqrestore(&zone_lock, flags);
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr == 0)
		return;
	if (addr & ~PAGE_MASK) {
		mm_report("free_pages: 0x%lx is not page aligned", addr);
		return;
	}
	if (!virt_addr_valid((void *)addr)) {
		mm_report("free_pages: 0x%lx is not in RAM", addr);
		return;
	}
	__free_pages(virt_to_page((void *)addr), order);
}

void free_page(unsigned long addr)
{
	free_pages(addr, 0);
}

void get_page(struct page *page)
{
	if (!page || !page_in_map(page) || !(page->flags & PG_head)) {
		mm_report("get_page: %p is not an allocated block", page);
		return;
	}
	__atomic_add_fetch(&page->refcount, 1, __ATOMIC_RELAXED);
}

/*
 * Freed __init memory is filled with this byte instead of the free
 * poison: 0xff 0xff is FF /7, an invalid opcode on i386, and 0xffffffff
 * is an undefined instruction on ARM, so a stray call into freed init
 * code traps at once rather than running whatever the bytes mean.
 */
#define INIT_POISON 0xff

static unsigned long initmem_freed;

/*
 * Puts one reserved page on the free lists with the contents it has:
 * no PG_poisoned, so whoever takes it first is not told that it was
 * "modified after free".
 */
static void release_unpoisoned(struct page *page)
{
	unsigned long flags;

	page->flags = 0;
	page->order = 0;
	page->refcount = 0;
	flags = spin_lock_irqsave(&zone_lock);
	merge_free(page, 0);
	mod_page_state(NR_FREE_PAGES, 1);
	spin_unlock_irqrestore(&zone_lock, flags);
}

/* Frees the whole reserved pages of [start, end); poison < 0: the usual way. */
static unsigned long release_reserved(void *start, void *end, int poison)
{
	unsigned long pfn = (__pa(start) + PAGE_SIZE - 1) >> PAGE_SHIFT;
	unsigned long end_pfn = __pa(end) >> PAGE_SHIFT;
	unsigned long freed = 0;

	for (; pfn < end_pfn; pfn++) {
		struct page *page;

		if (!pfn_valid(pfn) || !(pfn_to_page(pfn)->flags & PG_reserved)) {
			mm_report("free_reserved_area: page 0x%lx is not reserved RAM",
				  pfn << PAGE_SHIFT);
			continue;
		}
		page = pfn_to_page(pfn);
		if (poison >= 0) {
			memset(page_address(page), poison, PAGE_SIZE);
			release_unpoisoned(page);
		} else {
			page->flags = PG_head;
			page->order = 0;
			page->refcount = 1;
			__free_pages(page, 0);
		}
		mod_page_state(NR_BOOT_PAGES, -1);
		freed++;
	}
	return freed;
}

unsigned long free_reserved_area(void *start, void *end)
{
	return release_reserved(start, end, -1);
}

void free_initmem(void)
{
	static bool done;

	if (done)
		return;
	done = true;
#ifdef CONFIG_DEBUG_KEEP_INIT
	printk("mm: keeping the __init code and data (DEBUG_KEEP_INIT)\n");
#else
	initmem_freed = release_reserved(__init_begin, __init_end, INIT_POISON);
	printk("mm: freed %lu KiB of __init code and data\n",
	       initmem_freed * (PAGE_SIZE / 1024));
#endif
}

unsigned long initmem_freed_pages(void)
{
	return initmem_freed;
}

/* ---------------------------------------------------------- boot */

/* The pfns of whole pages inside RAM, lowest and one past the highest. */
static void __init find_pfn_range(void)
{
	const struct memblock_type *mem = &memblock_memory;
	const struct memblock_region *last;

	if (mem->cnt == 0)
		panic("mm: no RAM");
	last = &mem->regions[mem->cnt - 1];
	min_pfn = (unsigned long)((mem->regions[0].base + PAGE_SIZE - 1) >> PAGE_SHIFT);
	max_pfn = (unsigned long)((last->base + last->size) >> PAGE_SHIFT);
}

static unsigned long __init count_ram_pages(void)
{
	unsigned long pages = 0;

	for (int i = 0; i < memblock_memory.cnt; i++) {
		const struct memblock_region *r = &memblock_memory.regions[i];
		phys_addr_t start = ALIGN(r->base, PAGE_SIZE);
		phys_addr_t end = ALIGN_DOWN(r->base + r->size, PAGE_SIZE);

		if (end > start)
			pages += (unsigned long)((end - start) >> PAGE_SHIFT);
	}
	return pages;
}

/* Gives one free range to the buddy allocator in the largest blocks it can. */
static void __init free_boot_range(phys_addr_t base, phys_addr_t end, void *arg)
{
	unsigned long pfn = (unsigned long)((base + PAGE_SIZE - 1) >> PAGE_SHIFT);
	unsigned long end_pfn = (unsigned long)(end >> PAGE_SHIFT);
	unsigned long *freed = arg;

	while (pfn < end_pfn) {
		unsigned int order = 0;

		while (order < MAX_ORDER - 1 && !(pfn & (1UL << order)) &&
		       pfn + (2UL << order) <= end_pfn)
			order++;
		for (unsigned long i = 0; i < 1UL << order; i++)
			pfn_to_page(pfn + i)->flags = 0;
		merge_free(pfn_to_page(pfn), order);
		*freed += 1UL << order;
		pfn += 1UL << order;
	}
}

void __init page_alloc_init(void)
{
	unsigned long pages, freed = 0, ram;

	find_pfn_range();
	pages = max_pfn - min_pfn;
	mem_map = memblock_alloc(pages * sizeof(struct page), 64);
	if (!mem_map)
		panic("mm: no memory for the page array (%lu pages)", pages);
	for (unsigned long i = 0; i < pages; i++)
		mem_map[i].flags = PG_reserved;
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		INIT_LIST_HEAD(&free_area[o].list);
		free_area[o].nr = 0;
	}
	spin_lock_init(&zone_lock);
	memset(page_states, 0, sizeof(page_states));
	memblock_for_each_free(free_boot_range, &freed);
	memblock_retire();
	ram = count_ram_pages();
	page_states[NR_RAM_PAGES] = ram;
	page_states[NR_FREE_PAGES] = freed;
	page_states[NR_BOOT_PAGES] = ram - freed;
	atomic_reserve = min(freed / RESERVE_DIVISOR, (unsigned long)RESERVE_MAX_PAGES);
}
