/*
 * Host tests of the scan's queues (mm/kmemleak/queue.c) and of pinning:
 * first in, first out across chunk boundaries, peeks stay in the first
 * chunk, an emptied queue keeps nothing (the gray queue's pop keeps
 * its last chunk until emptied), spare chunks are taken ahead
 * and kept, a sort puts every entry in
 * order, and pinning: a block freed while the collector is pinned
 * leaves the index at once, but the memory of its record (its slab's
 * records, its tree node) and of its scan areas is kept until the last
 * unpin; a slab object's record is reused by the next block in its slot
 * (MEMLEAK_NEW during a scan, which the scan skips when it had queued
 * the old one); such frees need no memory.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <stdlib.h>
#include <asm/host.h>
#include "../../mm/kmemleak/internal.h"
#include "test_memleak.h"

/*
 * The tests' root: none, but a test may have it free a block and track
 * another in its slot, as another CPU could while the scan runs.
 */
static void *reuse_old, *reuse_new;

static void reuse_a_slot(void)
{
	if (!reuse_old)
		return;
	memleak_free(reuse_old);
	kfree(reuse_old);
	reuse_new = kmalloc(1024, GFP_KERNEL);
	memleak_alloc(reuse_new, 1024, 1);
	memleak_flush_pending();	/* its record now, not in the log */
	reuse_old = NULL;
}
MEMLEAK_ROOT("queue test", reuse_a_slot);

static struct memleak_block *fake(unsigned long i)
{
	return (struct memleak_block *)(0x1000 + i * 8);
}

/* Pops the next entry: block fake(k), start k. */
static void assert_pops(struct memleak_queue *q, unsigned long k)
{
	struct memleak_queue_entry e;

	assert_true(memleak_queue_pop(q, &e));
	assert_ptr_equal(e.block, fake(k));
	assert_int_equal(e.start, k);
}

static void test_fifo_across_chunks(void **state)
{
	unsigned long n = 3 * MEMLEAK_QUEUE_CHUNK + 7, seen = 0;
	struct memleak_queue q = { NULL, NULL, 0 };
	struct memleak_queue_chunk *chunk;
	struct memleak_queue_entry *e, popped;
	unsigned int i;

	(void)state;
	assert_false(memleak_queue_pop(&q, &popped));
	for (unsigned long k = 0; k < n; k++)
		assert_true(memleak_queue_push(&q, fake(k), k));
	assert_int_equal(q.nr, n);
	memleak_queue_for_each(&q, chunk, i, e) {
		assert_ptr_equal(e->block, fake(seen));
		assert_int_equal(e->start, seen++);
	}
	assert_int_equal(seen, n);
	assert_ptr_equal(memleak_queue_peek(&q, 2)->block, fake(2));
	/* A peek never crosses into the next chunk. */
	assert_null(memleak_queue_peek(&q, MEMLEAK_QUEUE_CHUNK));
	for (unsigned long k = 0; k < n; k++) {
		assert_pops(&q, k);
		/* Pushing while popping keeps the order. */
		if (k == 10)
			assert_true(memleak_queue_push(&q, fake(n), n));
	}
	assert_pops(&q, n);
	assert_false(memleak_queue_pop(&q, &popped));
	assert_int_equal(q.nr, 0);
	assert_null(q.first);
	assert_null(q.last);
}

/*
 * Popped with memleak_queue_pop_keeping(), an emptied queue keeps its
 * last chunk, from its start, for the next push; emptying frees it.
 */
static void test_pop_keeping_last_chunk(void **state)
{
	struct memleak_queue q = { NULL, NULL, 0 };
	struct memleak_queue_entry popped;
	struct memleak_queue_chunk *last;

	(void)state;
	for (unsigned long k = 0; k < MEMLEAK_QUEUE_CHUNK + 3; k++)
		assert_true(memleak_queue_push(&q, fake(k), k));
	last = q.last;
	for (unsigned long k = 0; k < MEMLEAK_QUEUE_CHUNK + 3; k++) {
		assert_true(memleak_queue_pop_keeping(&q, &popped));
		assert_ptr_equal(popped.block, fake(k));
		assert_int_equal(popped.start, k);
	}
	assert_false(memleak_queue_pop_keeping(&q, &popped));
	assert_int_equal(q.nr, 0);
	assert_ptr_equal(q.first, last);	/* the first went back */
	assert_ptr_equal(q.last, last);
	assert_int_equal(last->head, 0);
	assert_int_equal(last->tail, 0);
	assert_true(memleak_queue_push(&q, fake(9), 9));
	assert_ptr_equal(q.last, last);
	assert_ptr_equal(memleak_queue_peek(&q, 0)->block, fake(9));
	assert_pops(&q, 9);
	memleak_queue_empty(&q);
	assert_null(q.first);
	assert_null(q.last);
}

static void test_empty_frees_chunks(void **state)
{
	struct memleak_queue q = { NULL, NULL, 0 };
	struct memleak_queue_entry popped;

	(void)state;
	for (unsigned long k = 0; k < 5 * MEMLEAK_QUEUE_CHUNK; k++)
		assert_true(memleak_queue_push(&q, fake(k), k));
	memleak_queue_empty(&q);
	assert_null(q.first);
	assert_false(memleak_queue_pop(&q, &popped));
	assert_true(memleak_queue_push(&q, fake(1), 1));
	assert_pops(&q, 1);
}

/* Spare chunks taken ahead, memleak_lock held; how many were taken. */
static unsigned int take_spares(void)
{
	unsigned long flags;
	unsigned int n = 0;

	memleak_enter(&flags);
	while (memleak_queue_take_spare())
		n++;
	memleak_leave(flags);
	return n;
}

/*
 * Two spare chunks are taken ahead, no more, and a queue that fills
 * two chunks takes them; the chunks it empties come back as spares.
 */
static void test_spares_taken_ahead(void **state)
{
	struct memleak_queue q = { NULL, NULL, 0 };

	(void)state;
	take_spares();
	assert_false(memleak_queue_short_of_spares());
	assert_int_equal(take_spares(), 0);
	for (unsigned long k = 0; k < 2 * MEMLEAK_QUEUE_CHUNK; k++)
		assert_true(memleak_queue_push(&q, fake(k), k));
	assert_true(memleak_queue_short_of_spares());	/* taken */
	assert_true(memleak_queue_push(&q, fake(0), 0));
	memleak_queue_empty(&q);
	assert_false(memleak_queue_short_of_spares());
	assert_int_equal(take_spares(), 0);
}

/*
 * After a scan, the chunks a long queue emptied go back to the page
 * allocator (memleak_queue_shrink()): the cache keeps only the spares,
 * a page each.
 */
static void test_shrink_gives_chunks_back(void **state)
{
	struct memleak_queue q = { NULL, NULL, 0 };
	unsigned long before;

	(void)state;
	take_spares();
	memleak_queue_shrink();
	before = memleak_queue_pages();
	for (unsigned long k = 0; k < 40 * MEMLEAK_QUEUE_CHUNK; k++)
		assert_true(memleak_queue_push(&q, fake(k), k));
	assert_true(memleak_queue_pages() >= 40);	/* a page a chunk */
	memleak_queue_empty(&q);
	memleak_queue_shrink();
	assert_int_equal(memleak_queue_pages(), before);
	assert_true(before <= 3);
	assert_false(memleak_queue_short_of_spares());
}

/*
 * The scan's own queues go back a few chunks a window, the lock taken
 * and given back by the emptying itself: the queue is left empty, and
 * its chunks all reach the cache.
 */
static void test_empty_in_windows(void **state)
{
	struct memleak_queue q = { NULL, NULL, 0 };
	unsigned long before, flags;

	(void)state;
	take_spares();
	memleak_queue_shrink();
	before = memleak_queue_pages();
	for (unsigned long k = 0; k < 30 * MEMLEAK_QUEUE_CHUNK + 7; k++)
		assert_true(memleak_queue_push(&q, fake(k), k));
	memleak_queue_empty_in_windows(&q);
	assert_null(q.first);
	assert_null(q.last);
	assert_int_equal(q.nr, 0);
	memleak_queue_empty_in_windows(&q);	/* empty: nothing to do */
	memleak_enter(&flags);			/* the lock was given back */
	memleak_leave(flags);
	memleak_queue_shrink();
	assert_int_equal(memleak_queue_pages(), before);
}

static bool by_jiffies(const struct memleak_queue_entry *a,
		       const struct memleak_queue_entry *b)
{
	return a->block->jiffies < b->block->jiffies;
}

/*
 * Random keys (with repeats) over three and a half chunks, the first
 * popped from so that it starts inside: sorted, each entry once, its
 * start still beside its block.
 */
static void test_sort_across_chunks(void **state)
{
	unsigned long n = 3 * MEMLEAK_QUEUE_CHUNK + MEMLEAK_QUEUE_CHUNK / 2;
	struct memleak_block *blocks = calloc(n + 5, sizeof(*blocks));
	struct memleak_queue q = { NULL, NULL, 0 };
	unsigned long seed = 12345, sum = 0, prev = 0;
	struct memleak_queue_entry e;

	(void)state;
	assert_non_null(blocks);
	for (unsigned long k = 0; k < n + 5; k++) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		blocks[k].jiffies = (seed >> 33) % (n / 4);
		/* A label for a start: no address. */
		assert_true(memleak_queue_push(&q, &blocks[k], 1000 + k));
	}
	for (unsigned long k = 0; k < 5; k++) {
		assert_true(memleak_queue_pop(&q, &e));
		assert_ptr_equal(e.block, &blocks[k]);
	}
	assert_true(memleak_queue_sort(&q, by_jiffies));
	assert_int_equal(q.nr, n);
	for (unsigned long k = 0; k < n; k++) {
		assert_true(memleak_queue_pop(&q, &e));
		assert_true(e.block->jiffies >= prev);
		assert_int_equal(e.start,
				 1000 + (unsigned long)(e.block - blocks));
		prev = e.block->jiffies;
		sum += (unsigned long)(e.block - blocks);
	}
	assert_false(memleak_queue_pop(&q, &e));
	/* Each of blocks 5 .. n + 4 once: their places add up. */
	assert_int_equal(sum, (n + 4) * (n + 5) / 2 - 10);
	free(blocks);
}

/* Tracked now, no waiting in the per-CPU log. */
static struct memleak_block *track_at(const void *p, size_t size)
{
	memleak_alloc(p, size, 1);
	memleak_flush_pending();
	return memleak_lookup_block((unsigned long)p);
}

static void pin(void)
{
	unsigned long flags;

	memleak_enter(&flags);
	memleak_pin();
	memleak_leave(flags);
}

static void unpin(void)
{
	unsigned long flags;

	memleak_enter(&flags);
	memleak_unpin();
	memleak_leave(flags);
	memleak_free_retired();
}

/*
 * A slab given back while pinned: its records leave the index at once
 * but are not freed until the last unpin, so a queue's pointer to a
 * block of the slab reads a free record, not another slab's records.
 */
static void test_pinned_slab_records_kept(void **state)
{
	struct kmem_cache *c = kmem_cache_create("queue_test", 40, 0, 0, NULL);
	struct memleak_block *b, *again;
	void *p;

	(void)state;
	assert_non_null(c);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	b = track_at(p, 40);
	assert_non_null(b);
	pin();
	pin();
	memleak_free(p);
	assert_int_equal(memleak.nr_blocks, 0);
	assert_null(memleak_lookup_block((unsigned long)p));
	assert_false(b->flags & MEMLEAK_ALLOCATED);
	kmem_cache_free(c, p);
	assert_true(kmem_cache_shrink(c) > 0);
	assert_false(memleak_index_page_used((unsigned long)p));
	/* An object of a new slab tracked: new records, the old ones kept. */
	p = kmem_cache_alloc(c, GFP_KERNEL);
	again = track_at(p, 40);
	assert_non_null(again);
	assert_ptr_not_equal(again, b);
	assert_false(b->flags & MEMLEAK_ALLOCATED);
	unpin();
	unpin();
	memleak_free(p);
	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
}

/*
 * A slab object's record is reused by the next block in its slot, even
 * while pinned; made during a scan, that block is MEMLEAK_NEW, which is
 * how the scan tells it from the block it queued (scan.c).
 */
static void test_pinned_record_reused(void **state)
{
	void *p = kmalloc(40, GFP_KERNEL), *q = kmalloc(40, GFP_KERNEL);
	struct memleak_block *b;

	(void)state;
	b = track_at(p, 40);
	assert_non_null(track_at(q, 40));	/* the slab keeps its records */
	pin();
	memleak.marking = true;
	memleak_free(p);
	assert_int_equal(b->flags, 0);
	assert_ptr_equal(track_at(p, 24), b);
	assert_int_equal(b->size, 24);
	assert_int_equal(b->flags & (MEMLEAK_ALLOCATED | MEMLEAK_NEW),
			 MEMLEAK_ALLOCATED | MEMLEAK_NEW);
	memleak.marking = false;
	unpin();
	memleak_free(p);
	memleak_free(q);
	kfree(p);
	kfree(q);
}

/* A block outside slabs freed while pinned: its node kept until the unpin. */
static void test_pinned_tree_block_kept(void **state)
{
	size_t size = 1 << 18;		/* above kmalloc's caches: pages */
	void *p = kmalloc(size, GFP_KERNEL);
	struct memleak_block *b, *again;

	(void)state;
	b = track_at(p, size);
	assert_non_null(b);
	pin();
	memleak_free(p);
	assert_null(memleak_lookup_block((unsigned long)p));
	assert_int_equal(b->flags, 0);
	again = track_at(p, size);
	assert_non_null(again);
	assert_ptr_not_equal(again, b);
	unpin();
	memleak_free(p);
	kfree(p);
}

/*
 * The scan areas of a block freed while pinned stay as they were until
 * the unpin: a scan may be reading them across windows.
 */
static void test_pinned_scan_areas_kept(void **state)
{
	void *p = kmalloc(64, GFP_KERNEL), *q = kmalloc(64, GFP_KERNEL);
	const struct memleak_scan_area *area;
	struct memleak_block *b;

	(void)state;
	b = track_at(p, 64);
	memleak_scan_area(p, 8, 16);
	area = block_scan_areas(b);
	assert_non_null(area);
	pin();
	memleak_free(p);
	assert_false(b->flags & MEMLEAK_EXTRA);
	/* New areas come from other memory while the old ones are kept. */
	track_at(q, 64);
	memleak_scan_area(q, 16, 32);
	assert_ptr_not_equal(block_scan_areas(memleak_lookup_block(
				     (unsigned long)q)), area);
	assert_int_equal(area->offset, 8);
	assert_int_equal(area->length, 16);
	unpin();
	memleak_free(q);
	kfree(p);
	kfree(q);
}

/*
 * A block the scan queued (never a leak: gray from the start) is freed
 * and its slot taken by a new block before the gray queue reaches it:
 * the scan skips the record, now a MEMLEAK_NEW block's, instead of
 * reading the new block as the one it queued (step 5 reads that).
 */
static void test_reused_record_skipped_by_scan(void **state)
{
	void *p = kmalloc(1024, GFP_KERNEL), *keep = kmalloc(1024, GFP_KERNEL);
	struct memleak_block *b;
	unsigned long before;

	(void)state;
	/* keep, white, keeps the slab's records: p's record is reused. */
	b = track_at(p, 1024);
	memleak_alloc(keep, 1024, 1);
	memleak_flush_pending();
	memleak_not_leak(p);		/* gray from the start: queued */
	assert_int_equal(memleak_scan(), 0);
	before = memleak.bytes_scanned;		/* p's 1024 bytes among them */
	reuse_old = p;
	assert_int_equal(memleak_scan(), 0);
	assert_null(reuse_old);
	assert_ptr_equal(reuse_new, p);
	assert_ptr_equal(memleak_lookup_block((unsigned long)p), b);
	assert_true(b->flags & MEMLEAK_NEW);
	assert_int_equal(before - memleak.bytes_scanned, 1024);
	memleak_free(reuse_new);
	memleak_free(keep);
	kfree(reuse_new);
	kfree(keep);
}

/* A failed test leaves no pin nor scan state to the next ones. */
static int teardown(void **state)
{
	unsigned long flags;

	memleak.marking = false;
	memleak_enter(&flags);
	while (memleak.pins)
		memleak_unpin();
	memleak_leave(flags);
	memleak_free_retired();
	reuse_old = NULL;
	return memleak_test_teardown(state);
}

/* Every page the allocator has left, from the largest blocks down. */
/*
 * Blocks freed while the collector is pinned need no memory: with none
 * left, the collector stays on and frees them all.
 */
#define PINNED_FREES (MEMLEAK_QUEUE_CHUNK + 8)

static void test_pinned_frees_need_no_memory(void **state)
{
	struct hoard *h = calloc(1, sizeof(*h));
	void **p = calloc(PINNED_FREES, sizeof(*p));

	(void)state;
	assert_non_null(h);
	assert_non_null(p);
	for (unsigned int i = 0; i < PINNED_FREES; i++) {
		p[i] = kmalloc(16, GFP_KERNEL);
		assert_non_null(p[i]);
		memleak_alloc(p[i], 16, 1);
	}
	memleak_flush_pending();
	take_all_pages(h);
	pin();
	for (unsigned int i = 0; i < PINNED_FREES; i++)
		memleak_free(p[i]);
	memleak_flush_pending();
	assert_true(memleak.enabled);
	assert_int_equal(memleak.nr_blocks, 0);
	unpin();
	give_back_pages(h);
	for (unsigned int i = 0; i < PINNED_FREES; i++)
		kfree(p[i]);
	free(p);
	free(h);
}

/*
 * What the blocks freed while pinned leave is given back after the last
 * unpin a window's worth at a time: the unpin frees 64 things, the rest
 * go in later windows (memleak_free_retired()), which stop as soon as
 * the collector is pinned again and leave the rest to the next unpin.
 */
#define RETIRED_BLOCKS 200

static void test_retired_freed_a_window_at_a_time(void **state)
{
	char *m = host_outside_ram(RETIRED_BLOCKS * 64);
	unsigned long flags, left;

	(void)state;
	for (unsigned int i = 0; i < RETIRED_BLOCKS; i++)
		assert_non_null(track_at(m + i * 64, 64));
	pin();
	for (unsigned int i = 0; i < RETIRED_BLOCKS; i++)
		memleak_free(m + i * 64);
	memleak_flush_pending();
	assert_int_equal(memleak.nr_retired, RETIRED_BLOCKS);
	/* The checks once the lock is dropped: a failure leaves no lock. */
	memleak_enter(&flags);
	memleak_unpin();
	left = memleak.nr_retired;
	memleak_pin();			/* pinned again before the rest */
	memleak_leave(flags);
	assert_int_equal(left, RETIRED_BLOCKS - 64);
	memleak_free_retired();
	assert_int_equal(memleak.nr_retired, RETIRED_BLOCKS - 64);
	memleak_enter(&flags);
	memleak_unpin();
	memleak_leave(flags);
	memleak_free_retired();
	assert_int_equal(memleak.nr_retired, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_across_chunks),
		cmocka_unit_test(test_pop_keeping_last_chunk),
		cmocka_unit_test(test_empty_frees_chunks),
		cmocka_unit_test(test_spares_taken_ahead),
		cmocka_unit_test(test_shrink_gives_chunks_back),
		cmocka_unit_test(test_empty_in_windows),
		cmocka_unit_test(test_sort_across_chunks),
		cmocka_unit_test_teardown(test_pinned_slab_records_kept,
					  teardown),
		cmocka_unit_test_teardown(test_pinned_record_reused,
					  teardown),
		cmocka_unit_test_teardown(test_pinned_tree_block_kept,
					  teardown),
		cmocka_unit_test_teardown(test_pinned_scan_areas_kept,
					  teardown),
		cmocka_unit_test_teardown(test_reused_record_skipped_by_scan,
					  teardown),
		cmocka_unit_test_teardown(test_pinned_frees_need_no_memory,
					  teardown),
		cmocka_unit_test_teardown(test_retired_freed_a_window_at_a_time,
					  teardown),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
