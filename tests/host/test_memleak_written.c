/*
 * The pause of the leak collector's scan (mm/kmemleak/scan.c, step 5)
 * with written pages (mm/kmemleak/written.c, <kernel/written.h>): the
 * test plays the machine, whose written pages are those it wrote with
 * write_word() since tracking started. A block the mark read is read
 * again only when its page was written; a block that turned gray
 * without being read (an annotation during the scan) is read in full;
 * so are a root's pages only where written, but a range given whole;
 * without tracking, or without memory for the bitmap, everything is
 * read, as before.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kernel/bitops.h>
#include <kernel/time.h>
#include <kernel/written.h>

#include <stdlib.h>
#include "test_memleak.h"

/*
 * The machine as the test plays it: defined here, these take the place
 * of mm/written_untracked.c's (the host library's, which cannot track).
 */
#define MAX_WRITTEN 16
static bool tracking_works = true;
static unsigned long written_pages[MAX_WRITTEN];
static unsigned int nr_written;
static unsigned int nr_tracked;	/* arch_track_written_pages() calls */

bool arch_track_written_pages(void)
{
	nr_written = 0;
	nr_tracked++;
	return tracking_works;
}

bool arch_written_pages(unsigned long *bits)
{
	for (unsigned int i = 0; i < nr_written; i++)
		set_bit((__pa(written_pages[i]) >> PAGE_SHIFT) - min_pfn, bits);
	return true;
}

void arch_untrack_written_pages(void)
{
}

/* A store the machine records, as a dirty bit would. */
static void write_word(void *at, unsigned long value)
{
	*(unsigned long *)at = value;
	assert_true(nr_written < MAX_WRITTEN);
	written_pages[nr_written++] = (unsigned long)at & PAGE_MASK;
}

/*
 * A heap for each test: NR_HELD blocks of HELD_SIZE bytes held from the
 * roots through an array, and one white block, so that the pause runs.
 */
#define NR_HELD 64
#define HELD_SIZE 256
static unsigned long *held[NR_HELD];
static unsigned long *holder;	/* the array: roots[0] points to it */
static unsigned long *white;

static void make_heap(void)
{
	holder = track(NR_HELD * sizeof(long), 1);
	for (unsigned int i = 0; i < NR_HELD; i++) {
		held[i] = track(HELD_SIZE, 1);
		holder[i] = (unsigned long)held[i];
	}
	roots[0] = (unsigned long)holder;
	white = track(64, 1);
}

static void free_heap(void)
{
	for (unsigned int i = 0; i < NR_HELD; i++)
		untrack(held[i]);
	untrack(holder);
	untrack(white);
}

/* A scan with late() run just before the pause, as another CPU might. */
static void scan_with_late(void (*late)(void))
{
	host_memleak_on_stop_world = late;
	scan_later();
	host_memleak_on_stop_world = NULL;
}

/* Nothing written: the pause reads the roots and no block again. */
static void test_unwritten_blocks_not_read(void **state)
{
	unsigned int tracked = nr_tracked;

	(void)state;
	make_heap();
	scan_later();
	assert_int_equal(nr_tracked, tracked + 1);
	assert_true(is_suspect(white));
	assert_true(memleak.pause_bytes < HELD_SIZE);
	free_heap();
}

/* Without tracking, the pause reads every block the mark read. */
static void test_untracked_reads_all(void **state)
{
	(void)state;
	make_heap();
	tracking_works = false;
	scan_later();
	tracking_works = true;
	assert_true(is_suspect(white));
	assert_true(memleak.pause_bytes >= NR_HELD * HELD_SIZE);
	free_heap();
}

/* Another CPU stores the white block's address, just before the pause. */
static void store_recorded(void)
{
	write_word(&held[7][3], (unsigned long)white);
}

static void store_unrecorded(void)
{
	held[7][3] = (unsigned long)white;
}

static void test_written_block_read_again(void **state)
{
	unsigned long rescued = memleak.nr_rescued;

	(void)state;
	make_heap();
	scan_with_late(store_recorded);
	assert_false(is_suspect(white));
	assert_int_equal(memleak.nr_rescued - rescued, 1);
	/* Only the page written was read again (and the roots). */
	assert_true(memleak.pause_bytes <= PAGE_SIZE + sizeof(roots) +
						   NR_HELD * sizeof(long));
	free_heap();
}

/*
 * What the machine does not report is not read again: a write that
 * tracking missed would be missed by the pause too (this is why only
 * machines that record every write may say they track).
 */
static void test_unreported_write_not_read(void **state)
{
	(void)state;
	make_heap();
	scan_with_late(store_unrecorded);
	assert_true(is_suspect(white));
	free_heap();
}

/*
 * A block unreferenced during the mark, annotated as no leak just
 * before the pause: gray, but never read. It holds the only pointer to
 * the white block, written before the scan, so its page is not written
 * since: the pause must read it in full all the same.
 */
static unsigned long *annotated;

static void annotate(void)
{
	memleak_not_leak(annotated);
}

static void test_unread_gray_block_read(void **state)
{
	(void)state;
	make_heap();
	annotated = track(64, 1);
	annotated[2] = (unsigned long)white;
	scan_with_late(annotate);
	assert_false(is_suspect(white));
	assert_false(is_suspect(annotated));
	untrack(annotated);
	free_heap();
}

/*
 * The same block read whole by one scan, then annotated unread in the
 * next: what the mark read is forgotten when a scan starts, so the
 * pause of the second scan reads it.
 */
static void test_read_forgotten_by_next_scan(void **state)
{
	(void)state;
	make_heap();
	annotated = track(64, 1);
	annotated[2] = (unsigned long)white;
	roots[1] = (unsigned long)annotated;
	scan_later();
	assert_false(is_suspect(white));
	roots[1] = 0;
	scan_with_late(annotate);
	assert_false(is_suspect(white));
	assert_false(is_suspect(annotated));
	untrack(annotated);
	free_heap();
}

/*
 * A block the mark read is freed before the pause, and its slot taken
 * by a larger new block at the same start, as an allocator reusing the
 * memory would give it (the collector is told of both; the memory is
 * not touched, so no page is written): the new block's tail, which the
 * mark never read, holds the only pointer to the white block. What the
 * mark read belongs to the old block, so the pause reads the new one.
 */
#define SMALL_SIZE 64
#define LATE_WORD 20	/* past SMALL_SIZE, within HELD_SIZE */
static unsigned long *reused_slot;

static void reuse_read_slot(void)
{
	memleak_free(reused_slot);
	memleak_alloc(reused_slot, HELD_SIZE, 1);
	memleak_flush_pending();	/* a record now, not a logged allocation */
}

static void test_reused_slot_read(void **state)
{
	(void)state;
	make_heap();
	reused_slot = kzalloc(HELD_SIZE, GFP_KERNEL);
	reused_slot[LATE_WORD] = (unsigned long)white;
	memleak_alloc(reused_slot, SMALL_SIZE, 1);
	roots[1] = (unsigned long)reused_slot;
	scan_with_late(reuse_read_slot);
	assert_false(is_suspect(white));
	assert_true(memleak_lookup_block((unsigned long)reused_slot)->flags &
		    MEMLEAK_NEW);
	roots[1] = 0;
	untrack(reused_slot);
	free_heap();
}

/*
 * A root in RAM (a page of the arena, no block), and one whose range
 * moves: empty while the mark runs, given whole in the pause, as a
 * stack's live part may grow.
 */
static unsigned long *root_page;
static unsigned long *moving_root;

static void scan_written_test_roots(void)
{
	if (root_page)
		memleak_scan_range(root_page,
				   root_page + PAGE_SIZE / sizeof(long));
	if (moving_root && memleak.confirming)
		memleak_scan_range_whole(moving_root, moving_root + 8);
}
MEMLEAK_ROOT("written test roots", scan_written_test_roots);

static void store_in_root_recorded(void)
{
	write_word(&root_page[5], (unsigned long)white);
}

static void store_in_root_unrecorded(void)
{
	root_page[5] = (unsigned long)white;
}

static void test_root_pages(void (*store)(void), bool rescued)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	assert_non_null(page);
	root_page = page_address(page);
	memset(root_page, 0, PAGE_SIZE);
	make_heap();
	scan_with_late(store);
	assert_int_equal(is_suspect(white), !rescued);
	root_page = NULL;
	__free_pages(page, 0);
	free_heap();
}

/* A root's page written before the pause is read again; others are not. */
static void test_written_root_page_read(void **state)
{
	(void)state;
	test_root_pages(store_in_root_recorded, true);
}

static void test_unwritten_root_page_passed_over(void **state)
{
	(void)state;
	test_root_pages(store_in_root_unrecorded, false);
}

/* A range the mark never saw, unwritten since: read whole all the same. */
static void test_moving_root_read_whole(void **state)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	(void)state;
	assert_non_null(page);
	make_heap();
	moving_root = page_address(page);
	memset(moving_root, 0, PAGE_SIZE);
	moving_root[3] = (unsigned long)white;
	scan_later();
	assert_false(is_suspect(white));
	moving_root = NULL;
	__free_pages(page, 0);
	free_heap();
}

/*
 * No page left for the bitmap of written pages: the pause reads
 * everything again, the collector stays on and reports the same.
 */
static void test_no_memory_for_the_bitmap(void **state)
{
	struct hoard *h = calloc(1, sizeof(*h));

	(void)state;
	assert_non_null(h);
	make_heap();
	memleak_flush_pending();
	memleak_shrink();	/* the bitmap the scans before kept goes back */
	take_all_pages(h);
	scan_later();
	give_back_pages(h);
	free(h);
	assert_true(memleak.enabled);
	assert_false(memleak.pause_knew_writes);
	assert_true(is_suspect(white));
	assert_true(memleak.pause_bytes >= NR_HELD * HELD_SIZE);
	free_heap();
}

/*
 * The bitmap stays from scan to scan, and memleak_shrink() gives it back,
 * but never in the middle of a scan that tracks (here just before the
 * world stops, as another CPU's shrink could).
 */
static void shrink(void)
{
	memleak_shrink();
}

static void test_shrink_during_scan(void **state)
{
	(void)state;
	make_heap();
	scan_with_late(shrink);
	assert_true(memleak.pause_knew_writes);
	assert_true(is_suspect(white));
	assert_true(memleak.pause_bytes < HELD_SIZE);
	free_heap();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_unwritten_blocks_not_read,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_untracked_reads_all,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_written_block_read_again,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_unreported_write_not_read,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_unread_gray_block_read,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_read_forgotten_by_next_scan,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_reused_slot_read,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_written_root_page_read,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(
			test_unwritten_root_page_passed_over,
			memleak_test_setup, memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_moving_root_read_whole,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_shrink_during_scan,
						memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_no_memory_for_the_bitmap,
						memleak_test_setup,
						memleak_test_teardown),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
