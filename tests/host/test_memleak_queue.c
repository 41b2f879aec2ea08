/*
 * Host tests of the scan's queues (mm/kmemleak/queue.c) and of pinning:
 * first in, first out across chunk boundaries, peeks stay in the first
 * chunk, an emptied queue keeps nothing, a sort puts every entry in
 * order, and a block freed while the collector is pinned keeps its
 * metadata until the last unpin, or, out of memory for that, the
 * collector turns itself off.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <stdlib.h>
#include "../../mm/kmemleak/internal.h"
#include "test_memleak.h"

static void scan_no_roots(void)
{
}
MEMLEAK_ROOT("queue test", scan_no_roots);

static struct memleak_block *fake(unsigned long i)
{
	return (struct memleak_block *)(0x1000 + i * 8);
}

static void test_fifo_across_chunks(void **state)
{
	unsigned long n = 3 * MEMLEAK_QUEUE_CHUNK + 7, seen = 0;
	struct memleak_queue q = { NULL, NULL, 0 };
	struct memleak_queue_chunk *chunk;
	struct memleak_block *b;
	unsigned int i;

	(void)state;
	assert_null(memleak_queue_pop(&q));
	for (unsigned long k = 0; k < n; k++)
		assert_true(memleak_queue_push(&q, fake(k)));
	assert_int_equal(q.nr, n);
	memleak_queue_for_each(&q, chunk, i, b)
		assert_ptr_equal(b, fake(seen++));
	assert_int_equal(seen, n);
	assert_ptr_equal(*memleak_queue_peek(&q, 2), fake(2));
	/* A peek never crosses into the next chunk. */
	assert_null(memleak_queue_peek(&q, MEMLEAK_QUEUE_CHUNK));
	for (unsigned long k = 0; k < n; k++) {
		assert_ptr_equal(memleak_queue_pop(&q), fake(k));
		/* Pushing while popping keeps the order. */
		if (k == 10)
			assert_true(memleak_queue_push(&q, fake(n)));
	}
	assert_ptr_equal(memleak_queue_pop(&q), fake(n));
	assert_null(memleak_queue_pop(&q));
	assert_int_equal(q.nr, 0);
	assert_null(q.first);
	assert_null(q.last);
}

static void test_empty_frees_chunks(void **state)
{
	struct memleak_queue q = { NULL, NULL, 0 };

	(void)state;
	for (unsigned long k = 0; k < 5 * MEMLEAK_QUEUE_CHUNK; k++)
		assert_true(memleak_queue_push(&q, fake(k)));
	memleak_queue_empty(&q);
	assert_null(q.first);
	assert_null(memleak_queue_pop(&q));
	assert_true(memleak_queue_push(&q, fake(1)));
	assert_ptr_equal(memleak_queue_pop(&q), fake(1));
}

static bool by_jiffies(const struct memleak_block *a,
		       const struct memleak_block *b)
{
	return a->jiffies < b->jiffies;
}

/*
 * Random keys (with repeats) over three and a half chunks, the first
 * popped from so that it starts inside: sorted, each entry once.
 */
static void test_sort_across_chunks(void **state)
{
	unsigned long n = 3 * MEMLEAK_QUEUE_CHUNK + MEMLEAK_QUEUE_CHUNK / 2;
	struct memleak_block *blocks = calloc(n + 5, sizeof(*blocks));
	struct memleak_queue q = { NULL, NULL, 0 };
	unsigned long seed = 12345, sum = 0, prev = 0;
	struct memleak_block *b;

	(void)state;
	assert_non_null(blocks);
	for (unsigned long k = 0; k < n + 5; k++) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		blocks[k].jiffies = (seed >> 33) % (n / 4);
		blocks[k].start = k;
		assert_true(memleak_queue_push(&q, &blocks[k]));
	}
	for (unsigned long k = 0; k < 5; k++)
		assert_ptr_equal(memleak_queue_pop(&q), &blocks[k]);
	assert_true(memleak_queue_sort(&q, by_jiffies));
	assert_int_equal(q.nr, n);
	for (unsigned long k = 0; k < n; k++) {
		b = memleak_queue_pop(&q);
		assert_non_null(b);
		assert_true(b->jiffies >= prev);
		prev = b->jiffies;
		sum += b->start;
	}
	assert_null(memleak_queue_pop(&q));
	/* Each of blocks 5 .. n + 4 once: their starts add up. */
	assert_int_equal(sum, (n + 4) * (n + 5) / 2 - 10);
	free(blocks);
}

/* Freed while pinned: out of the index, metadata kept until unpinned. */
static void test_pinned_free_is_deferred(void **state)
{
	void *p = kmalloc(40, GFP_KERNEL);
	struct memleak_block *b;

	(void)state;
	memleak_alloc(p, 40, 1);
	memleak_flush_pending();
	b = memleak_lookup_block((unsigned long)p);
	assert_non_null(b);
	memleak_pin();
	memleak_pin();
	memleak_free(p);
	assert_int_equal(memleak.nr_blocks, 0);
	assert_ptr_equal(*memleak_queue_peek(&memleak.deferred, 0), b);
	/* Still readable: what a queue holding it would read. */
	assert_int_equal(b->start, (unsigned long)p);
	assert_false(b->flags & MEMLEAK_ALLOCATED);
	memleak_unpin();
	assert_ptr_equal(*memleak_queue_peek(&memleak.deferred, 0), b);
	memleak_unpin();
	assert_int_equal(memleak.deferred.nr, 0);
	kfree(p);
}

/* Every page the allocator has left, from the largest blocks down. */
struct hoard {
	struct page *page[4096];
	unsigned int order[4096], nr;
};

static void take_all_pages(struct hoard *h)
{
	for (int order = MAX_ORDER - 1; order >= 0; order--) {
		struct page *page;

		while (h->nr < ARRAY_SIZE(h->page) &&
		       (page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order))) {
			h->page[h->nr] = page;
			h->order[h->nr++] = order;
		}
	}
}

static void give_back_pages(struct hoard *h)
{
	while (h->nr--)
		__free_pages(h->page[h->nr], h->order[h->nr]);
}

/*
 * Out of memory for the blocks freed while the collector is pinned: it
 * disables itself with a message and keeps the block's metadata (a
 * queue may point to it); nothing crashes. Last of all: the collector
 * stays off.
 */
#define PINNED_FREES (MEMLEAK_QUEUE_CHUNK + 8)

static void test_deferred_out_of_memory(void **state)
{
	struct memleak_queue full = { NULL, NULL, 0 };
	struct hoard *h = calloc(1, sizeof(*h));
	void **p = calloc(PINNED_FREES, sizeof(*p));
	unsigned long flags;

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
	/* And every chunk the queues' cache still has. */
	memleak_enter(&flags);
	while (memleak_queue_push(&full, fake(1)))
		;
	memleak_pin();
	memleak_leave(flags);
	assert_true(memleak.enabled);
	for (unsigned int i = 0; i < PINNED_FREES; i++)
		memleak_free(p[i]);
	memleak_flush_pending();
	assert_false(memleak.enabled);
	assert_non_null(strstr(host_log(), "memleak: disabled: out of memory "
					   "for blocks freed during a scan"));
	memleak_enter(&flags);
	memleak_unpin();
	memleak_queue_empty(&full);
	memleak_leave(flags);
	give_back_pages(h);
	for (unsigned int i = 0; i < PINNED_FREES; i++)
		kfree(p[i]);
	free(p);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_across_chunks),
		cmocka_unit_test(test_empty_frees_chunks),
		cmocka_unit_test(test_sort_across_chunks),
		cmocka_unit_test(test_pinned_free_is_deferred),
		/* Last: the collector is off after it. */
		cmocka_unit_test(test_deferred_out_of_memory),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
