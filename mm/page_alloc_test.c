/*
 * Self-tests of the buddy page allocator on the target. Each case ends
 * with the free page count it started with (xv6's countfree). Cases
 * that misuse the allocator on purpose say so before the warning.
 */
#include <kernel/memleak.h>
#include <kernel/ktest.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/slab.h>

static unsigned long settled_free(void)
{
	slab_shrink_all();
	return memleak_nr_free_pages();
}

static void test_every_order(struct ktest *t)
{
	unsigned long before = settled_free();

	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct page *p = alloc_pages(GFP_KERNEL, o);

		KEXPECT(t, p != NULL);
		if (!p)
			continue;
		KEXPECT_EQ(t, page_to_pfn(p) & ((1UL << o) - 1), 0);
		KEXPECT(t, p->flags & PG_head);
		KEXPECT_EQ(t, memleak_nr_free_pages(), before - (1UL << o));
		__free_pages(p, o);
	}
	KEXPECT_EQ(t, settled_free(), before);
}

/* With the small orders drained, two pages come from one split block. */
static void test_split_and_merge(struct ktest *t)
{
	unsigned long before = settled_free(), blocks[MAX_ORDER];
	struct page *drained[64], *a, *b;
	int n = 0;

	for (unsigned int o = 0; o < MAX_ORDER - 1; o++)
		while (buddy_free_blocks(o) > 0 && n < 64)
			drained[n++] = alloc_pages(GFP_ATOMIC, o);
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		blocks[o] = buddy_free_blocks(o);
	a = alloc_pages(GFP_KERNEL, 0);
	b = alloc_pages(GFP_KERNEL, 0);
	KEXPECT_EQ(t, page_to_pfn(a) ^ 1, page_to_pfn(b));
	for (unsigned int o = 1; o < MAX_ORDER - 1; o++)
		KEXPECT_EQ(t, buddy_free_blocks(o), 1);
	__free_pages(a, 0);
	__free_pages(b, 0);
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		KEXPECT_EQ(t, buddy_free_blocks(o), blocks[o]);
	while (n > 0) {
		n--;
		__free_pages(drained[n], drained[n]->order);
	}
	KEXPECT_EQ(t, settled_free(), before);
}

static void test_zeroed_and_addresses(struct ktest *t)
{
	unsigned long before = settled_free();
	unsigned long addr = __get_free_pages(GFP_KERNEL | __GFP_ZERO, 1);
	const unsigned long *words = (const void *)addr;
	int nonzero = 0;

	for (unsigned long i = 0; i < 2 * PAGE_SIZE / sizeof(long); i++)
		nonzero += words[i] != 0;
	KEXPECT_EQ(t, nonzero, 0);
	KEXPECT(t, virt_to_page(words) == phys_to_page(__pa(addr)));
	KEXPECT(t, page_address(virt_to_page(words)) == (void *)addr);
	KEXPECT(t, virt_addr_valid(words));
	free_pages(addr, 1);
	KEXPECT_EQ(t, settled_free(), before);
}

static void test_bad_frees_reported(struct ktest *t)
{
	unsigned long before = settled_free(), errors = mm_errors();
	struct page *p = alloc_pages(GFP_KERNEL, 2);
	unsigned long free_now = memleak_nr_free_pages();

	printk("    # four warnings expected: wrong order, inside a block, unaligned, double free\n");
	__free_pages(p, 1);
	__free_pages(p + 1, 0);
	free_pages((unsigned long)page_address(p) + 16, 2);
	KEXPECT_EQ(t, memleak_nr_free_pages(), free_now);
	__free_pages(p, 2);
	__free_pages(p, 2);
	KEXPECT_EQ(t, mm_errors(), errors + 4);
	KEXPECT_EQ(t, settled_free(), before);
}

static void test_references(struct ktest *t)
{
	unsigned long before = settled_free();
	struct page *p = alloc_pages(GFP_KERNEL, 0);

	get_page(p);
	__free_pages(p, 0);
	KEXPECT_EQ(t, memleak_nr_free_pages(), before - 1);
	__free_pages(p, 0);
	KEXPECT_EQ(t, settled_free(), before);
}

#ifdef CONFIG_PAGE_POISON
/* A page whose buddy stays allocated is the next order-0 page handed out. */
static void test_poison_catches_use_after_free(struct ktest *t)
{
	unsigned long before = settled_free(), errors = mm_errors();
	struct page *pages[16], *again;
	unsigned char *data;
	int victim = -1;

	for (int i = 0; i < 16; i++)
		pages[i] = alloc_pages(GFP_KERNEL, 0);
	for (int i = 0; i < 16 && victim < 0; i++)
		for (int j = 0; j < 16; j++)
			if ((page_to_pfn(pages[i]) ^ 1) == page_to_pfn(pages[j]))
				victim = i;
	KEXPECT(t, victim >= 0);
	if (victim < 0)
		victim = 0;
	data = page_address(pages[victim]);
	KEXPECT_EQ(t, data[0], CONFIG_PAGE_POISON_ALLOC);
	/*
	 * No background scan may take the victim for its queues between
	 * the free and the allocation (memleak scan=1 on 4 CPUs did).
	 */
	memleak_hold_scans();
	__free_pages(pages[victim], 0);
	KEXPECT_EQ(t, data[200], CONFIG_PAGE_POISON_FREE);
	printk("    # a warning expected: page modified after free at offset 200\n");
	data[200] = 0;
	again = alloc_pages(GFP_KERNEL, 0);
	memleak_allow_scans();
	KEXPECT(t, again == pages[victim]);
	KEXPECT_EQ(t, mm_errors(), errors + 1);
	/* Whatever came back is ours now; the victim, if not, is not. */
	pages[victim] = again;
	for (int i = 0; i < 16; i++)
		__free_pages(pages[i], 0);
	KEXPECT_EQ(t, settled_free(), before);
}
#endif

static const struct ktest_case page_alloc_cases[] = {
	KTEST_CASE(test_every_order),
	KTEST_CASE(test_split_and_merge),
	KTEST_CASE(test_zeroed_and_addresses),
	KTEST_CASE(test_bad_frees_reported),
	KTEST_CASE(test_references),
#ifdef CONFIG_PAGE_POISON
	KTEST_CASE(test_poison_catches_use_after_free),
#endif
	{ 0 },
};
KTEST_SUITE("page_alloc", page_alloc_cases);
