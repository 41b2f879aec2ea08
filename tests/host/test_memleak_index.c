/*
 * Host tests of the leak collector's index (mm/kmemleak/index.c): slab
 * objects found by slot arithmetic, other blocks (large kmalloc pages in
 * the arena, memory outside it) through the tree of start pages, every
 * address of a block mapping to it and no address outside any block
 * mapping to one, overlaps refused, and the pages' marks and records
 * gone with the last block, the scan's marks (set, skipped, gone when a
 * scan clears them or a new block takes the slot), which blocks are
 * simple enough to be found gray without reading them, and the walks
 * over every block (the scan's reset too), also while blocks come and
 * go between its windows. Also checks the index against a brute-force model
 * under random insertions and removals.
 */
#include <kernel/kernel.h>
#include <kernel/errno.h>
#include <kernel/memleak.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include "../../mm/kmemleak/internal.h"
#include "../../mm/kmemleak/index.h"
#include "test_memleak.h"

#include <stdlib.h>

/* No roots: the tests here never scan, but the collector has roots. */
static void scan_no_roots(void)
{
}
MEMLEAK_ROOT("index test", scan_no_roots);

/* Tracked now, no waiting in the per-CPU log. */
static void track_now(const void *p, size_t size)
{
	memleak_alloc(p, size, 1);
	memleak_flush_pending();
}

static void forget(const void *p)
{
	memleak_free(p);
}

static struct memleak_block *find(const void *p, long off)
{
	return memleak_index_find((unsigned long)p + off);
}

static void assert_maps(const void *p, size_t size)
{
	struct memleak_block *b = find(p, 0);

	assert_non_null(b);
	assert_int_equal(block_start(b), (unsigned long)p);
	assert_ptr_equal(find(p, (long)size - 1), b);
	assert_ptr_equal(find(p, (long)size / 2), b);
	assert_null(find(p, (long)size));
	assert_null(find(p, -1));
}

/* Whether the index knows of tracked blocks in p's page. */
static bool page_used(const void *p)
{
	return memleak_index_page_used((unsigned long)p);
}

static int teardown(void **state)
{
	(void)state;
	memleak_flush_pending();
	assert_int_equal(memleak.nr_blocks, 0);
	if (strstr(host_log(), "memleak: disabled"))
		fail_msg("collector disabled itself:\n%s", host_log());
	host_log_clear();
	return 0;
}

/*
 * Slab objects: each maps to its own block, neighbours do not; the
 * slab's records stay while the slab does.
 */
static void test_slab_objects(void **state)
{
	struct kmem_cache *c = kmem_cache_create("index_test", 96, 0, 0, NULL);
	char *a, *b;

	(void)state;
	assert_non_null(c);
	a = kmem_cache_alloc(c, GFP_KERNEL);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	track_now(a, 96);
	assert_true(page_used(a));
	assert_maps(a, 96);
	/* b is allocated but untracked: nothing there. */
	assert_null(find(b, 0));
	track_now(b, 80);
	assert_maps(b, 80);
	/* The rest of b's object is in no block. */
	assert_null(find(b, 88));
	assert_true(memleak.index_bytes > 0);
	forget(a);
	assert_null(find(a, 0));
	assert_maps(b, 80);
	forget(b);
	assert_null(find(b, 0));
	/* The slab's last tracked object gone: its records stay, for the next. */
	assert_true(page_used(a));
	track_now(b, 96);
	assert_maps(b, 96);
	forget(b);
	/* The slab given back: its records go with it. */
	kmem_cache_free(c, a);
	kmem_cache_free(c, b);
	kmem_cache_shrink(c);
	assert_false(page_used(a));
	assert_int_equal(memleak.index_bytes, 0);
	kmem_cache_destroy(c);
}

/*
 * The records of slabs of 42 slots (96-byte objects) take at most an
 * eighth more than their arrays need (a header of 8 bytes and a record
 * a slot): arrays come in eight sizes an octave, from caches of packed
 * slabs (1.10 here). In four sizes, a slab's array held 48 records
 * (1.18).
 */
#define RECORDS_SLABS 2000
static void test_records_fit_their_slabs(void **state)
{
	struct kmem_cache *c = kmem_cache_create("records_test", 96, 0,
						 SLAB_NO_DEBUG, NULL);
	struct memleak_metadata before, after;
	unsigned long n, tracked = 0, need;
	void **objs;

	(void)state;
	assert_non_null(c);
	assert_int_equal(c->order, 0);
	n = RECORDS_SLABS * c->num;
	objs = calloc(n, sizeof(*objs));
	assert_non_null(objs);
	memleak_metadata(&before);
	for (unsigned long i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		assert_non_null(objs[i]);
		/* A slab's first object: one tracked block a slab. */
		if ((unsigned long)objs[i] % PAGE_SIZE == 0) {
			track_now(objs[i], 96);
			tracked++;
		}
	}
	memleak_metadata(&after);
	assert_true(tracked >= RECORDS_SLABS - 2);
	need = tracked * (8 + c->num * sizeof(struct memleak_block));
	assert_true(after.records - before.records <= need + need / 8);
	for (unsigned long i = 0; i < n; i++) {
		if ((unsigned long)objs[i] % PAGE_SIZE == 0)
			forget(objs[i]);
		kmem_cache_free(c, objs[i]);
	}
	free(objs);
	kmem_cache_shrink(c);
	assert_int_equal(kmem_cache_destroy(c), 0);
}

/*
 * The bit pool (slot_bits.c): slabs of up to a quarter of a word of
 * slots take a quarter of a triple, up to half a word a half, so that
 * four or two share one; a piece's bits are its own, cleared when it is
 * given, and the pieces freed are taken again, the pool not growing.
 */
#define NR_PIECES 2720

/* A quarter with all its bits set. */
static u32 set_quarter(void)
{
	u32 q;

	assert_true(memleak_slot_bits_alloc(BITS_PER_LONG / 4, &q));
	for (unsigned int i = 0; i < BITS_PER_LONG / 4; i++) {
		slot_bits_of(q, i)->simple |= slot_bit(q, i);
		slot_bits_of(q, i)->mark |= slot_bit(q, i);
	}
	return q;
}

/*
 * Quarters taken until four in a row fill a new triple (the ones other
 * triples lend come first), its second one freed: the next quarter is
 * that one again, and clear.
 */
static bool lent_piece_is_clear(void)
{
	const unsigned int quarter = BITS_PER_LONG / 4;
	u32 q[16], again;
	unsigned int n = 0;
	bool clear;

	do {
		assert_true(n < ARRAY_SIZE(q));
		q[n++] = set_quarter();
	} while (n < 4 || q[n - 4] % BITS_PER_LONG ||
		 q[n - 1] != q[n - 4] + 3 * quarter);
	memleak_slot_bits_free(q[n - 3], quarter);
	assert_true(memleak_slot_bits_alloc(quarter, &again));
	clear = again == q[n - 3] &&
		!(slot_bits_of(again, 0)->simple & slot_bit(again, 0));
	for (unsigned int k = 0; k < n; k++)
		memleak_slot_bits_free(q[k], quarter);
	return clear;
}

static void test_slot_bits_pieces(void **state)
{
	static u32 quarters[NR_PIECES], halves[NR_PIECES / 2];
	static unsigned char triple_used[NR_PIECES * 2];
	const unsigned int quarter = BITS_PER_LONG / 4;
	unsigned long pages, lowest = ~0ul, triples = 0;
	u32 whole;

	(void)state;
	for (unsigned int round = 0; round < 2; round++) {
		for (unsigned int k = 0; k < NR_PIECES; k++) {
			u32 q;

			assert_true(memleak_slot_bits_alloc(quarter, &q));
			assert_int_equal(q % quarter, 0);
			/* A new piece's bits are clear; then all set. */
			for (unsigned int i = 0; i < quarter; i++) {
				struct slot_bits *b = slot_bits_of(q, i);
				unsigned long bit = slot_bit(q, i);

				assert_false((b->mark | b->simple | b->read) &
					     bit);
				b->mark |= bit;
				b->simple |= bit;
				b->read |= bit;
			}
			quarters[k] = q;
		}
		for (unsigned int k = 0; k < NR_PIECES / 2; k++) {
			assert_true(memleak_slot_bits_alloc(BITS_PER_LONG / 2,
							    &halves[k]));
			assert_int_equal(halves[k] % (BITS_PER_LONG / 2), 0);
			assert_false(slot_bits_of(halves[k], 0)->mark &
				     slot_bit(halves[k], 0));
		}
		if (round == 0)
			pages = memleak_slot_bits_pages();
		/* The second round took the pieces the first gave back. */
		assert_int_equal(memleak_slot_bits_pages(), pages);
		for (unsigned int k = 0; k < NR_PIECES; k++)
			lowest = min(lowest, quarters[k] / BITS_PER_LONG);
		for (unsigned int k = 0; k < NR_PIECES; k++) {
			unsigned long t = quarters[k] / BITS_PER_LONG - lowest;

			assert_true(t < sizeof(triple_used));
			triples += !triple_used[t];
			triple_used[t] = 1;
		}
		/* Four to a triple (two more for pieces other slabs hold). */
		assert_true(triples <= NR_PIECES / 4 + 2);
		memset(triple_used, 0, sizeof(triple_used));
		triples = 0;
		for (unsigned int k = 0; k < NR_PIECES; k++)
			memleak_slot_bits_free(quarters[k], quarter);
		for (unsigned int k = 0; k < NR_PIECES / 2; k++)
			memleak_slot_bits_free(halves[k], BITS_PER_LONG / 2);
	}
	assert_true(lent_piece_is_clear());
	/* A slab of more than half a word of slots has a whole triple. */
	assert_true(memleak_slot_bits_alloc(BITS_PER_LONG / 2 + 1, &whole));
	assert_int_equal(whole % BITS_PER_LONG, 0);
	assert_int_equal(slot_bits_of(whole, 0)->mark, 0);
	memleak_slot_bits_free(whole, BITS_PER_LONG / 2 + 1);
}

/* A block that starts in a slab object and runs past it is refused. */
static void test_slab_object_overrun(void **state)
{
	char *a = kmalloc(64, GFP_KERNEL);

	(void)state;
	track_now(a, 200);
	expect_disabled("runs past its slab object");
	assert_null(find(a, 0));
	kfree(a);
}

/*
 * The scan's lookup; it marks a simple block found at its start, and
 * gives its slot's record unread, the one the page tables give.
 */
static struct memleak_block *find_unmarked(const void *p)
{
	unsigned long start;
	bool first_ref;
	struct memleak_block *b;

	b = memleak_index_scan_lookup((unsigned long)p, &first_ref, &start);
	if (b)
		assert_int_equal(start, block_start(b));
	if (!first_ref)
		return b;
	assert_int_equal(start, (unsigned long)p);
	assert_ptr_equal(b, memleak_index_slot((unsigned long)p));
	assert_true(b->flags & MEMLEAK_ALLOCATED);
	return b;
}

/* Whether the scan would take p as a simple block's first reference. */
static bool simple_at(const void *p)
{
	unsigned long start;
	bool first_ref;

	memleak_slot_bits_clear_all_marks();	/* no marks */
	memleak_index_scan_lookup((unsigned long)p, &first_ref, &start);
	memleak_slot_bits_clear_all_marks();	/* nor the one it set */
	return first_ref;
}

/*
 * Simple blocks (one reference makes them gray) are known so from the
 * index alone, at their start only; one that needs two references, one
 * annotated as not leaking or ignored is not simple.
 */
static void test_simple_blocks(void **state)
{
	char *a = kmalloc(64, GFP_KERNEL);
	char *c = kmalloc(64, GFP_KERNEL), *d = kmalloc(64, GFP_KERNEL);
	char *big = kmalloc(256 * 1024, GFP_KERNEL);

	(void)state;
	track_now(a, 64);
	memleak_alloc(c, 64, 2);
	track_now(d, 64);
	track_now(big, PAGE_SIZE);
	assert_true(simple_at(a));
	assert_false(simple_at(a + 8));
	assert_ptr_equal(find_unmarked(a + 8), find(a, 0));
	assert_false(simple_at(c));
	assert_true(simple_at(d));
	memleak_not_leak(d);
	assert_false(simple_at(d));
	assert_ptr_equal(find_unmarked(d), find(d, 0));
	assert_false(simple_at(big));
	/* Ignored, then freed: the next block in the slot is simple again. */
	memleak_ignore(a);
	assert_false(simple_at(a));
	forget(a);
	track_now(a, 16);
	assert_true(simple_at(a));
	forget(a);
	forget(c);
	forget(d);
	forget(big);
	kfree(a);
	kfree(c);
	kfree(d);
	kfree(big);
}

/*
 * A slab block starts where its object does: its record's slot gives its
 * start. One inside an object is refused, loudly, and nothing of it is
 * kept.
 */
static void test_block_inside_object_refused(void **state)
{
	char *p = kmalloc(64, GFP_KERNEL);

	(void)state;
	track_now(p + 8, 32);
	expect_disabled("does not start where its slab object does");
	assert_null(find(p, 8));
	track_now(p, 64);
	assert_maps(p, 64);
	forget(p);
	kfree(p);
}

/*
 * A marked slab block is skipped by the scan's find, not by the plain
 * one; its neighbour is not; a scan's clearing or a new block in the
 * slot unmark it. Blocks in the tree are never marked.
 */
static void test_marks(void **state)
{
	char *a = kmalloc(64, GFP_KERNEL), *b = kmalloc(64, GFP_KERNEL);
	char *big = kmalloc(256 * 1024, GFP_KERNEL);	/* pages: the tree */
	struct memleak_block *ba, *bb;

	(void)state;
	track_now(a, 64);
	memleak_alloc(b, 64, 2);	/* two references: not simple */
	track_now(big, 3 * PAGE_SIZE);
	memleak_slot_bits_clear_all_marks();
	ba = find(a, 0);
	bb = find(b, 0);
	/* The scan's first reference to a simple block marks it. */
	assert_ptr_equal(find_unmarked(a), ba);
	assert_null(find_unmarked(a));
	assert_ptr_equal(find(a, 0), ba);
	/* Others are marked by the scan when it finds them gray. */
	assert_ptr_equal(find_unmarked(b), bb);
	assert_ptr_equal(find_unmarked(b), bb);
	memleak_index_mark(bb, (unsigned long)b);
	assert_null(find_unmarked(b));
	/* The next scan clears the marks. */
	memleak_slot_bits_clear_all_marks();
	assert_ptr_equal(find_unmarked(b), bb);
	memleak_index_mark(bb, (unsigned long)b);
	/* Freed and tracked again in the same slot: a new block, unmarked. */
	forget(b);
	track_now(b, 64);
	assert_non_null(find_unmarked(b));
	memleak_index_mark(find(big, 0), (unsigned long)big);
	assert_ptr_equal(find_unmarked(big), find(big, 0));
	forget(a);
	forget(b);
	forget(big);
	kfree(a);
	kfree(b);
	kfree(big);
}

/*
 * A block outside slabs that would cover a tracked slab object is
 * refused: it starts in the page before the object's slab, when that
 * page is no slab's.
 */
static void test_tree_block_over_slab_object(void **state)
{
	char *obj[64], *a = NULL, *before = NULL;
	struct page *plain[64];
	struct slab_geometry g;
	unsigned int n, k;

	(void)state;
	/*
	 * New slabs of 2 KiB objects, until one follows a page of no slab
	 * (plain pages taken in between make that likely). Each is tracked
	 * at once: the index's own allocations come before the check.
	 */
	for (n = 0; n < ARRAY_SIZE(obj) && !a; n++) {
		plain[n] = alloc_pages(GFP_KERNEL, 0);
		obj[n] = kmalloc(2048, GFP_KERNEL);
		track_now(obj[n], 64);
		assert_true(slab_geometry_of(obj[n], &g));
		before = (char *)g.base - PAGE_SIZE;
		if (!slab_geometry_of(before, &g) && virt_addr_valid(before))
			a = obj[n];
	}
	assert_non_null(a);
	track_now(before, (size_t)(a + 64 - before));
	expect_disabled("overlaps a tracked one");
	assert_null(find(before, 0));
	assert_maps(a, 64);
	for (k = 0; k < n; k++) {
		forget(obj[k]);
		__free_pages(plain[k], 0);
	}
	while (n--)
		kfree(obj[n]);
}

/* Large kmalloc blocks are whole pages of the arena: the tree, marked pages. */
static void test_pages_in_tree(void **state)
{
	size_t size = 3 * PAGE_SIZE + 100;
	char *big = kmalloc(256 * 1024, GFP_KERNEL);

	(void)state;
	assert_non_null(big);
	track_now(big, size);
	assert_maps(big, size);
	for (unsigned long i = 0; i < 4; i++)
		assert_true(page_used(big + i * PAGE_SIZE));
	assert_false(page_used(big + 4 * PAGE_SIZE));
	/* A second block in the last page, after the first one's end. */
	track_now(big + size + 28, 64);
	assert_maps(big + size + 28, 64);
	assert_null(find(big, (long)size + 8));
	forget(big);
	assert_null(find(big, 0));
	assert_false(page_used(big));
	/* The page the second block is in keeps its mark. */
	assert_true(page_used(big + size + 28));
	assert_maps(big + size + 28, 64);
	forget(big + size + 28);
	assert_false(page_used(big + 3 * PAGE_SIZE));
	kfree(big);
}

/*
 * A record holds a size in 16 bits: larger blocks keep theirs in their
 * tree node, and map whole. The tree takes the objects of kmalloc's
 * classes of 64 KiB and more too, slab objects as they are.
 */
static void test_sizes_past_16_bits(void **state)
{
	const size_t sizes[] = { 65534, 65535, 65536, 200000 };
	char *big = kmalloc(256 * 1024, GFP_KERNEL);
	char *object = kmalloc(64 * 1024 + 1, GFP_KERNEL);
	struct slab_geometry g;

	(void)state;
	assert_non_null(big);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		track_now(big, sizes[i]);
		assert_maps(big, sizes[i]);
		assert_int_equal(block_size(find(big, 0)), sizes[i]);
		forget(big);
	}
	kfree(big);
	assert_non_null(object);
	assert_true(slab_geometry_of(object, &g));	/* a slab object */
	track_now(object, 64 * 1024 + 1);
	assert_maps(object, 64 * 1024 + 1);
	assert_int_equal(block_size(find(object, 0)), 64 * 1024 + 1);
	assert_int_equal(memleak_tree_blocks(), 1);
	forget(object);
	kfree(object);
}

/* Memory outside RAM (here: the host's heap): the tree alone. */
static void test_outside_ram(void **state)
{
	char *m = host_outside_ram(4 * PAGE_SIZE);

	(void)state;
	assert_non_null(m);
	/* Blocks in one page, in any order, and one across pages. */
	track_now(m + 512, 64);
	track_now(m + 64, 64);
	track_now(m + 256, 128);
	track_now(m + PAGE_SIZE - 16, 2 * PAGE_SIZE);
	assert_maps(m + 64, 64);
	assert_maps(m + 256, 128);
	assert_maps(m + 512, 64);
	assert_maps(m + PAGE_SIZE - 16, 2 * PAGE_SIZE);
	/*
	 * A block starting in the page where the long one ends, after it:
	 * the long one is still found from the start of that page.
	 */
	track_now(m + 3 * PAGE_SIZE - 8, 8);
	assert_maps(m + 3 * PAGE_SIZE - 8, 8);
	assert_maps(m + PAGE_SIZE - 16, 2 * PAGE_SIZE);
	assert_int_equal(block_start(find(m, 2 * PAGE_SIZE + 100)),
			 (unsigned long)m + PAGE_SIZE - 16);
	untrack(m + 3 * PAGE_SIZE - 8);
	assert_null(find(m, 200));
	/* Overlaps, at the start, the end and inside, are refused. */
	track_now(m + 300, 8);
	expect_disabled("overlaps a tracked one");
	track_now(m + 32, 64);
	expect_disabled("overlaps a tracked one");
	assert_maps(m + 64, 64);
	forget(m + 256);
	forget(m + 64);
	assert_maps(m + 512, 64);
	assert_null(find(m, 64));
	forget(m + 512);
	untrack(m + PAGE_SIZE - 16);
	assert_null(find(m, 2 * PAGE_SIZE));
}

/*
 * Random blocks in a region outside RAM, checked address by address
 * against the list of blocks itself.
 */
#define MODEL_SLOTS 64
#define MODEL_BYTES (16 * PAGE_SIZE)

static void check_against_model(const char *base, const size_t *size)
{
	for (unsigned long off = 0; off < MODEL_BYTES; off += 8) {
		unsigned long slot = off / (MODEL_BYTES / MODEL_SLOTS);
		unsigned long in = off % (MODEL_BYTES / MODEL_SLOTS);
		struct memleak_block *b = find(base, (long)off);

		if (size[slot] && in < size[slot]) {
			assert_non_null(b);
			assert_int_equal(
				block_start(b),
				(unsigned long)base +
					slot * (MODEL_BYTES / MODEL_SLOTS));
		} else {
			assert_null(b);
		}
	}
}

static void test_random_against_model(void **state)
{
	char *m = host_outside_ram(MODEL_BYTES);
	size_t size[MODEL_SLOTS] = { 0 };
	unsigned int seed = 7;

	(void)state;
	for (unsigned int step = 0; step < 400; step++) {
		unsigned int i = rand_r(&seed) % MODEL_SLOTS;
		char *p = m + i * (MODEL_BYTES / MODEL_SLOTS);

		if (size[i]) {
			forget(p);
			size[i] = 0;
		} else {
			size[i] = 8 * (1 + rand_r(&seed) %
				       (MODEL_BYTES / MODEL_SLOTS / 8));
			track_now(p, size[i]);
		}
		if (step % 20 == 0)
			check_against_model(m, size);
	}
	check_against_model(m, size);
	for (unsigned int i = 0; i < MODEL_SLOTS; i++)
		if (size[i])
			untrack(m + i * (MODEL_BYTES / MODEL_SLOTS));
}

/* memleak_index_marked(): a marked slot's every address, not its neighbour. */
static void test_marked(void **state)
{
	char *a = kmalloc(64, GFP_KERNEL), *b = kmalloc(64, GFP_KERNEL);

	(void)state;
	track_now(a, 64);
	track_now(b, 64);
	memleak_slot_bits_clear_all_marks();
	assert_false(memleak_index_marked((unsigned long)a));
	memleak_index_mark(find(a, 0), (unsigned long)a);
	assert_true(memleak_index_marked((unsigned long)a));
	assert_true(memleak_index_marked((unsigned long)a + 40));
	assert_false(memleak_index_marked((unsigned long)b));
	/* Cleared a word at a time, as the scan does between windows. */
	for (unsigned long from = 0;
	     (from = memleak_slot_bits_clear_marks(from, 1));)
		;
	assert_false(memleak_index_marked((unsigned long)a));
	forget(a);
	forget(b);
	kfree(a);
	kfree(b);
}

struct walk_seen {
	unsigned long nr, in_call;
	const struct memleak_block *want[8];
	bool seen[8];
};

static void note_walked(struct memleak_block *b, unsigned long start, void *ctx)
{
	struct walk_seen *w = ctx;

	/* The walk's start is the one the record alone gives. */
	assert_int_equal(start, block_start(b));
	for (unsigned int i = 0; i < ARRAY_SIZE(w->want); i++)
		if (w->want[i] == b) {
			assert_false(w->seen[i]);	/* once only */
			w->seen[i] = true;
		}
	w->nr++;
	w->in_call++;
}

/*
 * The scan's walk visits every block once, slab objects and tree blocks
 * alike, however small its batches, and never more than a batch at a
 * time (the scan's IRQ-off windows), even inside one slab.
 */
static void test_walk(void **state)
{
	char *small[6], *big = kmalloc(64 * 1024 + 1, GFP_KERNEL);
	char *outside = host_outside_ram(PAGE_SIZE);
	struct memleak_index_pos pos = MEMLEAK_INDEX_WALK_START;
	struct walk_seen w = { 0 };
	struct slab_geometry g;
	unsigned int calls = 0;

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(small); i++) {
		small[i] = kmalloc(i < 3 ? 32 : 512, GFP_KERNEL);
		track_now(small[i], 16);
		w.want[i] = find(small[i], 0);
	}
	track_now(big, PAGE_SIZE);
	track_now(outside, 64);
	w.want[6] = find(big, 0);
	w.want[7] = find(outside, 0);
	/* One block in the tree. */
	assert_false(slab_geometry_of(outside, &g));
	for (bool more = true; more; calls++) {
		w.in_call = 0;
		more = memleak_index_walk(&pos, 1, note_walked, &w);
		assert_true(w.in_call <= 1);
	}
	assert_true(calls >= 3);
	for (unsigned int i = 0; i < ARRAY_SIZE(w.want); i++)
		assert_true(w.seen[i]);
	assert_int_equal(w.nr, memleak.nr_blocks);
	for (unsigned int i = 0; i < ARRAY_SIZE(small); i++) {
		forget(small[i]);
		kfree(small[i]);
	}
	forget(big);
	untrack(outside);
	kfree(big);
}

/*
 * The scan's reset: every block's count and per-scan flags cleared
 * (MEMLEAK_CONFIRMED kept), slab objects and tree blocks alike, and
 * only the blocks gray even so (min_count 0, not ignored) visited, with
 * their start, never more than a batch at a time.
 */
static void test_walk_reset(void **state)
{
	static const int min_counts[] = { 1, 0, 2, 0, 1, 0 };
	char *p[ARRAY_SIZE(min_counts)];
	struct memleak_index_pos pos = MEMLEAK_INDEX_WALK_RESET;
	struct walk_seen w = { 0 };
	struct memleak_block *b;
	unsigned int calls = 0;

	(void)state;
	for (unsigned int i = 0; i < 4; i++)
		p[i] = kmalloc(32, GFP_KERNEL);
	p[4] = kmalloc(64 * 1024 + 1, GFP_KERNEL);	/* in the tree */
	p[5] = host_outside_ram(PAGE_SIZE);		/* in the tree */
	for (unsigned int i = 0; i < ARRAY_SIZE(p); i++)
		memleak_alloc(p[i], 16, min_counts[i]);
	memleak_ignore(p[3]);	/* black: never gray */
	memleak_flush_pending();
	for (unsigned int i = 0; i < ARRAY_SIZE(p); i++) {
		b = find(p[i], 0);
		b->count = 5;	/* what a scan leaves */
		b->flags |= MEMLEAK_SCAN_FLAGS | MEMLEAK_CONFIRMED;
	}
	w.want[0] = find(p[1], 0);
	w.want[1] = find(p[5], 0);
	for (bool more = true; more; calls++) {
		w.in_call = 0;
		more = memleak_index_walk(&pos, 1, note_walked, &w);
		assert_true(w.in_call <= 1);
	}
	assert_true(calls >= 3);
	assert_int_equal(w.nr, 2);
	assert_true(w.seen[0] && w.seen[1]);
	for (unsigned int i = 0; i < ARRAY_SIZE(p); i++) {
		b = find(p[i], 0);
		assert_int_equal(b->count, 0);
		assert_int_equal(b->flags & MEMLEAK_SCAN_FLAGS, 0);
		assert_true(b->flags & MEMLEAK_CONFIRMED);
		assert_true(b->flags & MEMLEAK_ALLOCATED);
	}
	for (unsigned int i = 0; i < 5; i++) {
		forget(p[i]);
		kfree(p[i]);
	}
	untrack(p[5]);
}

/*
 * A free's lookup: only a block's start finds it (an address inside it,
 * or past a slab object's block in its slot, finds none), and the place
 * it gives lets the removal free the right record without looking
 * again: a slab object's slot, then a block outside slabs'.
 */
static void test_find_start_and_remove(void **state)
{
	char *obj = kmalloc(64, GFP_KERNEL), *next = kmalloc(64, GFP_KERNEL);
	char *outside = host_outside_ram(PAGE_SIZE);
	struct memleak_index_place place;
	struct memleak_block *b;
	unsigned long blocks;
	unsigned long start;
	bool first_ref;

	(void)state;
	track_now(obj, 40);
	track_now(next, 64);
	track_now(outside, 64);
	blocks = memleak.nr_blocks;
	assert_null(memleak_index_find_start((unsigned long)obj + 8, &place));
	assert_null(memleak_index_find_start((unsigned long)obj + 48, &place));
	assert_null(memleak_index_find_start((unsigned long)outside + 8, &place));
	b = memleak_index_find_start((unsigned long)obj, &place);
	assert_ptr_equal(b, find(obj, 0));
	assert_non_null(place.entry);
	memleak_index_remove(b, &place);
	assert_null(find(obj, 0));
	assert_non_null(find(next, 0));
	/* The freed slot's simple bit went with it, its neighbour's stayed. */
	memleak_slot_bits_clear_all_marks();
	assert_null(memleak_index_scan_lookup((unsigned long)obj, &first_ref,
					      &start));
	assert_false(first_ref);
	assert_ptr_equal(memleak_index_scan_lookup((unsigned long)next,
						   &first_ref, &start),
			 find(next, 0));
	assert_true(first_ref);
	b = memleak_index_find_start((unsigned long)outside, &place);
	assert_ptr_equal(b, find(outside, 0));
	assert_null(place.entry);
	memleak_index_remove(b, &place);
	assert_null(find(outside, 0));
	/* The index's own: the collector's count is the caller's to keep. */
	memleak.nr_blocks = blocks - 2;
	forget(next);
	kfree(next);
	kfree(obj);
}

/*
 * A walk of the unmarked blocks (the scan's collection of white ones)
 * visits every slab object whose slot is not marked and every block
 * outside slabs, once each, and no marked object; past words of marks
 * of 64 slots and across slabs (objects of 32 bytes: several slabs of
 * 128). Each slab it looks into counts as a block visited, so that with
 * every object marked a call of at most one block still looks into at
 * most one slab.
 */
#define UNMARKED_OBJECTS 300

struct unmarked_walk {
	char *p[UNMARKED_OBJECTS];
	unsigned int visits[UNMARKED_OBJECTS];
	unsigned long others, in_call;
};

static void note_unmarked(struct memleak_block *b, unsigned long start,
			  void *ctx)
{
	struct unmarked_walk *w = ctx;
	unsigned int i;

	assert_int_equal(start, block_start(b));
	for (i = 0; i < UNMARKED_OBJECTS; i++)
		if (start == (unsigned long)w->p[i])
			break;
	if (i < UNMARKED_OBJECTS)
		w->visits[i]++;
	else
		w->others++;
	w->in_call++;
}

/* Walks from an unmarked start, a block at a time; how many calls. */
static unsigned int walk_unmarked(struct unmarked_walk *w)
{
	struct memleak_index_pos pos = MEMLEAK_INDEX_WALK_UNMARKED;
	unsigned int calls = 0;

	memset(w->visits, 0, sizeof(w->visits));
	w->others = 0;
	for (bool more = true; more; calls++) {
		w->in_call = 0;
		more = memleak_index_walk(&pos, 1, note_unmarked, w);
		assert_true(w->in_call <= 1);
	}
	return calls;
}

static bool marked_in_test(unsigned int i)
{
	return i % 3 == 0 || (i >= 64 && i < 200);
}

static void test_walk_unmarked(void **state)
{
	static struct unmarked_walk w;
	char *big = kmalloc(8 * 1024 + 1, GFP_KERNEL);
	char *outside = host_outside_ram(PAGE_SIZE);
	unsigned int all_marked_calls, slabs = 0;

	(void)state;
	for (unsigned int i = 0; i < UNMARKED_OBJECTS; i++) {
		w.p[i] = kmalloc(32, GFP_KERNEL);
		track_now(w.p[i], 32);
	}
	track_now(big, PAGE_SIZE);
	track_now(outside, 64);
	assert_true(memleak_tree_blocks() >= 1);
	memleak_slot_bits_clear_all_marks();
	for (unsigned int i = 0; i < UNMARKED_OBJECTS; i++)
		if (marked_in_test(i))
			memleak_index_mark(find(w.p[i], 0),
					   (unsigned long)w.p[i]);
	walk_unmarked(&w);
	for (unsigned int i = 0; i < UNMARKED_OBJECTS; i++)
		assert_int_equal(w.visits[i], marked_in_test(i) ? 0 : 1);
	/* big, a slab object here, and the blocks outside slabs. */
	assert_int_equal(w.others, 1 + memleak_tree_blocks());
	memleak_index_mark(find(big, 0), (unsigned long)big);
	for (unsigned int i = 0; i < UNMARKED_OBJECTS; i++) {
		memleak_index_mark(find(w.p[i], 0), (unsigned long)w.p[i]);
		slabs += i == 0 || ((unsigned long)w.p[i] ^
				    (unsigned long)w.p[i - 1]) >= PAGE_SIZE;
	}
	all_marked_calls = walk_unmarked(&w);
	assert_int_equal(w.others, memleak_tree_blocks());
	assert_true(slabs >= 3);
	assert_true(all_marked_calls >= slabs);
	for (unsigned int i = 0; i < UNMARKED_OBJECTS; i++) {
		assert_int_equal(w.visits[i], 0);
		forget(w.p[i]);
		kfree(w.p[i]);
	}
	forget(big);
	kfree(big);
	untrack(outside);
}

/*
 * A walk between whose windows blocks come and go, as reports' walks
 * see other CPUs allocate and free: blocks alive throughout are visited
 * once each, a freed block never after its free, whether it was ahead in
 * the slab being walked or its whole slab went while the walk was in
 * it. (The blocks' memory stays allocated to the end: no address is
 * reused, so a start names one block.)
 */
#define CHURN_BLOCKS 300

struct churn {
	char *p[CHURN_BLOCKS];
	bool freed[CHURN_BLOCKS], born_late[CHURN_BLOCKS];
	unsigned int visits[CHURN_BLOCKS];
	unsigned long first;	/* the first block visited */
};

static void note_churn(struct memleak_block *b, unsigned long start, void *ctx)
{
	struct churn *c = ctx;

	assert_int_equal(start, block_start(b));
	if (!c->first)
		c->first = start;
	for (unsigned int i = 0; i < CHURN_BLOCKS; i++)
		if (c->p[i] && start == (unsigned long)c->p[i]) {
			assert_false(c->freed[i]);
			c->visits[i]++;
		}
}

static void churn_free(struct churn *c, unsigned int i)
{
	if (!c->p[i] || c->freed[i])
		return;
	forget(c->p[i]);
	memleak_flush_pending();
	c->freed[i] = true;
}

/* Takes every block of the slab holding addr out of the index. */
static void churn_free_slab(struct churn *c, unsigned long addr)
{
	struct slab_geometry g, h;

	assert_true(slab_geometry_of((void *)addr, &g));
	for (unsigned int i = 0; i < CHURN_BLOCKS; i++)
		if (c->p[i] && slab_geometry_of(c->p[i], &h) && h.base == g.base)
			churn_free(c, i);
}

static void test_walk_with_churn(void **state)
{
	struct memleak_index_pos pos = MEMLEAK_INDEX_WALK_START;
	struct churn *c = calloc(1, sizeof(*c));
	unsigned int calls = 0, next_new = CHURN_BLOCKS / 2;

	(void)state;
	assert_non_null(c);
	for (unsigned int i = 0; i < CHURN_BLOCKS / 2; i++) {
		c->p[i] = kmalloc(64, GFP_KERNEL);
		track_now(c->p[i], 16);
	}
	/* Three blocks into the first slab, the whole slab goes. */
	assert_true(memleak_index_walk(&pos, 3, note_churn, c));
	assert_int_not_equal(pos.slot, 0);
	churn_free_slab(c, c->first);
	for (bool more = true; more; calls++) {
		more = memleak_index_walk(&pos, 5, note_churn, c);
		/* A block goes, now and then one comes, between windows. */
		churn_free(c, (calls * 9) % (CHURN_BLOCKS / 2));
		if (next_new < CHURN_BLOCKS && calls % 2) {
			c->p[next_new] = kmalloc(64, GFP_KERNEL);
			track_now(c->p[next_new], 16);
			c->born_late[next_new++] = true;
		}
	}
	for (unsigned int i = 0; i < CHURN_BLOCKS; i++) {
		if (!c->p[i])
			continue;
		if (!c->freed[i] && !c->born_late[i])
			assert_int_equal(c->visits[i], 1);
		assert_true(c->visits[i] <= 1);
		if (!c->freed[i])
			forget(c->p[i]);
		kfree(c->p[i]);
	}
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_slab_objects, teardown),
		cmocka_unit_test_teardown(test_slab_object_overrun, teardown),
		cmocka_unit_test_teardown(test_records_fit_their_slabs,
					  teardown),
		cmocka_unit_test_teardown(test_slot_bits_pieces, teardown),
		cmocka_unit_test_teardown(test_marks, teardown),
		cmocka_unit_test_teardown(test_simple_blocks, teardown),
		cmocka_unit_test_teardown(test_block_inside_object_refused,
					  teardown),
		cmocka_unit_test_teardown(test_tree_block_over_slab_object, teardown),
		cmocka_unit_test_teardown(test_pages_in_tree, teardown),
		cmocka_unit_test_teardown(test_sizes_past_16_bits, teardown),
		cmocka_unit_test_teardown(test_outside_ram, teardown),
		cmocka_unit_test_teardown(test_random_against_model, teardown),
		cmocka_unit_test_teardown(test_marked, teardown),
		cmocka_unit_test_teardown(test_walk, teardown),
		cmocka_unit_test_teardown(test_walk_unmarked, teardown),
		cmocka_unit_test_teardown(test_walk_reset, teardown),
		cmocka_unit_test_teardown(test_find_start_and_remove, teardown),
		cmocka_unit_test_teardown(test_walk_with_churn, teardown),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
