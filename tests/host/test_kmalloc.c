/*
 * Host tests of kmalloc: the size class of every size from 1 byte to
 * past the largest class, large blocks, kzalloc/kcalloc (overflow),
 * krealloc, kfree and ksize of bad pointers, and a random run.
 */
#include <kernel/slab.h>
#include <kernel/printk.h>
#include "test_mm.h"

#include <stdlib.h>

static const size_t classes[] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096,
	8192, 16384, 32768, 65536, 131072,
};

static unsigned long free_at_start;

static int setup(void **state)
{
	mm_setup(state);
	free_at_start = settled_free_pages();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_int_equal(settled_free_pages(), free_at_start);
	assert_int_equal(page_state(NR_KMALLOC_LARGE_PAGES), 0);
	return 0;
}

/* The smallest class that holds size, found the slow way. */
static size_t expected_class(size_t size)
{
	for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
		if (size <= classes[i])
			return classes[i];
	return 0;
}

static void test_every_size_class(void **state)
{
	(void)state;
	assert_int_equal(ARRAY_SIZE(classes), KMALLOC_NR_CLASSES);
	for (size_t size = 1; size <= KMALLOC_MAX_CACHE_SIZE; size++) {
		size_t want = expected_class(size);
		unsigned char *p;

		assert_int_equal(kmalloc_size_class(size), want);
		assert_non_null(kmalloc_cache(size));
		assert_int_equal(kmalloc_cache(size)->object_size, want);
		if (size > 4096 && size % 509 != 0 && size != want)
			continue;	/* every size up to 4 KiB, a sample above */
		p = kmalloc(size, GFP_KERNEL);
		assert_non_null(p);
		assert_int_equal(ksize(p), want);
		assert_int_equal((unsigned long)p % 8, 0);
		p[0] = 1;
		p[size - 1] = 2;
		kfree(p);
	}
	assert_int_equal(kmalloc_size_class(KMALLOC_MAX_CACHE_SIZE + 1), 0);
	assert_null(kmalloc_cache(KMALLOC_MAX_CACHE_SIZE + 1));
	assert_int_equal(kmalloc_size_class(0), 0);
}

static void test_large_blocks(void **state)
{
	size_t sizes[] = { KMALLOC_MAX_CACHE_SIZE + 1, 200000, 262144, 1 << 20,
			   (4 << 20) - 5 };
	void *blocks[ARRAY_SIZE(sizes)];
	unsigned long pages = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct page *page;

		blocks[i] = kmalloc(sizes[i], GFP_KERNEL);
		assert_non_null(blocks[i]);
		page = virt_to_page(blocks[i]);
		assert_true(page->flags & PG_kmalloc);
		assert_ptr_equal(page_address(page), blocks[i]);
		assert_int_equal(ksize(blocks[i]), PAGE_SIZE << get_order(sizes[i]));
		fill_pattern(blocks[i], sizes[i], i);
		pages += 1UL << get_order(sizes[i]);
	}
	assert_int_equal(page_state(NR_KMALLOC_LARGE_PAGES), pages);
	/* Distinct blocks: every pattern survived the others. */
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		assert_true(check_pattern(blocks[i], sizes[i], i));
		kfree(blocks[i]);
	}
	assert_null(kmalloc(5 << 20, GFP_KERNEL));
	assert_true(log_has("is more than the largest block"));
}

static void test_zero_size(void **state)
{
	unsigned long errors = mm_errors();

	(void)state;
	assert_ptr_equal(kmalloc(0, GFP_KERNEL), ZERO_SIZE_PTR);
	assert_int_equal(ksize(ZERO_SIZE_PTR), 0);
	kfree(ZERO_SIZE_PTR);
	kfree(NULL);
	expect_no_report(errors);
}

static void test_kzalloc_kcalloc(void **state)
{
	unsigned char *p = kmalloc(500, GFP_KERNEL);
	unsigned int *v;

	(void)state;
	memset(p, 0xee, 500);
	kfree(p);
	p = kzalloc(500, GFP_KERNEL);
	for (int i = 0; i < 500; i++)
		assert_int_equal(p[i], 0);
	kfree(p);
	v = kcalloc(1000, sizeof(*v), GFP_KERNEL);
	assert_int_equal(ksize(v), 4096);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(v[i], 0);
	kfree(v);
	assert_null(kcalloc(SIZE_MAX / 2, 3, GFP_KERNEL));
	assert_true(log_has("overflows"));
	assert_null(kcalloc((size_t)1 << 40, (size_t)1 << 30, GFP_KERNEL | __GFP_NOWARN));
	assert_ptr_equal(kcalloc(0, 8, GFP_KERNEL), ZERO_SIZE_PTR);
}

static void test_krealloc(void **state)
{
	static const size_t steps[] = { 10, 12, 100, 1000, 5000, 200000, 300000,
					140000, 60, 8, 1 };
	unsigned char *p = krealloc(NULL, 10, GFP_KERNEL);
	size_t have = 10;

	(void)state;
	fill_pattern(p, 10, 7);
	for (size_t i = 1; i < ARRAY_SIZE(steps); i++) {
		size_t keep = have < steps[i] ? have : steps[i];
		unsigned char *q = krealloc(p, steps[i], GFP_KERNEL);

		assert_non_null(q);
		assert_true(check_pattern(q, keep, 7));
		assert_true(ksize(q) >= steps[i]);
		/* 10 -> 12 stays in the 16-byte object; the rest move. */
		if (i == 1)
			assert_ptr_equal(p, q);
		fill_pattern(q, steps[i], 7);
		p = q;
		have = steps[i];
	}
	assert_int_equal(ksize(p), 8);
	assert_ptr_equal(krealloc(p, 0, GFP_KERNEL), ZERO_SIZE_PTR);
	p = krealloc(ZERO_SIZE_PTR, 40, GFP_KERNEL);
	assert_int_equal(ksize(p), 64);
	/* Failure leaves the block alone. */
	assert_null(krealloc(p, 64 << 20, GFP_KERNEL | __GFP_NOWARN));
	assert_int_equal(ksize(p), 64);
	kfree(p);
}

static void bad_kfree(const void *p, const char *text)
{
	unsigned long errors = mm_errors();

	kfree(p);
	expect_report(errors, text);
}

static void test_bad_kfree(void **state)
{
	char *small = kmalloc(100, GFP_KERNEL);
	char *large = kmalloc(300000, GFP_KERNEL);
	unsigned long page = get_free_page(GFP_KERNEL);
	unsigned long errors;
	char text[96];
	int on_stack;

	(void)state;
	bad_kfree(&on_stack, "not in RAM");
	bad_kfree(small + 4, "is not the start of an object of cache kmalloc-128");
	bad_kfree(large + PAGE_SIZE, "not a live kmalloc block");
	bad_kfree(large + 8, "not a live kmalloc block");
	bad_kfree((void *)page, "not a live kmalloc block");
	kfree(small);
	snprintf(text, sizeof(text), "double free of %p in cache kmalloc-128", small);
	bad_kfree(small, text);
	kfree(large);
	bad_kfree(large, "not a live kmalloc block");
	errors = mm_errors();
	assert_int_equal(ksize(small), 0);
	expect_report(errors, "ksize of");
	assert_int_equal(ksize(small + 1), 0);
	expect_report(errors + 1, "not the start of a live kmalloc block");
	assert_null(krealloc(&on_stack, 10, GFP_KERNEL));
	expect_report(errors + 2, "krealloc of");
	free_page(page);
	/* Nothing was damaged: the same memory works as before. */
	small = kmalloc(100, GFP_KERNEL);
	large = kmalloc(300000, GFP_KERNEL);
	fill_pattern(small, 100, 1);
	fill_pattern(large, 300000, 2);
	assert_true(check_pattern(small, 100, 1));
	kfree(small);
	kfree(large);
}

static void test_kmalloc_red_zone(void **state)
{
	char *p = kmalloc(64, GFP_KERNEL);
	unsigned long errors = mm_errors();

	(void)state;
	p[64] = 'x';
	kfree(p);
	expect_report(errors, "red zone after");
}

/* Sizes spread over every class and beyond, log-uniform. */
static size_t random_size(uint64_t r)
{
	unsigned int bits = (unsigned int)(r % 19);

	return 1 + (size_t)((r >> 8) & ((1UL << bits) - 1)) + (bits == 18) * 100000;
}

static void test_random_against_model(void **state)
{
	enum { OPS = 100000, MAX_LIVE = 500 };
	struct blk { unsigned char *p; size_t size; unsigned long id; } *live;
	unsigned long errors = mm_errors();
	uint64_t seed = 0xc0ffee;
	int n = 0;

	(void)state;
	live = calloc(MAX_LIVE, sizeof(*live));
	for (unsigned long op = 0; op < OPS; op++) {
		uint64_t r = test_rand(&seed);

		if (n < MAX_LIVE && (n == 0 || r % 100 < 50)) {
			size_t size = random_size(r >> 7);
			unsigned char *p = kmalloc(size, GFP_KERNEL);

			assert_non_null(p);
			assert_true(ksize(p) >= size);
			fill_pattern(p, size, op);
			live[n++] = (struct blk){ p, size, op };
		} else if (r % 100 < 60) {
			int i = (r >> 20) % n;
			size_t size = random_size(r >> 30);
			size_t keep = min(size, live[i].size);
			unsigned char *q = krealloc(live[i].p, size, GFP_KERNEL);

			assert_non_null(q);
			assert_true(check_pattern(q, keep, live[i].id));
			fill_pattern(q, size, op);
			live[i] = (struct blk){ q, size, op };
		} else {
			int i = (r >> 20) % n;

			assert_true(check_pattern(live[i].p, live[i].size, live[i].id));
			kfree(live[i].p);
			live[i] = live[--n];
		}
	}
	while (n > 0)
		kfree(live[--n].p);
	expect_no_report(errors);
	free(live);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_every_size_class),
		T(test_large_blocks),
		T(test_zero_size),
		T(test_kzalloc_kcalloc),
		T(test_krealloc),
		T(test_bad_kfree),
		T(test_kmalloc_red_zone),
		T(test_random_against_model),
	};

	return cmocka_run_group_tests_name("kmalloc", tests, NULL, NULL);
}
