/*
 * Host tests of the leak collector's core (mm/kmemleak/tracking.c, memleak_scan.c,
 * memleak_report.c) under ASan/UBSan: each test builds a small graph of
 * tracked blocks, hangs some of it from the test's own root area, scans
 * and checks the exact set of suspected leaks, nothing missing and
 * nothing extra. The host library has no allocator hooks, so the only
 * tracked blocks are the ones made here (arch/host/memleak.c).
 */
#include <kernel/kernel.h>
#include <kernel/errno.h>
#include <kernel/list.h>
#include <kernel/memleak.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/slab.h>
#include <kernel/time.h>
#include "../../mm/kmemleak/internal.h"
#include "test_memleak.h"

#include <stdlib.h>

/*
 * A type with an embedded list node, found through container_of() (see
 * elem_of()), which gives blocks of its size an alias at the node.
 */
struct test_elem {
	unsigned long words[13];
	struct list_head node;
};

static struct test_elem *elem_of(struct list_head *node)
{
	return container_of(node, struct test_elem, node);
}

/* The block of p, once the logs of recent allocations are flushed. */
static struct memleak_block *tracked_block(const void *p)
{
	memleak_flush_pending();
	return memleak_lookup_block((unsigned long)p);
}

static void set_word(void *block, unsigned int index, const void *value)
{
	((unsigned long *)block)[index] = (unsigned long)value;
}

/*
 * Scans, then checks that the suspects are exactly the n blocks given
 * (a NULL-terminated list) and that the scan's counters agree.
 */
static void expect_suspects(void *first, ...)
{
	unsigned long n = 0;
	va_list ap;

	scan_later();
	va_start(ap, first);
	for (void *p = first; p; p = va_arg(ap, void *)) {
		if (!is_suspect(p))
			fail_msg("block %p (%lu of the list) not reported", p,
				 n);
		n++;
	}
	va_end(ap);
	if (count_suspects() != n)
		fail_msg("%lu blocks reported, %lu expected", count_suspects(),
			 n);
	assert_int_equal(memleak.nr_suspects, n);
}

/* Every test frees what it tracked; the collector stays healthy. */
static int teardown(void **state)
{
	(void)state;
	host_cpu_id = 0;
	memleak_flush_pending();
	assert_true(memleak.enabled);
	assert_int_equal(memleak.nr_blocks, 0);
	assert_int_equal(count_blocks_flagged(0), 0);
	assert_int_equal(host_irqs_off, 0);
	if (strstr(host_log(), "memleak: disabled"))
		fail_msg("collector disabled itself:\n%s", host_log());
	return 0;
}

static void test_orphan(void **state)
{
	void *kept = track(40, 1), *lost = track(40, 1);

	(void)state;
	roots[0] = (unsigned long)kept;
	expect_suspects(lost, NULL);
	assert_int_equal(memleak.nr_new, 1);
	assert_int_equal(memleak.nr_blocks, 2);
	untrack(kept);
	untrack(lost);
}

/* A chain from a root keeps every link; an orphan's pointers keep nothing. */
static void test_reachable_and_orphan_chains(void **state)
{
	void *a = track(48, 1), *b = track(48, 1), *c = track(48, 1);
	void *d = track(48, 1), *e = track(48, 1), *f = track(48, 1);

	(void)state;
	roots[3] = (unsigned long)a;
	set_word(a, 5, b);
	set_word(b, 0, c);
	/* d, e, f: reached only from each other, from d down. */
	set_word(d, 1, e);
	set_word(e, 2, f);
	set_word(f, 3, c);
	expect_suspects(d, e, f, NULL);
	/* Cut the chain after a: b and c go, d e f stay reported (not new). */
	set_word(a, 5, NULL);
	untrack(d);
	untrack(e);
	untrack(f);
	expect_suspects(b, c, NULL);
	assert_int_equal(memleak.nr_new, 2);
	untrack(a);
	untrack(b);
	untrack(c);
}

static void test_cycle_of_orphans(void **state)
{
	void *x = track(24, 1), *y = track(24, 1), *z = track(24, 1);

	(void)state;
	set_word(x, 0, y);
	set_word(y, 0, z);
	set_word(z, 0, x);
	expect_suspects(x, y, z, NULL);
	/* One pointer from outside into the cycle keeps all of it. */
	roots[7] = (unsigned long)y;
	expect_suspects(NULL);
	untrack(x);
	untrack(y);
	untrack(z);
}

/* container_of() gave blocks of this size an alias at the node. */
static void test_alias_offset_pointer(void **state)
{
	struct test_elem *e = track(sizeof(*e), 1);
	struct test_elem *lost = track(sizeof(*e), 1);
	struct memleak_block *b = tracked_block(e);
	unsigned long off = offsetof(struct test_elem, node);

	(void)state;
	assert_non_null(block_aliases(b));
	assert_int_equal(block_aliases(b)->size, sizeof(*e));
	assert_ptr_equal(memleak_lookup_block((unsigned long)e + off), b);
	assert_ptr_equal(elem_of(&e->node), e);
	roots[1] = (unsigned long)&e->node;
	/* A pointer to the alias of lost, one word off: no reference. */
	roots[2] = (unsigned long)&lost->node + sizeof(long);
	expect_suspects(lost, NULL);
	untrack(e);
	untrack(lost);
	/* The alias key goes with the block. */
	assert_null(memleak_lookup_block((unsigned long)e + off));
}

/* Without aliases only the start counts, unless interior mode is on. */
static void test_interior_pointer(void **state)
{
	void *p = track(72, 1);

	(void)state;
	assert_null(block_aliases(tracked_block(p)));
	roots[0] = (unsigned long)p + 16;
	expect_suspects(p, NULL);
	memleak.interior = true;
	expect_suspects(NULL);
	/* One past the end is not inside. */
	roots[0] = (unsigned long)p + 72;
	expect_suspects(p, NULL);
	untrack(p);
}

/*
 * Only exact, word-aligned addresses count: a page-table entry (an
 * address with flag bits) or the start plus 1..3 refers to nothing.
 */
static void test_low_bits_refer_to_nothing(void **state)
{
	void *p = track(48, 1);

	(void)state;
	for (unsigned long low = 1; low < sizeof(long); low++) {
		roots[0] = (unsigned long)p | low;
		expect_suspects(p, NULL);
	}
	roots[0] = (unsigned long)p;
	expect_suspects(NULL);
	/* With interior pointers on, any address inside counts. */
	memleak.interior = true;
	roots[0] = (unsigned long)p + 3;
	expect_suspects(NULL);
	untrack(p);
}

static void test_min_count_two(void **state)
{
	void *v = track(88, 2);

	(void)state;
	roots[0] = (unsigned long)v;
	expect_suspects(v, NULL);
	roots[4] = (unsigned long)v;
	expect_suspects(NULL);
	untrack(v);
}

/* not_leak: never reported, still scanned (gray from the start). */
static void test_not_leak(void **state)
{
	void *n = track(40, 1), *m = track(40, 1), *lost = track(40, 1);

	(void)state;
	memleak_not_leak(n);
	set_word(n, 2, m);
	expect_suspects(lost, NULL);
	untrack(n);
	untrack(m);
	untrack(lost);
}

/* ignore: black, neither reported nor scanned, even when referenced. */
static void test_ignore(void **state)
{
	void *i = track(40, 1), *j = track(40, 1), *k = track(40, 1);

	(void)state;
	memleak_ignore(i);
	set_word(i, 0, j);
	set_word(k, 0, i);
	roots[0] = (unsigned long)i;
	expect_suspects(j, k, NULL);
	untrack(i);
	untrack(j);
	untrack(k);
}

/* Only the scan areas of a block are scanned once it has any. */
static void test_scan_area(void **state)
{
	void *s = track(128, 1), *in = track(40, 1), *out = track(40, 1);
	void *in2 = track(40, 1);

	(void)state;
	memleak_scan_area(s, 0, 4 * sizeof(long));
	memleak_scan_area(s, 10 * sizeof(long), sizeof(long));
	/* No whole word in it: its aligned start lies past its end. */
	memleak_scan_area(s, 5 * sizeof(long) + 1, 2);
	set_word(s, 3, in);
	set_word(s, 4, out); /* just past the first area */
	set_word(s, 10, in2);
	roots[0] = (unsigned long)s;
	expect_suspects(out, NULL);
	/* An area past the end is refused with a message, not added. */
	memleak_scan_area(s, 120, 16);
	assert_true(log_has("memleak_scan_area: 120+16 is past the end"));
	untrack(s);
	untrack(in);
	untrack(out);
	untrack(in2);
}

/* A pointer near the end of a block larger than one scan chunk. */
static void test_large_block_chunks(void **state)
{
	size_t size = 3 * 4096 + 512;
	unsigned long *big = track(size, 1);
	void *tail = track(40, 1), *lost = track(40, 1);

	(void)state;
	big[size / sizeof(long) - 1] = (unsigned long)tail;
	roots[0] = (unsigned long)big;
	expect_suspects(lost, NULL);
	/* The roots, big and tail, each scanned once. */
	assert_int_equal(memleak.bytes_scanned, sizeof(roots) + size + 40);
	assert_true(memleak.scan_irqoff_cycles > 0);
	assert_true(memleak.max_irqoff_cycles >= memleak.scan_irqoff_cycles);
	untrack(big);
	untrack(tail);
	untrack(lost);
}

/*
 * More blocks than one batch of the scan's list walks (WALK_BATCH):
 * a chain of 1500 from a root and 700 orphans, every second one
 * pointing to the next orphan.
 */
static void test_many_blocks(void **state)
{
	enum { CHAIN = 1500, ORPHANS = 700 };
	void **chain = calloc(CHAIN, sizeof(void *));
	void **lost = calloc(ORPHANS, sizeof(void *));
	unsigned long found = 0;

	(void)state;
	assert_non_null(chain);
	assert_non_null(lost);
	for (int i = 0; i < CHAIN; i++) {
		chain[i] = track(32, 1);
		if (i)
			set_word(chain[i - 1], 1, chain[i]);
		if (i % 3 == 0 && i / 3 < ORPHANS)
			lost[i / 3] = track(24, 1);
	}
	for (int i = CHAIN / 3; i < ORPHANS; i++)
		lost[i] = track(24, 1);
	for (int i = 0; i + 1 < ORPHANS; i += 2)
		set_word(lost[i], 0, lost[i + 1]);
	roots[5] = (unsigned long)chain[0];
	scan_later();
	for (int i = 0; i < ORPHANS; i++)
		found += is_suspect(lost[i]);
	for (int i = 0; i < CHAIN; i++)
		assert_false(is_suspect(chain[i]));
	assert_int_equal(found, ORPHANS);
	assert_int_equal(count_suspects(), ORPHANS);
	assert_int_equal(memleak.nr_blocks, CHAIN + ORPHANS);
	/* A walk of the index finds every block, once. */
	assert_int_equal(count_blocks_flagged(0), memleak.nr_blocks);
	for (int i = 0; i < CHAIN; i++)
		untrack(chain[i]);
	for (int i = 0; i < ORPHANS; i++)
		untrack(lost[i]);
	free(chain);
	free(lost);
}

/* Young blocks wait; a white block that changed is rescanned instead. */
static void test_min_age_and_checksum(void **state)
{
	void *young = track(40, 1), *lost = track(40, 1), *ref = track(40, 1);

	(void)state;
	assert_int_equal(memleak.min_age_jiffies, HZ);
	assert_int_equal(memleak_scan(), 0);
	assert_int_equal(count_suspects(), 0);
	expect_suspects(young, lost, ref, NULL);
	/* lost now points to ref: lost changed, so both are kept this time. */
	set_word(lost, 1, ref);
	expect_suspects(young, NULL);
	/* Unchanged since: both reported again. */
	expect_suspects(young, lost, ref, NULL);
	untrack(young);
	untrack(lost);
	untrack(ref);
}

/*
 * The white blocks' sums live in checksums.c's table, not in the blocks:
 * a scan of 100 white blocks, then one of 5000 (more than the earlier
 * tests' scans made room for: the table grows, the first 100 moved into
 * it), half of them freed (entries move back over the holes), and each
 * of the rest still finds its own sum: one changed since is rescanned,
 * not reported.
 */
#define SUMMED_BLOCKS 5000
static void test_checksum_table(void **state)
{
	static void *p[SUMMED_BLOCKS];
	unsigned long kept = 0;
	u32 sum;

	(void)state;
	for (unsigned int i = 0; i < SUMMED_BLOCKS; i++) {
		p[i] = track(48, 1);
		set_word(p[i], 0, (void *)(unsigned long)(i * 8 + 1));
		if (i == 99) {
			scan_later();
			assert_int_equal(memleak_checksum_entries(), 100);
		}
	}
	scan_later();
	assert_int_equal(count_suspects(), SUMMED_BLOCKS);
	assert_int_equal(memleak_checksum_entries(), SUMMED_BLOCKS);
	for (unsigned int i = 0; i < SUMMED_BLOCKS; i += 2) {
		untrack(p[i]);
		p[i] = NULL;
	}
	assert_int_equal(memleak_checksum_entries(), SUMMED_BLOCKS / 2);
	for (unsigned int i = 1; i < SUMMED_BLOCKS; i += 2) {
		unsigned long addr = (unsigned long)p[i];

		assert_true(memleak_checksum_get(memleak_lookup_block(addr),
						 &sum));
		kept++;
	}
	set_word(p[SUMMED_BLOCKS - 1], 2, (void *)7ul);
	scan_later();
	assert_false(is_suspect(p[SUMMED_BLOCKS - 1]));
	assert_int_equal(count_suspects(), kept - 1);
	for (unsigned int i = 1; i < SUMMED_BLOCKS; i += 2)
		untrack(p[i]);
	assert_int_equal(memleak_checksum_entries(), 0);
}

/* The sum of block p, which must have one. */
static u32 sum_of(const void *p)
{
	u32 sum;

	assert_true(memleak_checksum_get(tracked_block(p), &sum));
	return sum;
}

/*
 * The checksum table shrinks once most of its blocks are gone, and a
 * resize, which moves the entries a page per window, keeps every sum:
 * blocks freed between its steps included, whose entries must not
 * outlive them (a record reused would find its predecessor's sum).
 */
static void test_checksum_resize(void **state)
{
	static void *p[SUMMED_BLOCKS];
	static u32 sums[SUMMED_BLOCKS];
	const unsigned int left = 200;
	unsigned long big;

	(void)state;
	for (unsigned int i = 0; i < SUMMED_BLOCKS; i++) {
		p[i] = track(48, 1);
		set_word(p[i], 0, (void *)(unsigned long)(i * 8 + 1));
	}
	scan_later();
	assert_int_equal(memleak_checksum_entries(), SUMMED_BLOCKS);
	big = memleak_checksum_pages();
	for (unsigned int i = 0; i < 20; i++)
		sums[i] = sum_of(p[i]);
	/* All but 20 go: the next scan makes the table smaller. */
	for (unsigned int i = 20; i < SUMMED_BLOCKS; i++)
		untrack(p[i]);
	scan_later();
	assert_int_equal(memleak_checksum_entries(), 20);
	assert_true(memleak_checksum_pages() * 4 <= big);
	for (unsigned int i = 0; i < 20; i++)
		assert_int_equal(sum_of(p[i]), sums[i]);

	/* Grown again, then shrunk step by step while blocks go. */
	for (unsigned int i = 20; i < SUMMED_BLOCKS; i++) {
		p[i] = track(48, 1);
		set_word(p[i], 0, (void *)(unsigned long)(i * 8 + 1));
	}
	scan_later();
	assert_int_equal(memleak_checksum_entries(), SUMMED_BLOCKS);
	for (unsigned int k = 0; k < left; k++)
		sums[k] = sum_of(p[k]);
	for (unsigned int i = left; i < SUMMED_BLOCKS - 1000; i++)
		untrack(p[i]);
	assert_int_equal(memleak_checksum_resize_begin(0), 1);
	for (unsigned int i = SUMMED_BLOCKS - 1000, step = 0;; step++) {
		/* Moved or not, every block left has its sum. */
		for (unsigned int k = 0; k < left; k++)
			assert_int_equal(sum_of(p[k]), sums[k]);
		/* Blocks go: in moved pages and in pages still to move. */
		for (unsigned int k = 0; k < 100 && i < SUMMED_BLOCKS; k++)
			untrack(p[i++]);
		if (!memleak_checksum_resize_step())
			break;
		assert_true(step < SUMMED_BLOCKS);
	}
	memleak_checksum_resize_end();
	assert_int_equal(memleak_checksum_entries(), left);
	for (unsigned int k = 0; k < left; k++) {
		assert_int_equal(sum_of(p[k]), sums[k]);
		untrack(p[k]);
	}
	assert_int_equal(memleak_checksum_entries(), 0);
	/* New blocks in the freed records: each gets a sum of its own. */
	for (unsigned int i = 0; i < SUMMED_BLOCKS; i++)
		p[i] = track(48, 1);
	scan_later();
	assert_int_equal(memleak_checksum_entries(), SUMMED_BLOCKS);
	for (unsigned int i = 0; i < SUMMED_BLOCKS; i++)
		untrack(p[i]);
	assert_int_equal(memleak_checksum_entries(), 0);
}

/* memleak_padding: the object, and its aliases, start at the offset. */
static void test_padding(void **state)
{
	void *p = track(64 + sizeof(struct test_elem), 1);
	struct test_elem *obj = (struct test_elem *)((char *)p + 64);

	(void)state;
	memleak_padding(p, 64, sizeof(struct test_elem));
	roots[0] = (unsigned long)&obj->node;
	expect_suspects(NULL);
	roots[0] = (unsigned long)obj;
	expect_suspects(NULL);
	roots[0] = (unsigned long)p + 8;
	expect_suspects(p, NULL);
	untrack(p);
}

/* memleak_padding() at offset 0: the aliases of the object's size. */
static void test_padding_object_size(void **state)
{
	void *p = track(sizeof(struct test_elem) + 40, 1);
	struct test_elem *obj = p;

	(void)state;
	roots[0] = (unsigned long)&obj->node;
	expect_suspects(p, NULL);	/* 40 bytes more: not its size's */
	memleak_padding(p, 0, sizeof(struct test_elem));
	assert_ptr_equal(block_aliases(tracked_block(p)),
			 memleak_aliases_of_size(sizeof(struct test_elem)));
	expect_suspects(NULL);
	untrack(p);
}

/*
 * A block's aliases are those of its size now: a module's (inserted
 * after the block was made) count while it is loaded, and no longer once
 * it is removed.
 */
static void test_module_aliases(void **state)
{
	static const struct memleak_offset module_offsets[] = {
		{ .offset = 24, .size = 88, .member_size = 8 },
	};
	void *p = track(88, 1);
	unsigned long flags;

	(void)state;
	roots[0] = (unsigned long)p + 24;
	expect_suspects(p, NULL);
	assert_int_equal(memleak_insert_aliases(module_offsets,
						module_offsets + 1), 0);
	memleak_enter(&flags);
	assert_int_equal(block_aliases(tracked_block(p))->size, 88);
	memleak_leave(flags);
	expect_suspects(NULL);
	memleak_remove_aliases(module_offsets, module_offsets + 1);
	expect_suspects(p, NULL);
	untrack(p);
}

/*
 * The rare parts of blocks (extra.c), more blocks than its hash table
 * has buckets: each block finds its own padding and scan area, and only
 * a block that has one carries MEMLEAK_EXTRA; a block freed while the
 * collector is pinned loses its areas at once, but their memory stays
 * as it was until the unpin.
 */
#define NR_EXTRA 300

static unsigned long extra_pad(unsigned int i)
{
	return i % 3 == 0 ? 8 * (i % 7 + 1) : 0;
}

static void check_extra(void *const *p, unsigned int i)
{
	struct memleak_block *b = tracked_block(p[i]);
	const struct memleak_scan_area *area;

	assert_non_null(b);
	assert_int_equal(block_pad_offset(b), extra_pad(i));
	assert_int_equal(!!(b->flags & MEMLEAK_EXTRA),
			 extra_pad(i) || i % 2 == 0);
	area = block_scan_areas(b);
	if (i % 2) {
		assert_null(area);
		return;
	}
	assert_non_null(area);
	assert_int_equal(area->offset, i % 8 * 8);
	assert_int_equal(area->length, 8);
	assert_null(area->next);
}

static void test_extra_records(void **state)
{
	const struct memleak_scan_area *area;
	void *p[NR_EXTRA];
	struct memleak_block *b;
	unsigned long flags;

	(void)state;
	for (unsigned int i = 0; i < NR_EXTRA; i++) {
		p[i] = track(64, 1);
		if (extra_pad(i))
			memleak_padding(p[i], extra_pad(i), 8);
		if (i % 2 == 0)
			memleak_scan_area(p[i], i % 8 * 8, 8);
	}
	for (unsigned int i = 0; i < NR_EXTRA; i++)
		check_extra(p, i);
	for (unsigned int i = 0; i < NR_EXTRA; i += 4)
		untrack(p[i]);
	for (unsigned int i = 0; i < NR_EXTRA; i++)
		if (i % 4)
			check_extra(p, i);
	/* Freed while pinned: its areas leave it, but stay readable. */
	b = tracked_block(p[2]);
	area = block_scan_areas(b);
	memleak_enter(&flags);
	memleak_pin();
	memleak_leave(flags);
	untrack(p[2]);
	memleak_flush_pending();
	assert_false(b->flags & (MEMLEAK_ALLOCATED | MEMLEAK_EXTRA));
	assert_int_equal(area->offset, 16);
	memleak_enter(&flags);
	memleak_unpin();
	memleak_leave(flags);
	for (unsigned int i = 3; i < NR_EXTRA; i++)
		if (i % 4)
			untrack(p[i]);
	untrack(p[1]);
}

static char *report_line(char *buf, size_t size, const char *fmt,
			 unsigned long addr)
{
	snprintf(buf, size, fmt, addr);
	return buf;
}

/*
 * Many white blocks (a filter of its own size for the pause) and one
 * pointer stored after the concurrent pass, as another CPU might: the
 * pause finds it, only that block is rescued, the rest are reported.
 */
#define MANY_WHITE 2000
static void *many[MANY_WHITE];

static void store_late_pointer(void)
{
	roots[3] = (unsigned long)many[1234];
}

static void test_pause_rescues_among_many_whites(void **state)
{
	unsigned long rescued = memleak.nr_rescued;

	(void)state;
	for (unsigned int i = 0; i < MANY_WHITE; i++)
		many[i] = track(32, 1);
	host_memleak_on_stop_world = store_late_pointer;
	scan_later();
	host_memleak_on_stop_world = NULL;
	assert_int_equal(memleak.nr_rescued - rescued, 1);
	assert_false(is_suspect(many[1234]));
	assert_true(is_suspect(many[0]));
	assert_true(is_suspect(many[MANY_WHITE - 1]));
	assert_int_equal(memleak.nr_suspects, MANY_WHITE - 1);
	for (unsigned int i = 0; i < MANY_WHITE; i++)
		untrack(many[i]);
}

/*
 * A white block whose contents changed since the scan before is made
 * gray by step 4, before the pause: the pause did not find it
 * referenced, so 'memleak stats' does not count it among the blocks
 * the pause found referenced. A new white block makes the second scan
 * pause at all.
 */
static void test_changed_block_is_no_rescue(void **state)
{
	unsigned long *changed = track(64, 1), rescued, pauses;
	void *fresh;

	(void)state;
	scan_later();
	assert_true(is_suspect(changed));
	changed[3] = 0x5a5a;
	fresh = track(64, 1);
	rescued = memleak.nr_rescued;
	pauses = memleak.pauses;
	scan_later();
	assert_int_equal(memleak.pauses - pauses, 1);
	assert_false(is_suspect(changed));
	assert_true(is_suspect(fresh));
	assert_int_equal(memleak.nr_rescued - rescued, 0);
	untrack(changed);
	untrack(fresh);
}

/*
 * The host library runs one thread, so nothing but the scan runs between
 * the mark and the pause (arch/host/written.c): the pause reads again
 * none of the blocks the mark read, only the roots outside the arena.
 */
static void test_pause_passes_over_unwritten_memory(void **state)
{
	void **held = track(1024, 1), *white = track(64, 1);

	(void)state;
	for (unsigned int i = 0; i < 8; i++)
		held[i] = track(512, 1);
	roots[0] = (unsigned long)held;
	scan_later();
	assert_true(memleak.pause_knew_writes);
	assert_true(is_suspect(white));
	assert_false(is_suspect(held[7]));
	assert_true(memleak.pause_bytes <= sizeof(roots));
	/* Not even visited: the lookup that queued them set their read bits. */
	assert_true(memleak.pause_passed >= 9);
	assert_int_equal(memleak.pause_passed, memleak.pause_unwritten);
	roots[0] = 0;
	for (unsigned int i = 0; i < 8; i++)
		untrack(held[i]);
	untrack(held);
	untrack(white);
}

static void **late_holder;
static void *late_target;

static void store_into_block(void)
{
	late_holder[5] = late_target;
}

/* The same store by a hook that then takes itself away, as it ran once. */
static void store_into_block_once(void)
{
	store_into_block();
	host_memleak_on_stop_world = NULL;
}

/*
 * A test playing another CPU (late, run just before the world stops)
 * stores into a block the mark read: the host cannot see that store, so
 * the pause reads everything again and finds it.
 */
static void check_late_store_found(void (*late)(void))
{
	late_holder = track(256, 1);
	memset(late_holder, 0, 256);
	late_target = track(64, 1);
	roots[0] = (unsigned long)late_holder;
	host_memleak_on_stop_world = late;
	scan_later();
	host_memleak_on_stop_world = NULL;
	assert_false(memleak.pause_knew_writes);
	assert_false(is_suspect(late_target));
	assert_true(memleak.pause_bytes >= 256);
	roots[0] = 0;
	untrack(late_target);
	untrack(late_holder);
}

static void test_pause_reads_everything_after_another_cpu(void **state)
{
	(void)state;
	check_late_store_found(store_into_block);
}

static void test_pause_reads_everything_after_a_hook_went(void **state)
{
	(void)state;
	check_late_store_found(store_into_block_once);
}

/*
 * A block that needs two references (min_count 2, as a vmalloc area,
 * which its own bookkeeping points to once) has one in memory the mark
 * read and nobody wrote since, and gains the other just before the
 * world stops, in a root. The pause, which would pass over the first
 * and count from 0 again, reads everything and finds both.
 */
static void *needs_two;

static void store_second_reference(void)
{
	roots[2] = (unsigned long)needs_two;
}

static void test_second_reference_before_pause(void **state)
{
	void **holder = track(64, 1);

	(void)state;
	memset(holder, 0, 64);
	needs_two = track(128, 2);
	holder[0] = needs_two;
	roots[0] = (unsigned long)holder;
	host_stop_world_stores_outside_ram = true;
	host_memleak_on_stop_world = store_second_reference;
	scan_later();
	host_memleak_on_stop_world = NULL;
	host_stop_world_stores_outside_ram = false;
	assert_false(is_suspect(needs_two));
	assert_false(memleak.pause_knew_writes);
	roots[0] = roots[2] = 0;
	untrack(needs_two);
	untrack(holder);
}

/*
 * The pages a scan takes for itself (the bitmap of written pages, a white
 * filter for many white blocks) count as the collector's: with them,
 * memleak_nr_free_pages() does not move while the scan runs, so that a
 * test comparing it before and after some work holds even when a scan
 * runs in between (as 'memleak scan=1' makes the kernel's self-tests).
 */
static unsigned long free_before_scan, free_during_scan;

static void note_free_pages(void)
{
	free_during_scan = memleak_nr_free_pages();
}

static void test_scan_memory_counted(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < MANY_WHITE; i++)
		many[i] = track(32, 1);
	memleak_flush_pending();
	free_before_scan = memleak_nr_free_pages();
	host_memleak_on_stop_world = note_free_pages;
	scan_later();
	host_memleak_on_stop_world = NULL;
	assert_int_equal(free_during_scan, free_before_scan);
	for (unsigned int i = 0; i < MANY_WHITE; i++)
		untrack(many[i]);
}

/* The 'memleak' command prints Linux's report, and clear hides it. */
static void test_report_format(void **state)
{
	void *lost = track(48, 1), *kept = track(48, 1);
	char line[96];

	(void)state;
	memcpy(lost, "leaked bytes", 12);
	roots[0] = (unsigned long)kept;
	jiffies += 2 * HZ;
	assert_int_equal(shell_run_line("memleak"), 0);
	assert_true(log_has(report_line(
		line, sizeof(line), "unreferenced object 0x%08lx (size 48):\n",
		(unsigned long)lost)));
	assert_false(log_has(report_line(line, sizeof(line),
					 "unreferenced object 0x%08lx",
					 (unsigned long)kept)));
	assert_true(log_has("  comm \"test_memleak\", pid "));
	assert_true(
		log_has("  hex dump (first 32 bytes):\n"
			"    6c 65 61 6b 65 64 20 62 79 74 65 73 00 00 00 00  "
			"leaked bytes....\n"));
	assert_true(log_has("  backtrace:\n    [<"));
	assert_true(
		log_has("memleak: 1 new suspected memory leaks (1 total)\n"));
	host_log_clear();
	assert_int_equal(shell_run_line("memleak scan"), 0);
	assert_true(
		log_has("memleak: 0 new suspected memory leaks (1 total)\n"));
	assert_int_equal(shell_run_line("memleak clear"), 0);
	assert_true(log_has("memleak: 1 reported blocks cleared\n"));
	host_log_clear();
	assert_int_equal(shell_run_line("memleak"), 0);
	assert_false(log_has("unreferenced object"));
	assert_true(
		log_has("memleak: 0 new suspected memory leaks (0 total)\n"));
	untrack(lost);
	untrack(kept);
}

/* The position of block p's report in the log, or NULL. */
static const char *report_of(const void *p)
{
	char line[64];

	return strstr(host_log(), report_line(line, sizeof(line),
					      "unreferenced object 0x%08lx",
					      (unsigned long)p));
}

/*
 * Suspects are printed oldest first: by allocation tick, then by
 * address; not in the order they were allocated, nor by address alone.
 */
static void test_report_order(void **state)
{
	const unsigned long tick = jiffies;
	void *late, *a, *b;

	(void)state;
	jiffies = tick + 10;
	late = track(48, 1);
	jiffies = tick;
	a = track(48, 1);
	b = track(48, 1);
	if (a > b) {
		void *t = a;

		a = b;
		b = t;
	}
	jiffies = tick + 10 + 2 * HZ;
	assert_int_equal(shell_run_line("memleak"), 0);
	assert_non_null(report_of(a));
	assert_non_null(report_of(b));
	assert_non_null(report_of(late));
	assert_true(report_of(a) < report_of(b));
	assert_true(report_of(b) < report_of(late));
	untrack(late);
	untrack(a);
	untrack(b);
}

/*
 * A suspect freed while the report prints the one before it, its slot
 * taken at once by a new block (a record reused, as another CPU could):
 * the report skips the record, and never prints the new block as a leak.
 */
static void *reused_suspect, *reusing_block;

static void reuse_suspect_slot(void)
{
	if (!reused_suspect || !strstr(host_log(), "unreferenced object"))
		return;
	untrack(reused_suspect);
	reusing_block = track(40, 1);
	memleak_flush_pending();	/* its record now */
	reused_suspect = NULL;
	host_on_console_write = NULL;
}

static void test_report_skips_reused_record(void **state)
{
	void *p[16], *a = NULL, *b = NULL;
	struct memleak_block *record;
	char line[64];

	(void)state;
	/* Two in one page: one slab's records, kept while a is tracked. */
	for (unsigned int i = 0; i < 16; i++) {
		p[i] = track(48, 1);
		for (unsigned int j = 0; j < i && !a; j++)
			if (((unsigned long)p[i] ^ (unsigned long)p[j]) < PAGE_SIZE) {
				a = min(p[i], p[j]);	/* printed first */
				b = max(p[i], p[j]);
			}
	}
	assert_non_null(a);
	for (unsigned int i = 0; i < 16; i++)
		if (p[i] != a && p[i] != b)
			untrack(p[i]);
	memleak_flush_pending();
	record = memleak_lookup_block((unsigned long)b);
	jiffies += 2 * HZ;
	reused_suspect = b;
	host_on_console_write = reuse_suspect_slot;
	assert_int_equal(shell_run_line("memleak"), 0);
	host_on_console_write = NULL;
	assert_null(reused_suspect);
	assert_ptr_equal(reusing_block, b);	/* the same slot */
	assert_ptr_equal(memleak_lookup_block((unsigned long)b), record);
	assert_non_null(report_of(a));
	assert_null(strstr(host_log(),
			   report_line(line, sizeof(line),
					"unreferenced object 0x%08lx (size 40)",
					(unsigned long)b)));
	untrack(a);
	untrack(reusing_block);
}

static void test_dump_stats_usage(void **state)
{
	void *p = track(56, 1);
	char cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "memleak dump %lx", (unsigned long)p + 8);
	assert_int_equal(shell_run_line(cmd), 0);
	assert_true(log_has("(size 56), white after the last scan"));
	assert_int_equal(shell_run_line("memleak dump 10"), 1);
	assert_true(log_has(
		"memleak dump: 0x00000010 is not inside any tracked block"));
	assert_int_equal(shell_run_line("memleak dump zz"), 1);
	assert_true(log_has("memleak dump: 'zz' is not a hex address"));
	assert_int_equal(shell_run_line("memleak stats"), 0);
	assert_true(log_has("blocks tracked: 1 "));
	assert_true(log_has("longest irq-off window: "));
	assert_int_equal(shell_run_line("memleak bogus"), 1);
	assert_true(log_has("memleak: no subcommand 'bogus'"));
	assert_true(log_has("usage: memleak"));
	assert_int_equal(shell_run_line("memleak dump"), 1);
	assert_true(log_has("usage: memleak dump ADDR"));
	assert_int_equal(shell_run_line("memleak stats now"), 1);
	assert_true(log_has("usage: memleak stats\n"));
	assert_int_equal(shell_run_line("memleak stack=maybe"), 1);
	assert_true(log_has("memleak: 'maybe' is not on or off"));
	assert_int_equal(shell_run_line("memleak help"), 0);
	assert_true(log_has("memleak dump ADDR"));
	assert_true(log_has("memleak age MS"));
	untrack(p);
}

/* A reported block freed later: the orphan-freeing notice. */
static void test_orphan_freed(void **state)
{
	void *lost = track(40, 1);
	char line[96];

	(void)state;
	expect_suspects(lost, NULL);
	host_log_clear();
	untrack(lost);
	assert_true(log_has(
		report_line(line, sizeof(line),
			    "memleak: freeing orphan object 0x%08lx (size 40)",
			    (unsigned long)lost)));
	assert_true(log_has("Call trace:"));
	/* The scan after that has nothing to say. */
	expect_suspects(NULL);
}

/* Bad annotations get a message; the collector goes on. */
static void test_bad_annotations(void **state)
{
	void *p = track(40, 1);

	(void)state;
	/* Both wait in the log: caught when it is flushed. */
	memleak_alloc((char *)p, 8, 1);
	assert_false(log_has("overlaps a tracked one"));
	memleak_flush_pending();
	expect_disabled("overlaps a tracked one");
	memleak_not_leak((char *)p + 8);
	assert_true(log_has("memleak_not_leak: "));
	memleak_free((char *)p + 8);
	assert_true(log_has("memleak: freeing unknown object"));
	/* p is in the index now: caught when the log is flushed. */
	memleak_alloc((char *)p, 8, 1);
	assert_false(log_has("overlaps a tracked one"));
	memleak_flush_pending();
	assert_true(log_has("overlaps a tracked one"));
	assert_false(memleak.enabled);
	/* Disabled: a scan is refused. Put it back for the other tests. */
	assert_int_equal(memleak_scan(), -EBUSY);
	memleak.enabled = true;
	memleak_set_tracking(true);
	host_log_clear();
	untrack(p);
}

/* A record holds a size of 32 bits: a larger block is refused, loudly. */
static void test_too_large_block(void **state)
{
	char *p = kmalloc(64, GFP_KERNEL);

	(void)state;
	memleak_alloc(p, (size_t)1 << 33, 1);
	memleak_flush_pending();
	expect_disabled("is too large to track");
	assert_null(memleak_lookup_block((unsigned long)p));
	kfree(p);
}

/*
 * A block outside RAM is in the tree, whose node keeps its whole start:
 * one 4 GiB and more above RAM's first byte (a 64-bit host) is tracked,
 * found and freed as any other.
 */
static void test_block_far_from_ram(void **state)
{
	char *near = host_outside_ram(PAGE_SIZE);
	char *far = (char *)memleak_addr_base() + (1ul << 32) + PAGE_SIZE;

	(void)state;
	memleak_alloc(near, 64, 1);
	memleak_flush_pending();
	assert_non_null(memleak_lookup_block((unsigned long)near));
	assert_int_equal(block_start(memleak_lookup_block((unsigned long)near)),
			 (unsigned long)near);
	memleak_free(near);
	/* Never dereferenced: tracking reads no block. */
	memleak_alloc(far, 64, 1);
	memleak_flush_pending();
	assert_non_null(memleak_lookup_block((unsigned long)far));
	assert_int_equal(block_start(memleak_lookup_block((unsigned long)far)),
			 (unsigned long)far);
	memleak_free(far);
	assert_null(memleak_lookup_block((unsigned long)far));
}

/* The number of tracked blocks, the logs of recent ones flushed. */
static unsigned long blocks_after_flush(void)
{
	memleak_flush_pending();
	return memleak.nr_blocks;
}

/* A block freed while it waits in the log never reaches the tree. */
static void test_pending_pair_cancels(void **state)
{
	unsigned long traces = memleak.nr_traces;

	(void)state;
	for (int i = 0; i < 100; i++)
		untrack(track(40, 1));
	assert_int_equal(memleak.nr_blocks, 0);
	assert_int_equal(blocks_after_flush(), 0);
	assert_int_equal(memleak.nr_traces, traces);
	assert_false(log_has("freeing unknown object"));
}

/*
 * A full log is flushed by the allocation that finds it full; frees find
 * their blocks in the log or in the index, in any order.
 */
static void test_pending_overflow(void **state)
{
	enum { N = 40 };
	void *p[N];

	(void)state;
	for (int i = 0; i < N; i++)
		p[i] = track(24, 1);
	/* At most one log's worth still waits. */
	assert_true(memleak.nr_blocks >= N - MEMLEAK_PENDING_ALLOCS);
	for (int i = 0; i < N; i += 3)
		untrack(p[i]);
	assert_int_equal(blocks_after_flush(), N - (N + 2) / 3);
	for (int i = 0; i < N; i++)
		if (i % 3)
			untrack(p[i]);
	assert_false(log_has("freeing unknown object"));
}

static __attribute__((noinline)) void *track_on_cpu(unsigned int cpu)
{
	host_cpu_id = cpu;
	return track(40, 1);
}

/* One call site on two CPUs: a trace each, each naming its CPU. */
static void test_trace_per_cpu(void **state)
{
	unsigned int cpu = host_cpu_id;
	volatile unsigned int nr = 2;	/* a loop the compiler keeps */
	struct memleak_block *b[2];
	void *p[2];

	(void)state;
	for (unsigned int i = 0; i < nr; i++)
		p[i] = track_on_cpu(i + 1);
	host_cpu_id = cpu;
	memleak_flush_pending();
	assert_memory_equal(
		block_trace(memleak_lookup_block((unsigned long)p[0]))->entries,
		block_trace(memleak_lookup_block((unsigned long)p[1]))->entries,
		MEMLEAK_TRACE_LENGTH * sizeof(long));
	memleak_flush_pending();
	for (unsigned int i = 0; i < 2; i++) {
		b[i] = memleak_lookup_block((unsigned long)p[i]);
		assert_non_null(b[i]);
		assert_int_equal(block_trace(b[i])->cpu, i + 1);
	}
	assert_ptr_not_equal(block_trace(b[0]), block_trace(b[1]));
	for (unsigned int i = 0; i < 2; i++)
		untrack(p[i]);
}

/* Freed on another CPU than the one whose log it waits in. */
static void test_pending_cross_cpu_free(void **state)
{
	void *a, *b;

	(void)state;
	host_cpu_id = 2;
	a = track(40, 1);
	b = track(40, 1);
	host_cpu_id = 1;
	untrack(a);
	assert_false(log_has("freeing unknown object"));
	/* The free flushed CPU 2's log: b is in the index, allocated there. */
	assert_int_equal(memleak.nr_blocks, 1);
	assert_int_equal(block_trace(memleak_lookup_block((unsigned long)b))->cpu,
			 2);
	untrack(b);
	memleak_free(a);
	assert_true(log_has("memleak: freeing unknown object"));
}

/*
 * A block keeps the time it was allocated at, not the time its log was
 * flushed; annotations apply to blocks still in the log.
 */
static void test_pending_time_and_annotations(void **state)
{
	unsigned long then = jiffies;
	void *young = track(40, 1), *kept = track(40, 1);

	(void)state;
	memleak_not_leak(kept);
	assert_false(log_has("is not the start of a tracked block"));
	jiffies += HZ / 2;
	assert_int_equal(blocks_after_flush(), 2);
	assert_int_equal(memleak_lookup_block((unsigned long)young)->jiffies,
			 then);
	/* 2.5 s old at the scan: reported; not_leak holds for kept. */
	expect_suspects(young, NULL);
	untrack(young);
	untrack(kept);
}

/*
 * A scan judges ages by the minimum set when it began. A test lowering
 * it to 0 while a background scan runs (as the kernel's stress test
 * does) must not make that scan report a block made moments ago, whose
 * pointer its owner may still hold only in a register.
 */
static unsigned long min_age_saved;

static void lower_min_age(void)
{
	memleak.min_age_jiffies = 0;
}

static void test_min_age_from_scan_start(void **state)
{
	void *young = track(64, 1);

	(void)state;
	min_age_saved = memleak.min_age_jiffies;
	host_memleak_on_stop_world = lower_min_age;
	assert_int_equal(memleak_scan(), 0);
	host_memleak_on_stop_world = NULL;
	assert_int_equal(memleak.min_age_jiffies, 0);
	assert_false(is_suspect(young));
	assert_int_equal(memleak.nr_young, 1);
	/* The next scan goes by the new minimum. */
	assert_int_equal(memleak_scan(), 0);
	assert_true(is_suspect(young));
	memleak.min_age_jiffies = min_age_saved;
	untrack(young);
}

/*
 * A block stamped after the scan's first tick (made during step 1, so
 * white in this scan) is young, not 2^32 ticks old.
 */
static void test_block_made_after_scan_start_young(void **state)
{
	const unsigned long tick = jiffies + 2 * HZ;
	void *made_late;

	(void)state;
	jiffies = tick + 1;
	made_late = track(64, 1);
	memleak_flush_pending();
	jiffies = tick;
	assert_int_equal(memleak_scan(), 0);
	assert_false(is_suspect(made_late));
	assert_int_equal(memleak.nr_young, 1);
	scan_later();
	assert_true(is_suspect(made_late));
	untrack(made_late);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_orphan, memleak_test_setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_reachable_and_orphan_chains, memleak_test_setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_cycle_of_orphans,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_alias_offset_pointer,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_interior_pointer,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_low_bits_refer_to_nothing,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_min_count_two,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_leak,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_ignore, memleak_test_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_scan_area,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_large_block_chunks,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_blocks,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_min_age_and_checksum,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_pause_rescues_among_many_whites,
			memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_changed_block_is_no_rescue,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_pause_reads_everything_after_a_hook_went,
			memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_second_reference_before_pause, memleak_test_setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_scan_memory_counted,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_pause_passes_over_unwritten_memory,
			memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_pause_reads_everything_after_another_cpu,
			memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_checksum_table,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_checksum_resize,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_padding,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_padding_object_size,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_module_aliases,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_extra_records,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_format,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_order,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_report_skips_reused_record,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_dump_stats_usage,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_orphan_freed,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_annotations,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_block_far_from_ram,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_too_large_block,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending_pair_cancels,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending_overflow,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_trace_per_cpu,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending_cross_cpu_free,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_pending_time_and_annotations, memleak_test_setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_min_age_from_scan_start,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_block_made_after_scan_start_young,
			memleak_test_setup, teardown),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
