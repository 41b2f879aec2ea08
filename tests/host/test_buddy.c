/*
 * Host tests of the buddy page allocator: split and merge invariants,
 * a long random run against a model, poisoning, bad frees, the atomic
 * reserve and page references.
 */
#include <kernel/mm.h>
#include <kernel/memblock.h>
#include <kernel/shell.h>
#include <kernel/printk.h>
#include "test_mm.h"

#include <stdlib.h>

/*
 * Walks mem_map: every free block is aligned, inside the map, covers
 * pages nobody else claims, and is maximal (its buddy is not a free
 * block of the same order); the counts match the free lists and the
 * free page counter.
 */
static void check_invariants(void)
{
	unsigned long counted[MAX_ORDER] = { 0 }, nfree = 0;
	unsigned char *covered = calloc(max_pfn - min_pfn, 1);

	assert_non_null(covered);
	for (unsigned long pfn = min_pfn; pfn < max_pfn; pfn++) {
		struct page *p = pfn_to_page(pfn);
		unsigned int o = p->order;

		if (!(p->flags & PG_buddy))
			continue;
		assert_true(o < MAX_ORDER);
		assert_int_equal(pfn & ((1UL << o) - 1), 0);
		assert_true(pfn + (1UL << o) <= max_pfn);
		assert_false(p->flags & (PG_head | PG_reserved | PG_slab));
		for (unsigned long i = 0; i < 1UL << o; i++) {
			assert_false(covered[pfn - min_pfn + i]);
			covered[pfn - min_pfn + i] = 1;
			if (i)
				assert_false(p[i].flags & (PG_buddy | PG_head |
							   PG_reserved));
		}
		if (o < MAX_ORDER - 1 && pfn_valid(pfn ^ (1UL << o))) {
			struct page *b = pfn_to_page(pfn ^ (1UL << o));

			assert_false((b->flags & PG_buddy) && b->order == o);
		}
		counted[o]++;
		nfree += 1UL << o;
	}
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		assert_int_equal(counted[o], buddy_free_blocks(o));
	assert_int_equal(nfree, nr_free_pages());
	free(covered);
}

static void snapshot_blocks(unsigned long *blocks)
{
	for (unsigned int o = 0; o < MAX_ORDER; o++)
		blocks[o] = buddy_free_blocks(o);
}

static void test_boot_state(void **state)
{
	(void)state;
	assert_true(nr_free_pages() > HOST_ARENA_SIZE / PAGE_SIZE * 9 / 10);
	assert_int_equal(page_state(NR_RAM_PAGES), HOST_ARENA_SIZE / PAGE_SIZE);
	assert_int_equal(page_state(NR_RAM_PAGES),
			 nr_free_pages() + page_state(NR_BOOT_PAGES) +
			 page_state(NR_SLAB_PAGES));
	/* The arena is 4 MiB aligned: mostly top-order blocks. */
	assert_true(buddy_free_blocks(MAX_ORDER - 1) >= 14);
	check_invariants();
}

static void test_every_order(void **state)
{
	unsigned long before = nr_free_pages(), blocks[MAX_ORDER], now[MAX_ORDER];

	(void)state;
	snapshot_blocks(blocks);
	for (unsigned int o = 0; o < MAX_ORDER; o++) {
		struct page *p = alloc_pages(GFP_KERNEL, o);

		assert_non_null(p);
		assert_int_equal(page_to_pfn(p) & ((1UL << o) - 1), 0);
		assert_true(p->flags & PG_head);
		assert_int_equal(p->order, o);
		assert_int_equal(nr_free_pages(), before - (1UL << o));
		check_invariants();
		__free_pages(p, o);
		assert_int_equal(nr_free_pages(), before);
	}
	snapshot_blocks(now);
	assert_memory_equal(blocks, now, sizeof(blocks));
	check_invariants();
}

/*
 * With every order below the top one drained, two order-0 allocations
 * split one top-order block: they are buddies, and each order below the
 * top gains one free block; freeing both merges it all back.
 */
static void test_split_then_merge(void **state)
{
	unsigned long blocks[MAX_ORDER], now[MAX_ORDER];
	struct page *drained[64], *a, *b;
	unsigned int o;
	int n = 0;

	(void)state;
	for (o = 0; o < MAX_ORDER - 1; o++)
		while (buddy_free_blocks(o) > 0 && n < 64)
			drained[n++] = alloc_pages(GFP_ATOMIC, o);
	assert_true(n < 64);
	snapshot_blocks(blocks);
	a = alloc_pages(GFP_KERNEL, 0);
	b = alloc_pages(GFP_KERNEL, 0);
	assert_int_equal(page_to_pfn(a) ^ 1, page_to_pfn(b));
	assert_int_equal(buddy_free_blocks(MAX_ORDER - 1), blocks[MAX_ORDER - 1] - 1);
	for (o = 1; o < MAX_ORDER - 1; o++)
		assert_int_equal(buddy_free_blocks(o), 1);
	check_invariants();
	__free_pages(a, 0);
	check_invariants();
	__free_pages(b, 0);
	snapshot_blocks(now);
	assert_memory_equal(blocks, now, sizeof(blocks));
	while (n > 0) {
		n--;
		__free_pages(drained[n], drained[n]->order);
	}
	check_invariants();
}

struct live {
	struct page *page;
	unsigned int order;
	unsigned long id;
};

static void free_live(struct live *l)
{
	assert_true(check_pattern(page_address(l->page), PAGE_SIZE << l->order,
				  l->id));
	__free_pages(l->page, l->order);
}

/* No two live blocks share a page. */
static void check_no_overlap(const struct live *live, int n)
{
	unsigned char *used = calloc(max_pfn - min_pfn, 1);

	assert_non_null(used);
	for (int i = 0; i < n; i++) {
		unsigned long pfn = page_to_pfn(live[i].page) - min_pfn;

		for (unsigned long j = 0; j < 1UL << live[i].order; j++) {
			assert_false(used[pfn + j]);
			used[pfn + j] = 1;
		}
	}
	free(used);
}

/* 100k random allocations and frees, every block's contents checked. */
static void test_random_against_model(void **state)
{
	enum { OPS = 100000, MAX_LIVE = 2048 };
	struct live *live = calloc(MAX_LIVE, sizeof(*live));
	unsigned long before = nr_free_pages(), live_pages = 0, errors = mm_errors();
	unsigned long blocks[MAX_ORDER], now[MAX_ORDER];
	uint64_t seed = 0x5eed1234;
	int n = 0;

	(void)state;
	assert_non_null(live);
	snapshot_blocks(blocks);
	for (unsigned long op = 0; op < OPS; op++) {
		uint64_t r = test_rand(&seed);

		if (n < MAX_LIVE && (n == 0 || r % 100 < 55)) {
			/* Small orders mostly: order k with odds 1/2^(k+1). */
			unsigned int o = __builtin_ctzll(r >> 8 | 1ULL << 7);
			struct page *p = alloc_pages(GFP_KERNEL | __GFP_NOWARN, o);

			if (!p)
				continue;
			live[n] = (struct live){ p, o, op };
			fill_pattern(page_address(p), PAGE_SIZE << o, op);
			live_pages += 1UL << o;
			n++;
		} else {
			int i = (int)((r >> 16) % n);

			live_pages -= 1UL << live[i].order;
			free_live(&live[i]);
			live[i] = live[--n];
		}
		assert_int_equal(nr_free_pages() + live_pages, before);
		if (op % 5000 == 0) {
			check_invariants();
			check_no_overlap(live, n);
		}
	}
	while (n > 0)
		free_live(&live[--n]);
	assert_int_equal(nr_free_pages(), before);
	snapshot_blocks(now);
	assert_memory_equal(blocks, now, sizeof(blocks));
	check_invariants();
	expect_no_report(errors);
	free(live);
}

/* A page freed while its buddy stays allocated comes back first. */
static void test_poison_catches_write_after_free(void **state)
{
	struct page *pages[16], *again;
	unsigned long errors = mm_errors();
	unsigned char *data;
	char expected[64];
	int victim = -1;

	(void)state;
	for (int i = 0; i < 16; i++)
		pages[i] = alloc_pages(GFP_KERNEL, 0);
	for (int i = 0; i < 16 && victim < 0; i++)
		for (int j = 0; j < 16; j++)
			if ((page_to_pfn(pages[i]) ^ 1) == page_to_pfn(pages[j]))
				victim = i;
	assert_true(victim >= 0);
	data = page_address(pages[victim]);
	assert_int_equal(data[0], CONFIG_PAGE_POISON_ALLOC);
	__free_pages(pages[victim], 0);
	assert_int_equal(data[100], CONFIG_PAGE_POISON_FREE);
	data[123] = 0x42;	/* the use after free */
	again = alloc_pages(GFP_KERNEL, 0);
	assert_ptr_equal(again, pages[victim]);
	snprintf(expected, sizeof(expected),
		 "page 0x%lx modified after free at offset 123",
		 (unsigned long)data);
	expect_report(errors, expected);
	for (int i = 0; i < 16; i++)
		__free_pages(pages[i], 0);
	check_invariants();
}

static void test_zero_and_alloc_poison(void **state)
{
	struct page *p = alloc_pages(GFP_KERNEL | __GFP_ZERO, 2);
	struct page *q = alloc_pages(GFP_KERNEL, 2);
	const unsigned char *a = page_address(p), *b = page_address(q);

	(void)state;
	for (unsigned long i = 0; i < 4 * PAGE_SIZE; i++) {
		assert_int_equal(a[i], 0);
		assert_int_equal(b[i], CONFIG_PAGE_POISON_ALLOC);
	}
	__free_pages(p, 2);
	__free_pages(q, 2);
}

/* A bad free is reported once and changes nothing. */
static void bad_free(struct page *page, unsigned int order, const char *text)
{
	unsigned long errors = mm_errors(), free = nr_free_pages();

	__free_pages(page, order);
	expect_report(errors, text);
	assert_int_equal(nr_free_pages(), free);
	check_invariants();
}

static void test_bad_frees(void **state)
{
	struct page *p2 = alloc_pages(GFP_KERNEL, 2);
	struct page *a = alloc_pages(GFP_KERNEL, 0);
	struct page *b = alloc_pages(GFP_KERNEL, 0);
	struct page *odd = (page_to_pfn(a) & 1) ? a : b;
	unsigned long errors = mm_errors();
	int on_stack;

	(void)state;
	bad_free(p2, 1, "freed with another order");
	bad_free(p2 + 1, 0, "not the first page of an allocated block");
	bad_free(odd, 1, "not aligned to the order");
	bad_free(virt_to_page(mem_map), 0, "reserved page");
	bad_free(NULL, 0, "not a struct page of RAM");
	bad_free(mem_map - 1, 0, "not a struct page of RAM");
	__free_pages(a, 0);
	bad_free(a, 0, "double free");
	errors = mm_errors();
	free_pages((unsigned long)page_address(b) + 8, 0);
	expect_report(errors, "is not page aligned");
	free_pages((unsigned long)&on_stack & PAGE_MASK, 0);
	expect_report(errors + 1, "is not in RAM");
	free_pages(0, 0);
	assert_int_equal(mm_errors(), errors + 2);
	__free_pages(b, 0);
	__free_pages(p2, 2);
	check_invariants();
}

static void test_atomic_reserve(void **state)
{
	unsigned long n = 0, kernel_n, max = HOST_ARENA_SIZE / PAGE_SIZE;
	unsigned long before = nr_free_pages();
	struct page **pages = calloc(max, sizeof(*pages));

	(void)state;
	assert_non_null(pages);
	while ((pages[n] = alloc_pages(GFP_KERNEL | __GFP_NOWARN, 0)))
		n++;
	kernel_n = n;
	assert_true(nr_free_pages() > 0);
	while ((pages[n] = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0)))
		n++;
	assert_true(n > kernel_n);
	assert_int_equal(nr_free_pages(), 0);
	assert_null(alloc_pages(GFP_ATOMIC, 0));
	assert_true(log_has("alloc_pages: out of memory"));
	assert_null(alloc_pages(GFP_KERNEL, MAX_ORDER));
	assert_true(log_has("is above the largest"));
	while (n > 0)
		__free_pages(pages[--n], 0);
	assert_int_equal(nr_free_pages(), before);
	check_invariants();
	free(pages);
}

static void test_references(void **state)
{
	unsigned long free = nr_free_pages(), errors = mm_errors();
	struct page *p = alloc_pages(GFP_KERNEL, 1);

	(void)state;
	get_page(p);
	__free_pages(p, 1);
	assert_int_equal(nr_free_pages(), free - 2);
	__free_pages(p, 1);
	assert_int_equal(nr_free_pages(), free);
	expect_no_report(errors);
	get_page(p);
	expect_report(errors, "get_page");
}

static void test_get_free_pages(void **state)
{
	unsigned long free = nr_free_pages();
	unsigned long addr = __get_free_pages(GFP_KERNEL, 3);
	unsigned long one = get_free_page(GFP_KERNEL | __GFP_ZERO);

	(void)state;
	assert_int_equal(addr & ((PAGE_SIZE << 3) - 1), 0);
	assert_ptr_equal(virt_to_page((void *)addr), phys_to_page(__pa(addr)));
	assert_ptr_equal(page_address(virt_to_page((void *)addr)), (void *)addr);
	assert_int_equal(*(unsigned long *)one, 0);
	free_pages(addr, 3);
	free_page(one);
	assert_int_equal(nr_free_pages(), free);
}

/* Boot memory given back later, e.g. the __init sections. */
static void test_free_reserved_area(void **state)
{
	char *arena = host_arena(), *area = arena + (1 << 20);
	unsigned long boot, free, errors;

	(void)state;
	memblock_init();
	memblock_add(__pa(arena), HOST_ARENA_SIZE);
	memblock_reserve(__pa(area), 16 * PAGE_SIZE);
	page_alloc_init();
	boot = page_state(NR_BOOT_PAGES);
	free = nr_free_pages();
	assert_true(virt_to_page(area)->flags & PG_reserved);
	assert_int_equal(free_reserved_area(area, area + 16 * PAGE_SIZE), 16);
	assert_int_equal(page_state(NR_BOOT_PAGES), boot - 16);
	assert_int_equal(nr_free_pages(), free + 16);
	check_invariants();
	errors = mm_errors();
	assert_int_equal(free_reserved_area(area, area + PAGE_SIZE), 0);
	expect_report(errors, "is not reserved RAM");
}

static void test_large_hash_after_boot(void **state)
{
	unsigned long free = nr_free_pages();
	unsigned int shift = 0;
	unsigned long *table = alloc_large_system_hash("test", sizeof(long),
						       1000, &shift);

	(void)state;
	assert_non_null(table);
	assert_int_equal(shift, 10);
	assert_true(log_has("test hash table entries: 1024 (order: 1, 8192 bytes, pages)"));
	for (int i = 0; i < 1024; i++)
		assert_int_equal(table[i], 0);
	assert_int_equal(nr_free_pages(), free - 2);
	free_large_system_hash(table, sizeof(long), shift);
	assert_int_equal(nr_free_pages(), free);
	assert_null(alloc_large_system_hash("huge", PAGE_SIZE, 1UL << 20, NULL));
	assert_true(log_has("is too large"));
}

static void test_page_states_and_meminfo(void **state)
{
	unsigned long errors = mm_errors();

	(void)state;
	mod_page_state(NR_VMALLOC_PAGES, 3);
	mod_page_state(NR_PAGETABLE_PAGES, 2);
	assert_int_equal(page_state(NR_VMALLOC_PAGES), 3);
	assert_int_equal(shell_run_line("meminfo"), 0);
	assert_true(log_has("Vmalloc:             12 KiB"));
	assert_true(log_has("PageTables:           8 KiB"));
	assert_true(log_has("MemTotal:         65536 KiB"));
	mod_page_state(NR_VMALLOC_PAGES, -3);
	mod_page_state(NR_PAGETABLE_PAGES, -2);
	assert_int_equal(page_state(NR_VMALLOC_PAGES), 0);
	mod_page_state(NR_PAGE_STATES, 1);
	expect_report(errors, "no page state");
	assert_int_equal(shell_run_line("meminfo extra"), 1);
	assert_true(log_has("usage: meminfo"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_boot_state, mm_setup),
		cmocka_unit_test_setup(test_every_order, mm_setup),
		cmocka_unit_test_setup(test_split_then_merge, mm_setup),
		cmocka_unit_test_setup(test_random_against_model, mm_setup),
		cmocka_unit_test_setup(test_poison_catches_write_after_free, mm_setup),
		cmocka_unit_test_setup(test_zero_and_alloc_poison, mm_setup),
		cmocka_unit_test_setup(test_bad_frees, mm_setup),
		cmocka_unit_test_setup(test_atomic_reserve, mm_setup),
		cmocka_unit_test_setup(test_references, mm_setup),
		cmocka_unit_test_setup(test_get_free_pages, mm_setup),
		cmocka_unit_test_setup(test_free_reserved_area, mm_setup),
		cmocka_unit_test_setup(test_large_hash_after_boot, mm_setup),
		cmocka_unit_test_setup(test_page_states_and_meminfo, mm_setup),
	};

	return cmocka_run_group_tests_name("buddy", tests, NULL, NULL);
}
