/*
 * Self-tests of the page tables and vmalloc: map, walk and unmap by
 * hand; areas bigger than any free physical block; guard pages; bad
 * vfree()s; and the free-page count coming back (xv6's countfree idea)
 * after every allocation, including ones that fail halfway.
 */
#include <kernel/memleak.h>
#include <kernel/kernel.h>
#include <kernel/errno.h>
#include <kernel/gfp.h>
#include <kernel/ktest.h>
#include <kernel/mm.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/vmalloc.h>
#include <kernel/mmu.h>

#define PROBE_MAX_ORDER 20	/* 4 GiB: more than any RAM we boot with */
#define SPAN_SIZE (4UL << 20)	/* what one page-table page covers */

extern char __text_start[], __text_end[];

/*
 * Free pages once empty slabs are given back, the leak collector's
 * metadata counted as free: what a background scan allocates meanwhile
 * does not move it.
 */
static unsigned long settled_free(void)
{
	slab_shrink_all();
	return memleak_nr_free_pages();
}

static bool walk_is(unsigned long virt, phys_addr_t phys)
{
	return virt_to_phys_walk(virt) == phys;
}

static bool unmapped(unsigned long virt)
{
	return virt_to_phys_walk(virt) == PHYS_ADDR_INVALID;
}

static void test_map_walk_unmap(struct ktest *t)
{
	struct vm_struct *area = get_vm_area(2 * PAGE_SIZE);
	unsigned long page = get_free_page(GFP_KERNEL | __GFP_ZERO);
	unsigned long va;
	phys_addr_t pa;

	KEXPECT(t, area && page);
	if (!area || !page)
		goto out;
	va = (unsigned long)area->addr;
	pa = __pa(page);
	KEXPECT(t, unmapped(va));
	KEXPECT_EQ(t, map_pages(va, pa, 1, MAP_KERNEL_RW), 0);
	KEXPECT(t, walk_is(va, pa));
	KEXPECT(t, walk_is(va + 123, pa + 123));
	KEXPECT(t, unmapped(va + PAGE_SIZE));
	/* One physical page, two virtual addresses: same bytes. */
	*(volatile u32 *)(va + 8) = 0xfeedf00d;
	KEXPECT_EQ(t, ((volatile u32 *)page)[2], 0xfeedf00d);
	KEXPECT_EQ(t, map_pages(va, pa, 1, MAP_KERNEL_RW), -EEXIST);
	unmap_pages(va, 1);
	KEXPECT(t, unmapped(va));
	/* The same address again maps and translates anew (no stale TLB). */
	KEXPECT_EQ(t, map_pages(va + PAGE_SIZE, pa, 1, MAP_KERNEL_RO), 0);
	KEXPECT_EQ(t, *(volatile u32 *)(va + PAGE_SIZE + 8), 0xfeedf00d);
	unmap_pages(va + PAGE_SIZE, 1);
	KEXPECT(t, unmapped(va + PAGE_SIZE));
out:
	if (page)
		free_page(page);
	if (area)
		free_vm_area(area);
}

static void test_map_bad_arguments(struct ktest *t)
{
	unsigned long page = get_free_page(GFP_KERNEL);
	struct vm_struct *area = get_vm_area(PAGE_SIZE);

	KEXPECT(t, area && page);
	if (!area || !page)
		goto out;
	KEXPECT_EQ(t, map_pages((unsigned long)area->addr + 1, __pa(page), 1,
				MAP_KERNEL_RW), -EINVAL);
	KEXPECT_EQ(t, map_pages((unsigned long)area->addr, __pa(page) + 4, 1,
				MAP_KERNEL_RW), -EINVAL);
	KEXPECT_EQ(t, map_pages((unsigned long)area->addr, __pa(page), 0,
				MAP_KERNEL_RW), -EINVAL);
	KEXPECT_EQ(t, map_pages((unsigned long)area->addr, __pa(page), 1,
				0x80), -EINVAL);
	/* The linear map is mapped already: no page goes over it. */
	KEXPECT_EQ(t, map_pages(page, __pa(page), 1, MAP_KERNEL_RW), -EEXIST);
	KEXPECT(t, walk_is(page, __pa(page)));
	KEXPECT(t, unmapped((unsigned long)area->addr));
out:
	if (page)
		free_page(page);
	if (area)
		free_vm_area(area);
}

static void test_linear_map(struct ktest *t)
{
	int on_stack;
	void *obj = kmalloc(32, GFP_KERNEL);

	KEXPECT(t, paging_enabled());
	KEXPECT(t, walk_is((unsigned long)__text_start, __pa(__text_start)));
	KEXPECT(t, walk_is((unsigned long)&on_stack, __pa(&on_stack)));
	KEXPECT(t, obj && walk_is((unsigned long)obj, __pa(obj)));
	KEXPECT(t, unmapped(0));
	KEXPECT(t, unmapped(PAGE_SIZE - 1));
	KEXPECT(t, unmapped(VMALLOC_END - 1));
	kfree(obj);
}

/* Fills n words with a pattern that tells each word from the others. */
static void fill(u32 *p, unsigned long n, u32 seed)
{
	for (unsigned long i = 0; i < n; i++)
		p[i] = seed ^ (i * 2654435761u);
}

static bool check(const u32 *p, unsigned long n, u32 seed)
{
	for (unsigned long i = 0; i < n; i++)
		if (p[i] != (seed ^ (i * 2654435761u)))
			return false;
	return true;
}

static void test_vmalloc_area(struct ktest *t)
{
	const unsigned long size = 5 * PAGE_SIZE + 100;
	u32 *p = vmalloc(size);
	struct vm_struct *area = find_vm_area(p);
	unsigned long va = (unsigned long)p;

	KEXPECT(t, p && area);
	if (!p || !area)
		goto out;
	KEXPECT(t, IS_ALIGNED(va, PAGE_SIZE));
	KEXPECT(t, va >= VMALLOC_START && va + size < VMALLOC_END);
	KEXPECT(t, area->addr == p);
	KEXPECT_EQ(t, area->nr_pages, 6);
	KEXPECT_EQ(t, area->size, 7 * PAGE_SIZE);
	KEXPECT(t, (char *)area->caller >= __text_start &&
		   (char *)area->caller < __text_end);
	for (unsigned int i = 0; i < 6; i++)
		KEXPECT(t, walk_is(va + i * PAGE_SIZE,
				   page_to_phys(area->pages[i])));
	fill(p, size / 4, 0x1234);
	KEXPECT(t, check(p, size / 4, 0x1234));
	KEXPECT(t, find_vm_area(p + 1) == NULL);
out:
	vfree(p);
	KEXPECT(t, find_vm_area(p) == NULL);
	KEXPECT(t, unmapped(va));
}

static void test_vzalloc_zeroes(struct ktest *t)
{
	const unsigned long size = 3 * PAGE_SIZE;
	u32 *p = vmalloc(size);
	bool zero = true;

	KEXPECT(t, p != NULL);
	if (p)
		memset(p, 0xff, size);
	vfree(p);
	p = vzalloc(size);
	KEXPECT(t, p != NULL);
	for (unsigned long i = 0; p && i < size / 4; i++)
		zero = zero && p[i] == 0;
	KEXPECT(t, zero);
	vfree(p);
}

static void test_guard_page(struct ktest *t)
{
	char *p = vmalloc(3 * PAGE_SIZE);
	unsigned long end = (unsigned long)p + 3 * PAGE_SIZE;

	KEXPECT(t, p != NULL);
	if (!p)
		return;
	KEXPECT(t, !unmapped(end - 1));
	KEXPECT(t, unmapped(end));
	KEXPECT(t, unmapped(end + PAGE_SIZE - 1));
	KEXPECT(t, unmapped((unsigned long)p - 1));
	KEXPECT(t, vmalloc_describe_fault(end));
	KEXPECT(t, !vmalloc_describe_fault(0));
	KEXPECT(t, !vmalloc_describe_fault(VMALLOC_START - 1));
	vfree(p);
}

/* The highest order the page allocator can give right now. */
static int largest_free_order(void)
{
	int order;

	for (order = 0; order <= PROBE_MAX_ORDER; order++) {
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_NOWARN,
						order);

		if (!page)
			break;
		__free_pages(page, order);
	}
	return order - 1;
}

static void test_bigger_than_any_block(struct ktest *t)
{
	int order = largest_free_order();
	unsigned long npages = (1UL << order) + 1;
	unsigned long before = memleak_nr_free_pages();
	u32 *p;

	KEXPECT(t, order >= 0 && order < PROBE_MAX_ORDER);
	if (order < 0 || order >= PROBE_MAX_ORDER)
		return;
	p = vmalloc(npages * PAGE_SIZE);
	KEXPECT(t, p != NULL);
	if (!p)
		return;
	fill(p, npages * PAGE_SIZE / 4, 0xabcd);
	KEXPECT(t, check(p, npages * PAGE_SIZE / 4, 0xabcd));
	KEXPECT(t, memleak_nr_free_pages() <= before - npages);
	vfree(p);
}

static void alloc_and_free_mix(void)
{
	static const unsigned long sizes[] = { 1, 4096, 4097, 40000, 300000 };
	void *p[ARRAY_SIZE(sizes)];

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++)
		p[i] = vzalloc(sizes[i]);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++)
		vfree(p[ARRAY_SIZE(sizes) - 1 - i]);
}

static void test_free_count_returns(struct ktest *t)
{
	unsigned long before, vm_before = page_state(NR_VMALLOC_PAGES);

	/* Page tables stay once made, and slabs may: make them first. */
	alloc_and_free_mix();
	before = settled_free();
	alloc_and_free_mix();
	KEXPECT_EQ(t, settled_free(), before);
	KEXPECT_EQ(t, page_state(NR_VMALLOC_PAGES), vm_before);
}

static void test_first_fit(struct ktest *t)
{
	char *a = vmalloc(PAGE_SIZE), *b = vmalloc(PAGE_SIZE);
	char *c = vmalloc(PAGE_SIZE), *d, *e;

	KEXPECT(t, a && b && c);
	KEXPECT(t, a < b && b < c);
	vfree(b);
	/* b's hole (page + guard) is the lowest that fits one page... */
	d = vmalloc(PAGE_SIZE);
	KEXPECT(t, d == b);
	vfree(d);
	/* ...but not two. */
	e = vmalloc(2 * PAGE_SIZE);
	KEXPECT(t, e != NULL && e != b);
	vfree(e);
	vfree(c);
	vfree(a);
}

static void test_bad_vfree(struct ktest *t)
{
	int on_stack = 0;
	u32 *p = vmalloc(2 * PAGE_SIZE);
	unsigned long before, errors;

	KEXPECT(t, p != NULL);
	if (!p)
		return;
	fill(p, 2 * PAGE_SIZE / 4, 77);
	before = memleak_nr_free_pages();
	errors = mm_errors();
	vfree(&on_stack);
	vfree(p + 1);
	vfree((char *)p + PAGE_SIZE);
	vfree((char *)p + 2 * PAGE_SIZE);	/* its guard page */
	vfree((void *)(VMALLOC_END - PAGE_SIZE));
	KEXPECT_EQ(t, mm_errors(), errors + 5);
	KEXPECT_EQ(t, memleak_nr_free_pages(), before);
	KEXPECT(t, find_vm_area(p) != NULL);
	KEXPECT(t, check(p, 2 * PAGE_SIZE / 4, 77));
	vfree(p);
	vfree(p);				/* twice */
	KEXPECT_EQ(t, mm_errors(), errors + 6);
	KEXPECT(t, memleak_nr_free_pages() > before);
	vfree(NULL);
}

/* Takes every free page the allocator gives, threaded into a list. */
static void *drain_pages(void)
{
	void *list = NULL;
	unsigned long page;

	while ((page = get_free_page(GFP_KERNEL | __GFP_NOWARN)) != 0) {
		*(void **)page = list;
		list = (void *)page;
	}
	return list;
}

/* Frees n pages of the list (all for ~0UL); returns what is left. */
static void *give_back(void *list, unsigned long n)
{
	while (list && n--) {
		void *next = *(void **)list;

		free_page((unsigned long)list);
		list = next;
	}
	return list;
}

static void test_failure_unwinds(struct ktest *t)
{
	void *pin = vmalloc(16 * PAGE_SIZE);	/* keeps its slabs in use */
	void *list, *p;
	unsigned long before;

	KEXPECT(t, pin != NULL);
	KEXPECT(t, vmalloc(0) == NULL);
	KEXPECT(t, vmalloc(VMALLOC_END - VMALLOC_START) == NULL);
	/* No background scan may take or give back pages meanwhile. */
	memleak_hold_scans();
	list = give_back(drain_pages(), 8);
	before = settled_free();
	p = vmalloc(16 * PAGE_SIZE);		/* runs out halfway */
	KEXPECT(t, p == NULL);
	KEXPECT_EQ(t, settled_free(), before);
	give_back(list, ~0UL);
	memleak_allow_scans();
	vfree(p);
	vfree(pin);
}

/*
 * A page table exists for the span below `top` but (unless 120 MiB of
 * the window were ever mapped) not for the one above: with no free page
 * left, two pages across the boundary fail, and the first is unmapped.
 */
static void test_map_nomem_unwinds(struct ktest *t)
{
	struct vm_struct *area = get_vm_area(32 * SPAN_SIZE);
	unsigned long page = get_free_page(GFP_KERNEL);
	unsigned long top;
	void *list;

	KEXPECT(t, area && page);
	if (!area || !page)
		goto out;
	top = ALIGN((unsigned long)area->addr, SPAN_SIZE) + 30 * SPAN_SIZE;
	KEXPECT_EQ(t, map_pages(top - PAGE_SIZE, __pa(page), 1,
				MAP_KERNEL_RW), 0);
	unmap_pages(top - PAGE_SIZE, 1);
	list = drain_pages();
	KEXPECT_EQ(t, map_pages(top - PAGE_SIZE, __pa(page), 2,
				MAP_KERNEL_RW), -ENOMEM);
	give_back(list, ~0UL);
	KEXPECT(t, unmapped(top - PAGE_SIZE) && unmapped(top));
out:
	if (page)
		free_page(page);
	if (area)
		free_vm_area(area);
}

/* Unmap, then map another page at the same address: no stale TLB entry. */
static void test_remap_flushes_tlb(struct ktest *t)
{
	struct vm_struct *area = get_vm_area(PAGE_SIZE);
	unsigned long a = get_free_page(GFP_KERNEL);
	unsigned long b = get_free_page(GFP_KERNEL);
	volatile u32 *va;

	KEXPECT(t, area && a && b);
	if (!area || !a || !b)
		goto out;
	va = area->addr;
	*(u32 *)a = 0xaaaaaaaa;
	*(u32 *)b = 0xbbbbbbbb;
	for (int i = 0; i < 4; i++) {
		unsigned long page = (i & 1) ? b : a;

		KEXPECT_EQ(t, map_pages((unsigned long)va, __pa(page), 1,
					MAP_KERNEL_RW), 0);
		KEXPECT_EQ(t, *va, *(u32 *)page);
		unmap_pages((unsigned long)va, 1);
	}
out:
	if (a)
		free_page(a);
	if (b)
		free_page(b);
	if (area)
		free_vm_area(area);
}

static const struct ktest_case vmalloc_cases[] = {
	KTEST_CASE(test_map_walk_unmap),
	KTEST_CASE(test_map_bad_arguments),
	KTEST_CASE(test_linear_map),
	KTEST_CASE(test_vmalloc_area),
	KTEST_CASE(test_vzalloc_zeroes),
	KTEST_CASE(test_guard_page),
	KTEST_CASE(test_bigger_than_any_block),
	KTEST_CASE(test_free_count_returns),
	KTEST_CASE(test_first_fit),
	KTEST_CASE(test_bad_vfree),
	KTEST_CASE(test_failure_unwinds),
	KTEST_CASE(test_map_nomem_unwinds),
	KTEST_CASE(test_remap_flushes_tlb),
	{ 0 },
};
KTEST_SUITE("vmalloc", vmalloc_cases);
