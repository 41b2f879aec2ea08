/*
 * Helpers shared by the host tests of the leak collector: a root area
 * of the tests' own, a collector started on a fresh allocator for each
 * group of tests, and blocks tracked and untracked as the allocators'
 * hooks would.
 */
#ifndef TEST_MEMLEAK_H
#define TEST_MEMLEAK_H

#include <kernel/memleak.h>
#include <kernel/slab.h>
#include <kernel/time.h>
#include "../../mm/kmemleak/internal.h"
#include "test_mm.h"

#define NR_ROOTS 8

/* The test's root area: the only memory scanned besides the blocks. */
static unsigned long roots[NR_ROOTS];

static void scan_test_roots(void)
{
	memleak_scan_range(roots, roots + NR_ROOTS);
}
MEMLEAK_ROOT("test roots", scan_test_roots);

static inline int memleak_group_setup(void **state)
{
	(void)state;
	host_mm_init();
	memleak_init();
	assert_true(memleak.enabled);
	assert_true(memleak.initialized);
	return 0;
}

/* Each test: empty roots, pointers to a block's start or alias only. */
static inline int memleak_test_setup(void **state)
{
	(void)state;
	memset(roots, 0, sizeof(roots));
	memleak.interior = false;
	host_log_clear();
	return 0;
}

#ifdef MEMLEAK_TEST_FAIL_ATOMIC
/*
 * For a test that defines MEMLEAK_TEST_FAIL_ATOMIC and links with
 * -Wl,--wrap=kmem_cache_alloc (tests/host/build.mk): the collector's
 * own allocations (its queues' chunks among them) are GFP_ATOMIC, and
 * while fail_atomic is set the wrapper refuses them, as an exhausted
 * allocator would, once atomic_granted more have been given.
 */
static bool fail_atomic;
static unsigned long atomic_granted;

void *__real_kmem_cache_alloc(struct kmem_cache *c, unsigned int gfp);

void *__wrap_kmem_cache_alloc(struct kmem_cache *c, unsigned int gfp)
{
	if (fail_atomic && (gfp & __GFP_HIGH)) {
		if (!atomic_granted)
			return NULL;
		atomic_granted--;
	}
	return __real_kmem_cache_alloc(c, gfp);
}
#endif

/*
 * The collector, disabled, turned back on for the rest of the test (as
 * only a test does), its reason forgotten.
 */
static inline void turn_collector_on_again(void)
{
	memleak.enabled = true;
	memleak.disabled_why = NULL;
	memleak_set_tracking(true);
}

/*
 * The collector disabled itself and said why (why is in the log; a
 * reason is kept for 'memleak stats'): it is turned back on and its log
 * cleared.
 */
static inline void expect_disabled(const char *why)
{
	assert_non_null(strstr(host_log(), why));
	assert_false(memleak.enabled);
	assert_non_null(memleak.disabled_why);
	turn_collector_on_again();
	host_log_clear();
}

/*
 * Each test frees what it tracked; the collector stays enabled and
 * leaves interrupts as it found them.
 */
static inline int memleak_test_teardown(void **state)
{
	(void)state;
	memleak_flush_pending();
	assert_true(memleak.enabled);
	assert_int_equal(memleak.nr_blocks, 0);
	assert_int_equal(host_irqs_off, 0);
	return 0;
}

/*
 * A block of size zeroed bytes, tracked with min_count references
 * needed. It waits in this CPU's log of recent allocations until
 * something reads the blocks (a scan, dump, stats, an annotation).
 */
static inline void *track(size_t size, int min_count)
{
	void *p = kzalloc(size, GFP_KERNEL);

	assert_non_null(p);
	memleak_alloc(p, size, min_count);
	return p;
}

/*
 * n blocks of size bytes, each pointing to the next from its word 1 and
 * the first from roots[0]: all reachable, and a scan's gray queue never
 * holds more than one of them.
 */
static inline void track_chain(unsigned long **blocks, unsigned int n,
			       size_t size)
{
	for (unsigned int i = 0; i < n; i++)
		blocks[i] = track(size, 1);
	for (unsigned int i = 0; i + 1 < n; i++)
		blocks[i][1] = (unsigned long)blocks[i + 1];
	roots[0] = (unsigned long)blocks[0];
}

struct flag_count {
	unsigned int flags;	/* 0: every block */
	unsigned long n;
};

static void count_if_flagged(struct memleak_block *b, unsigned long start,
			     void *ctx)
{
	struct flag_count *c = ctx;

	(void)start;
	c->n += !c->flags || (b->flags & c->flags);
}

/* Blocks having any of flags, 0 for all, by a walk of the index. */
static inline unsigned long count_blocks_flagged(unsigned int flags)
{
	struct flag_count c = { flags, 0 };

	memleak_walk_blocks(count_if_flagged, &c);
	return c.n;
}

static inline void untrack(void *p)
{
	memleak_free(p);
	kfree(p);
}

static inline unsigned long count_suspects(void)
{
	return count_blocks_flagged(MEMLEAK_SUSPECT);
}

static inline void untrack_all(unsigned long **blocks, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		untrack(blocks[i]);
}

/* Blocks are old enough to be reported once a scan runs 2 s later. */
static inline void scan_later(void)
{
	jiffies += 2 * HZ;
	assert_int_equal(memleak_scan(), 0);
	assert_int_equal(host_irqs_off, 0);
}

/* Whether the block starting at p is a suspect after the last scan. */
static inline bool is_suspect(const void *p)
{
	struct memleak_block *b = memleak_lookup_block((unsigned long)p);

	assert_non_null(b);
	assert_int_equal(block_start(b), (unsigned long)p);
	return b->flags & MEMLEAK_SUSPECT;
}

#endif
