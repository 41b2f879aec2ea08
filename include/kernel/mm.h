/*
 * Physical memory: one struct page per page frame (the mem_map array),
 * the buddy page allocator, the page-state counters and mm_init(), which
 * brings up the whole stack: boot allocator, buddy, slab, kmalloc.
 * docs/mm.md describes the design.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/gfp.h>
/* <asm/page.h>: PAGE_SIZE, __pa()/__va(), the arch's memory layout. */
#include <asm/page.h>

/* Orders 0..MAX_ORDER-1: the largest block is 4 MiB. */
#define MAX_ORDER 11

/* struct page flags */
#define PG_reserved	0x01u	/* not the page allocator's: boot memory, holes */
#define PG_buddy	0x02u	/* first page of a free block of `order` */
#define PG_head		0x04u	/* first page of an allocated block of `order` */
#define PG_slab		0x08u	/* belongs to a slab (the first page also has PG_head) */
#define PG_kmalloc	0x10u	/* first page of a large kmalloc block */
#define PG_poisoned	0x20u	/* free and filled with the free poison */

struct kmem_cache;

/* The kernel image and its __init part (linker script symbols). */
extern char __kernel_start[], __kernel_end[];
extern char __init_begin[], __init_end[];

/*
 * 24 bytes on 32-bit machines (40 on a 64-bit host): 0.6% of RAM.
 * Pages inside a block (all but the first) carry no state of their
 * own, except slab pages, which point back at their first page. (The
 * leak collector keeps its own table of pages: mm/kmemleak/index.c.)
 */
struct page {
	unsigned short flags;		/* PG_* */
	unsigned short order;		/* of the block this page starts */
	unsigned short inuse;		/* slab: objects out of this slab */
	short refcount;			/* allocated block: its users; free: 0 */
	struct list_head lru;		/* buddy free list, or a cache's slab list */
	union {
		struct {		/* first page of a slab */
			struct kmem_cache *slab_cache;
			void *freelist;	/* first free object, or NULL */
		};
		struct page *head;	/* other slab pages: the first one */
	};
};

/*
 * The page array: mem_map[i] describes page frame min_pfn + i; it covers
 * every pfn in [min_pfn, max_pfn) (max_pfn is one past the last). Holes
 * in RAM have entries marked PG_reserved.
 */
extern struct page *mem_map;
extern unsigned long min_pfn, max_pfn;

static inline bool pfn_valid(unsigned long pfn)
{
	return pfn >= min_pfn && pfn < max_pfn;
}

static inline struct page *pfn_to_page(unsigned long pfn)
{
	return mem_map + (pfn - min_pfn);
}

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mem_map) + min_pfn;
}

static inline phys_addr_t page_to_phys(const struct page *page)
{
	return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT;
}

static inline struct page *phys_to_page(phys_addr_t phys)
{
	return pfn_to_page((unsigned long)(phys >> PAGE_SHIFT));
}

static inline struct page *virt_to_page(const void *addr)
{
	return pfn_to_page(__pa(addr) >> PAGE_SHIFT);
}

static inline void *page_address(const struct page *page)
{
	return __va(page_to_phys(page));
}

/* True when addr lies in RAM that has a struct page (the linear map). */
static inline bool virt_addr_valid(const void *addr)
{
	return pfn_valid(__pa(addr) >> PAGE_SHIFT);
}

/* The smallest order whose block holds size bytes (size > 0). */
static inline unsigned int get_order(unsigned long size)
{
	unsigned int order = 0;

	size = (size - 1) >> PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}

/*
 * The buddy allocator. alloc_pages() returns 2^order contiguous pages
 * (NULL when none are free, with a message unless __GFP_NOWARN); the
 * block must go back with the same order. Without __GFP_HIGH an
 * allocation leaves a small reserve untouched for atomic callers.
 * Bad frees (not allocated, double, wrong order, unaligned, not RAM)
 * are reported and ignored.
 */
struct page *alloc_pages(unsigned int gfp, unsigned int order);
void __free_pages(struct page *page, unsigned int order);
unsigned long __get_free_pages(unsigned int gfp, unsigned int order);
void free_pages(unsigned long addr, unsigned int order);
unsigned long get_free_page(unsigned int gfp);
void free_page(unsigned long addr);
unsigned long nr_free_pages(void);

/* Another user of an allocated block; __free_pages() drops one. */
void get_page(struct page *page);

/* Free blocks of one order now (tests cross-check the free lists). */
unsigned long buddy_free_blocks(unsigned int order);

/*
 * Gives reserved (boot) memory [start, end) to the page allocator,
 * whole pages only; returns the number of pages freed.
 */
unsigned long free_reserved_area(void *start, void *end);

/*
 * Frees the __init sections unless CONFIG_DEBUG_KEEP_INIT; to be called
 * once, after the last initcall has run and every CPU is up. The pages
 * are filled with an undefined instruction (a stray call traps).
 */
void free_initmem(void);
/* How many pages free_initmem() gave back (0 with DEBUG_KEEP_INIT). */
unsigned long initmem_freed_pages(void);

/* What the pages of RAM are used for, in pages. */
enum page_state {
	NR_RAM_PAGES,		/* RAM the kernel manages or reserved */
	NR_FREE_PAGES,		/* in the buddy allocator */
	NR_SLAB_PAGES,		/* slabs of every cache */
	NR_KMALLOC_LARGE_PAGES,	/* kmalloc blocks above the largest class */
	NR_VMALLOC_PAGES,	/* backing vmalloc areas */
	NR_PAGETABLE_PAGES,	/* page tables */
	NR_BOOT_PAGES,		/* kept at boot: kernel image, mem_map, ... */
	NR_PAGE_STATES
};

void mod_page_state(enum page_state item, long delta);
unsigned long page_state(enum page_state item);

/*
 * Allocator misuse and damage reported so far (bad frees, double frees,
 * poison or red zones overwritten). Each report prints a warning;
 * tests compare the count before and after.
 */
unsigned long mm_errors(void);
/* For mm/: prints "warning: " and the message, and counts it. */
void mm_report(const char *fmt, ...) __printf(1, 2);

/*
 * Brings up memory management from boot_info: the boot allocator, the
 * page array, the buddy allocator, then slab and kmalloc.
 */
void mm_init(void);

/* Steps of mm_init() in mm/ (the host tests call them too). */
void page_alloc_init(void);
void kmem_cache_init(void);
void kmalloc_init(void);

#endif
