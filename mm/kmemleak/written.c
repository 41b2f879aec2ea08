/*
 * The pages written while a scan runs (<kernel/written.h>), so that the
 * pause of step 5 (scan.c) reads again only what may have changed since
 * the concurrent mark read it:
 *
 *   mark begins            the world stopped          the pause ends
 *   memleak_track_writes() memleak_collect_writes()   memleak_untrack_writes()
 *        |  writes recorded     | a bit per page of RAM     |
 *        +----------------------+-> memleak_range_written() +
 *
 * A range counts as written when any of its pages was written, when it
 * lies outside RAM, or when the machine cannot tell (then it is read, as
 * it always was). The bitmap is whole pages, taken by the first scan
 * that tracks and kept for the next ones (a page allocation and a free
 * at every scan would stir the page allocator under everyone else's
 * feet); memleak_shrink() gives it back between scans.
 *
 * Locking: only the running scan tracks, one at a time; the bitmap is
 * read and written without memleak_lock while it does, but taken, given
 * back and counted (memleak_written_bitmap_pages()) under it, and never
 * given back while a scan tracks.
 */
#include <kernel/memleak.h>
#include <kernel/bitops.h>
#include <kernel/mm.h>
#include <kernel/string.h>
#include <kernel/written.h>
#include "internal.h"

/* Bit pfn - min_pfn: written since; NULL until a scan needs it. */
static unsigned long *written;
static unsigned int written_order;
static bool tracking;		/* the arch records writes for this scan */
static bool known;		/* written[] says which pages were written */

static size_t bitmap_bytes(void)
{
	return BITS_TO_LONGS(max_pfn - min_pfn) * sizeof(long);
}

/* Before the mark reads anything; without a bitmap, nothing is tracked. */
void memleak_track_writes(void)
{
	unsigned long flags;

	known = false;
	if (!arch_track_written_pages())
		return;
	memleak_enter(&flags);
	if (!written) {
		struct page *pages;

		written_order = get_order(bitmap_bytes());
		pages = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, written_order);
		written = pages ? page_address(pages) : NULL;
	}
	tracking = written != NULL;
	memleak_leave(flags);
	if (!tracking)
		arch_untrack_written_pages();
}

/* memleak_lock held. */
unsigned long memleak_written_bitmap_pages(void)
{
	return written ? 1ul << written_order : 0;
}

/* memleak_lock held: the bitmap goes back unless a scan tracks. */
void memleak_written_shrink(void)
{
	if (!written || tracking)
		return;
	__free_pages(virt_to_page(written), written_order);
	written = NULL;
}

/* With the world stopped: what was written since the mark began. */
bool memleak_collect_writes(void)
{
	if (!tracking)
		return false;
	memset(written, 0, bitmap_bytes());
	known = arch_written_pages(written);
	return known;
}

bool memleak_range_written(unsigned long start, unsigned long end)
{
	if (!known)
		return true;
	for (unsigned long page = start & PAGE_MASK; page < end;
	     page += PAGE_SIZE) {
		if (!virt_addr_valid((void *)page))
			return true;
		if (test_bit((__pa(page) >> PAGE_SHIFT) - min_pfn, written))
			return true;
	}
	return false;
}

void memleak_untrack_writes(void)
{
	unsigned long flags;

	known = false;
	if (!tracking)
		return;
	arch_untrack_written_pages();
	memleak_enter(&flags);
	tracking = false;
	memleak_leave(flags);
}
