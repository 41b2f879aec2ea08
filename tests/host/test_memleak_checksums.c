/*
 * Host tests of the table of white blocks' checksums
 * (mm/kmemleak/checksums.c): its pages count as the collector's at
 * every moment of a resize, also those of a table being made or freed,
 * which neither the table nor the old one points to. The kernel's
 * self-tests compare memleak_nr_free_pages() before and after their
 * work while background scans resize the table; a page taken and not
 * yet counted made 'selftest slab' find 8 pages gone (i386, 4 CPUs).
 *
 * The test is linked with alloc_pages() and __free_pages() wrapped, so
 * that it looks at the count on every call the resize makes.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/mm.h>
#include <asm/host.h>
#include "../../mm/kmemleak/internal.h"
#include "test_memleak.h"

struct page *__real_alloc_pages(unsigned int gfp, unsigned int order);
void __real___free_pages(struct page *page, unsigned int order);

/* While set, every page call checks that no page is uncounted. */
static bool checking;
static unsigned long pages_before, calls, uncounted;

static unsigned long pages_accounted(void)
{
	return nr_free_pages() + memleak_checksum_pages();
}

static void check_accounted(void)
{
	if (!checking)
		return;
	calls++;
	if (pages_accounted() != pages_before)
		uncounted++;
}

struct page *__wrap_alloc_pages(unsigned int gfp, unsigned int order)
{
	check_accounted();
	return __real_alloc_pages(gfp, order);
}

void __wrap___free_pages(struct page *page, unsigned int order)
{
	check_accounted();
	__real___free_pages(page, order);
}

static void start_checking(void)
{
	pages_before = pages_accounted();
	calls = uncounted = 0;
	checking = true;
}

static void stop_checking(void)
{
	checking = false;
	assert_int_equal(pages_accounted(), pages_before);
	assert_int_equal(uncounted, 0);
}

/*
 * A table for many entries, then one for few again: pages taken one by
 * one, then given back one by one, all counted throughout.
 */
static void test_resize_pages_counted(void **state)
{
	unsigned long large;

	(void)state;
	start_checking();
	assert_int_equal(memleak_checksum_reserve(20000), 0);
	large = memleak_checksum_pages();
	assert_true(large > 32);
	assert_int_equal(memleak_checksum_reserve(1), 0);
	stop_checking();
	assert_true(calls > 64);
	assert_true(memleak_checksum_pages() < large / 4);
}

/* A table that cannot be made whole gives back what it took, counted. */
static void test_failed_resize_counted(void **state)
{
	unsigned long shift = 1;

	(void)state;
	/* More entries than RAM has pages for their slots. */
	while ((1ul << shift) * 8 < (nr_free_pages() + 8) * PAGE_SIZE)
		shift++;
	start_checking();
	assert_int_equal(memleak_checksum_reserve(1ul << shift), -ENOMEM);
	stop_checking();
	assert_true(calls > 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resize_pages_counted),
		cmocka_unit_test(test_failed_resize_counted),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
