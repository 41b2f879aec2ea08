/*
 * Host tests of what step 4 of the scan keeps beside the white blocks:
 * the table of their checksums (mm/kmemleak/checksums.c), whose pages
 * count as the collector's at every moment of a resize, also those of
 * a table being made or freed, which neither the table nor the old one
 * points to (the kernel's self-tests compare memleak_nr_free_pages()
 * before and after their work while background scans resize the table;
 * a page taken and not yet counted made 'selftest slab' find 8 pages
 * gone, i386, 4 CPUs); and the classification's notes (classify.c),
 * which, out of memory, disable the collector and take no more.
 *
 * The test is linked with alloc_pages() and __free_pages() wrapped, so
 * that it looks at the count on every call the resize makes, and can
 * make a page allocation fail.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/mm.h>
#include <kernel/slab.h>
#include <asm/host.h>
#include "../../mm/kmemleak/internal.h"
#include "test_memleak.h"

struct page *__real_alloc_pages(unsigned int gfp, unsigned int order);
void __real___free_pages(struct page *page, unsigned int order);

/* While set, every page call checks that no page is uncounted. */
static bool checking;
/* While set, every page allocation fails. */
static bool no_pages;
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
	return no_pages ? NULL : __real_alloc_pages(gfp, order);
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

/*
 * Notes until one finds no memory: the collector disables itself and
 * says why; memory back, it notes nothing more (a note half pushed
 * would leave the queue's pairs one entry off), and the classification
 * drains what was noted.
 */
static void test_notes_out_of_memory(void **state)
{
	struct memleak_queue none = { NULL, NULL, 0 };
	void *p = track(64, 1);
	struct memleak_block *b = memleak_lookup_block((unsigned long)p);
	unsigned long base = memleak_queue_pages(), full, n;

	(void)state;
	memleak_flush_pending();
	no_pages = true;
	for (n = 0; memleak.enabled && n < 100000; n++)
		memleak_classify_note(b, (unsigned long)p, (unsigned long)p);
	no_pages = false;
	assert_false(memleak.enabled);
	full = memleak_queue_pages();
	for (unsigned int i = 0; i < 2 * MEMLEAK_QUEUE_CHUNK; i++)
		memleak_classify_note(b, (unsigned long)p, (unsigned long)p);
	assert_int_equal(memleak_queue_pages(), full);
	memleak_classify_suspects(&none);
	slab_shrink_all();	/* the notes' chunks, drained, go back */
	assert_true(memleak_queue_pages() <= base);
	expect_disabled("out of memory for classifying suspects");
	untrack(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resize_pages_counted),
		cmocka_unit_test(test_failed_resize_counted),
		cmocka_unit_test(test_notes_out_of_memory),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
