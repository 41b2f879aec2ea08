/*
 * The leak collector's scan. Like a tracing garbage
 * collector that reports instead of freeing:
 *
 *   1. every block starts white (count = 0), except the ones annotated
 *      as never leaking (min_count 0), which start the gray list;
 *   2. the roots are scanned word by word (.data/.bss, every CPU's
 *      per-CPU area, the struct page array and thread stacks, see
 *      roots.c, and whatever else registers with MEMLEAK_ROOT);
 *      a word that is the address of a white block (or one of its
 *      aliases) counts one reference, and a block with min_count
 *      references turns gray and joins the list;
 *   3. the gray list is drained: each gray block is scanned in turn (its
 *      scan areas only, when it has any), which may append more;
 *   4. white blocks whose contents changed since the previous scan are
 *      probably in use: they are made gray and rescanned, not reported;
 *   5. the blocks still white are checked once more with the world
 *      stopped (confirm_white_blocks()), and those still white then (and
 *      old enough) are the suspected leaks, sorted into direct, indirect
 *      and possibly lost ones (classify.c).
 *
 * Steps 1-4 run while the other CPUs go on, so they can miss a pointer:
 * one in a register or on a stack while its owner moves it, one stored
 * into memory already scanned. Step 5 makes that impossible. With every
 * other CPU parked, it reads all the memory the scan reads, plus the
 * live part of every thread stack, where the registers of a parked CPU
 * or a switched-out thread are saved; only the white blocks can still
 * gain references, so a bitmap of their addresses passes over the rest
 * at little more than the cost of reading it. Where the machine records
 * writes (written.c), a block the mark read whole (MEMLEAK_SCANNED) is
 * read again only if one of its pages was written since the mark began:
 * the others still hold what the mark read. Blocks allocated after
 * step 1 are never white in this scan (MEMLEAK_NEW): the roots may have
 * been scanned before their pointer was stored. A block confirmed white
 * stays so until it gains a reference (nothing can create a pointer to
 * memory nobody points to), so later scans stop the world only for
 * blocks that were not confirmed before.
 *
 * Memory is scanned with memleak_lock held and interrupts off for at
 * most SCAN_BUDGET words at a time (each gray block also costs
 * BLOCK_WORDS of it), across as many small blocks as fit,
 * and the index walked in batches of WALK_BATCH blocks (scan_lock(),
 * which also times the window); in between other CPUs may allocate and
 * free. A block freed meanwhile loses MEMLEAK_ALLOCATED and is skipped;
 * the scan pins the collector (memleak_pin()), so the records of blocks
 * in its queues stay readable until the scan is over. A slab object's
 * record may meanwhile have been taken by a newer object in the same
 * slot: that one is MEMLEAK_NEW (made while the scan runs), not the
 * block that was queued, and skipped too (still_queued()).
 */
#include <kernel/memleak.h>
#include <kernel/bitops.h>
#include <kernel/cycles.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include "internal.h"
#include "index.h"

/* Words read per IRQ-off window: 4 KiB on 32-bit machines. */
#define SCAN_BUDGET 1024
/*
 * What the fixed work of one gray block (taking it from the queue, its
 * metadata, its type) costs the window, in words: about what reading
 * 32 words costs. Without it, a run of blocks with few words to read
 * (small ones, typed ones) would hold interrupts off for hundreds of
 * blocks in one window.
 */
#define BLOCK_WORDS 32
/* What a block a walk passes over costs it (step 5: one not read). */
#define SKIP_WORDS 4
/* What looking up a block's pages costs besides, in step 5 (written.c). */
#define PAGES_CHECK_WORDS 16
/* What a block the pause's walk passes over unvisited costs, in words. */
#define PASSED_WORDS 4
/* How far ahead in the gray queue the next blocks are prefetched. */
#define PREFETCH_AHEAD 4

/* The gray queue; only the (single) running scan touches it. */
static struct memleak_queue gray;
static unsigned int budget;

/*
 * Step 5's filter: a bit per hash of each 64-byte granule where a white
 * block may be referenced (its start and aliases; all of it with
 * interior pointers). A word whose bit is clear refers to no white
 * block. Bit patterns, no pointers: kept out of the roots. It has about
 * 32 bits per white block (so that most words pass it without an index
 * lookup however many blocks are white), from 16 Kbit in .bss to 16 Mbit
 * allocated for the pause; when that allocation fails the 16 Kbit one
 * serves, only slower.
 */
#define FILTER_MIN_SHIFT 14
#define FILTER_MAX_SHIFT 24
#define FILTER_BITS_PER_BLOCK_SHIFT 5
#define FILTER_GRANULE_SHIFT 6
static unsigned long small_filter[(1 << FILTER_MIN_SHIFT) / BITS_PER_LONG] __memleak_noscan;
static unsigned long *white_filter = small_filter;
static unsigned int filter_shift = FILTER_MIN_SHIFT;

const char *const memleak_phase_names[MEMLEAK_NR_PHASES] = {
	[MEMLEAK_PHASE_RESET] = "reset",
	[MEMLEAK_PHASE_MARK] = "marking",
	[MEMLEAK_PHASE_CHECKSUM] = "checksums",
	[MEMLEAK_PHASE_CONFIRM] = "confirmation",
	[MEMLEAK_PHASE_CLASSIFY] = "classification",
};

/*
 * Ends a phase of the scan begun at *since (the next begins now). Only
 * the scan, which is single, writes the figures; 'memleak stats' reads
 * them as they are.
 */
static void end_phase(enum memleak_phase phase, u64 *since)
{
	u64 now = arch_cycles();

	memleak.phase_cycles[phase] = now - *since;
	*since = now;
}

/* Serialises scans: a second 'memleak' waits for none, it is refused. */
static bool scan_running;

/*
 * The frame of memleak_scan(): on the scanning thread's own stack only
 * what lies above it is scanned (roots.c). The collector's own
 * frames, and dead slots in them left by earlier calls (a report that
 * printed a block's address, say), must not pass for references.
 */
unsigned long memleak_stack_floor;

/*
 * Whether b, queued by this scan, is still that block after the lock
 * was dropped: not freed, and its record not taken by a block made
 * since (MEMLEAK_NEW: never queued, see reset_colors()).
 */
static bool still_queued(const struct memleak_block *b)
{
	return (b->flags & (MEMLEAK_ALLOCATED | MEMLEAK_NEW)) ==
	       MEMLEAK_ALLOCATED;
}

/*
 * A queue that cannot grow ends the collector: a scan missing a gray
 * block would report what it points to.
 */
static void gray_push(struct memleak_block *b, unsigned long start)
{
	if (!memleak_queue_push(&gray, b, start))
		memleak_disable("out of memory for the scan's gray queue");
}

/*
 * b (at start) just turned gray: marked, so that the words that point
 * to it later are dismissed early (memleak_index_scan_lookup()), and
 * queued.
 */
static void make_gray(struct memleak_block *b, unsigned long start)
{
	memleak_index_mark(b, start);
	gray_push(b, start);
}

/*
 * Every stretch of the scan with interrupts off starts and ends here.
 * Each is timed with two cycle stamps (<kernel/cycles.h>: a counter
 * read, no conversion, cheap enough for a 64-byte block) from the
 * moment the lock is held to just before it is dropped; the longest
 * goes to 'memleak stats' and to 'mmbench scan'. window_start is only
 * touched with memleak_lock held.
 */
static u64 window_start;

void memleak_scan_window_enter(unsigned long *flags)
{
	memleak_enter(flags);
	window_start = arch_cycles();
}

void memleak_scan_window_leave(unsigned long flags)
{
	u64 len = arch_cycles() - window_start;

	if (len > memleak.scan_irqoff_cycles)
		memleak.scan_irqoff_cycles = len;
	if (len > memleak.max_irqoff_cycles)
		memleak.max_irqoff_cycles = len;
	memleak_leave(flags);
}

/*
 * The queues' spare chunks are taken before the scan's windows open,
 * each in a window of its own: a new chunk may need a new slab, a page
 * the page allocator checks for poison (PAGE_POISON), which a window
 * that fills a chunk would otherwise wait for too.
 */
static void take_spare_chunks(void)
{
	unsigned long flags;
	bool taken;

	while (memleak_queue_short_of_spares()) {
		memleak_scan_window_enter(&flags);
		taken = memleak_queue_take_spare();
		memleak_scan_window_leave(flags);
		if (!taken)
			break;
	}
}

static void scan_lock(unsigned long *flags)
{
	take_spare_chunks();
	memleak_scan_window_enter(flags);
	budget = SCAN_BUDGET;
}

static void scan_unlock(unsigned long flags)
{
	memleak_scan_window_leave(flags);
}

/* Takes words of work from the window's budget. */
static void charge(unsigned long words)
{
	budget -= (unsigned int)min((unsigned long)budget, words);
}

/*
 * The same, and when the budget is spent the window closes and the next
 * opens. For loops over the scan's own queues, whose blocks stay
 * readable (pinned) in between.
 */
static void spend(unsigned long words, unsigned long *flags)
{
	charge(words);
	if (budget)
		return;
	scan_unlock(*flags);
	scan_lock(flags);
}

static unsigned int filter_bit(unsigned long addr)
{
	u32 granule = (u32)(addr >> FILTER_GRANULE_SHIFT);

	return (granule * 2654435761u) >> (32 - filter_shift);
}

static bool filter_has(unsigned long addr)
{
	return test_bit(filter_bit(addr), white_filter);
}

static void filter_add(unsigned long addr)
{
	set_bit(filter_bit(addr), white_filter);
}

/*
 * Whether a value within the bounds of all blocks may refer to one the
 * scan looks for: with the world stopped, only white blocks are, and
 * the filter dismisses most others before any lookup.
 */
static bool maybe_wanted(unsigned long value)
{
	return !memleak.confirming || filter_has(value);
}

/*
 * A white block (at start, marked) that a word's reference just turned
 * gray. With the world stopped only white blocks are unmarked, and each
 * one found is a block the mark alone would have reported: a rescue.
 */
static void turned_gray(struct memleak_block *b, unsigned long start)
{
	gray_push(b, start);
	if (memleak.confirming)
		memleak.nr_rescued++;
}

/*
 * Counts the reference of a word that may refer to a block (within the
 * bounds, and maybe_wanted()). A word refers to a block when it is its
 * start or one of its aliases: word-aligned addresses, so a word with
 * low bits set (a page-table entry: an address with flags) refers to
 * none. With interior=on, any address inside the block does. A marked block
 * (already gray or black) is not even looked at. The first reference to
 * a simple block, the common case, queues it unread: on a random heap
 * neither the block nor its record is in the cache, and the scan need
 * not wait for them (drain_gray_list() fetches them ahead, and checks
 * that the record still holds the block queued).
 */
static void count_reference(unsigned long value)
{
	struct memleak_block *b;
	unsigned long start;
	bool first_ref;

	if (!memleak.interior && value % sizeof(long))
		return;
	b = memleak_index_scan_lookup(value, &first_ref, &start);
	if (first_ref) {
		turned_gray(b, start);	/* marked by the lookup */
		return;
	}
	if (!b)
		return;
	if (!memleak.interior && !block_has_key(b, start, value)) {
		/* Not a reference; "possibly lost" if it stays white. */
		if (block_is_white(b))
			b->flags |= MEMLEAK_INTERIOR_REF;
		return;
	}
	if (!block_is_white(b)) {
		memleak_index_mark(b, start);	/* gray or black already */
	} else if (++b->count >= b->min_count) {
		memleak_index_mark(b, start);
		turned_gray(b, start);
	}
}

/*
 * Counts the references in [start, end); memleak_lock held. Most words
 * are small numbers (counts, flags, lengths), below every block: the
 * inner loop passes over those, a load and a compare each, with the
 * bounds themselves, not their inverted copies (memleak_state), held in
 * registers while the lock is (no block is made meanwhile; the scan
 * never reads its own frames, below memleak_stack_floor). Passing over
 * four words at a time, one compare of their OR, ran 4% fewer
 * instructions on the random heap of 100 k blocks (make bench) and its
 * marking took 8% more time: a group holding a pointer costs one more
 * mispredicted branch.
 */
static void scan_words(const unsigned long *p, const unsigned long *end)
{
	const unsigned long lowest = ~memleak.min_addr_inv;	/* a start */
	const unsigned long highest = ~memleak.max_addr_inv;	/* an end */

	for (;; p++) {
		while (p < end && *p < lowest)
			p++;
		if (p >= end)	/* an unaligned part may start past it */
			return;
		if (*p < highest && maybe_wanted(*p))
			count_reference(*p);
	}
}

/*
 * Scans [start, end), memleak_lock held, within the window's budget of
 * words: when it runs out the lock is dropped and taken again (other
 * CPUs run in between). When owner is given, stops as soon as that block
 * has been freed. Returns false when it stopped so. Inline: the mark
 * calls it for every gray block (a call cost about 20 instructions each).
 */
static __always_inline bool
scan_range_locked(unsigned long start, unsigned long end,
		  struct memleak_block *owner, unsigned long *flags)
{
	const unsigned long *p = (const unsigned long *)ALIGN(start, sizeof(long));
	const unsigned long *stop = (const unsigned long *)ALIGN_DOWN(end, sizeof(long));

	while (p < stop) {
		unsigned long n = min((unsigned long)(stop - p), (unsigned long)budget);

		scan_words(p, p + n);
		p += n;
		budget -= n;
		if (memleak.confirming)
			memleak.pause_bytes += n * sizeof(long);
		else
			memleak.bytes_scanned += n * sizeof(long);
		if (budget)
			continue;
		scan_unlock(*flags);
		scan_lock(flags);
		if (owner && !still_queued(owner))
			return false;
	}
	return true;
}

static void scan_words_confirming(unsigned long start, unsigned long end);

/* With the world stopped (step 5) there is no window to reopen. */
bool memleak_scan_words(unsigned long start, unsigned long end,
			struct memleak_block *owner, unsigned long *flags)
{
	if (memleak.confirming) {
		scan_words_confirming(start, end);
		return true;
	}
	return scan_range_locked(start, end, owner, flags);
}

/*
 * While memleak_walk_roots() runs, the roots' ranges go to its visitor
 * instead of being scanned; only the holder of the scan claim sets it.
 */
static void (*root_visit)(unsigned long start, unsigned long end,
			  const char *root, void *ctx);
static const char *root_name;
static void *root_ctx;
bool memleak_walking_roots;

/*
 * Set while the pause reads the roots, when it knows the written pages:
 * a root gives the same ranges to the mark and to the pause, so its
 * pages nobody wrote since the mark began are passed over.
 */
static bool roots_unwritten_skipped;

/* [start, end) a page at a time, the unwritten pages passed over. */
static void scan_written_pages(unsigned long start, unsigned long end,
			       unsigned long *flags)
{
	while (start < end) {
		unsigned long next = min(ALIGN(start + 1, PAGE_SIZE), end);

		if (memleak_range_written(start, next))
			scan_range_locked(start, next, NULL, flags);
		else
			spend(PAGES_CHECK_WORDS, flags);
		start = next;
	}
}

static void scan_root_range(const void *start, const void *end, bool whole)
{
	unsigned long flags;

	if (!start || end <= start)
		return;
	if (root_visit) {
		root_visit((unsigned long)start, (unsigned long)end, root_name,
			   root_ctx);
		return;
	}
	scan_lock(&flags);
	if (roots_unwritten_skipped && !whole)
		scan_written_pages((unsigned long)start, (unsigned long)end,
				   &flags);
	else
		scan_range_locked((unsigned long)start, (unsigned long)end,
				  NULL, &flags);
	scan_unlock(flags);
}

void memleak_scan_range(const void *start, const void *end)
{
	scan_root_range(start, end, false);
}

void memleak_scan_range_whole(const void *start, const void *end)
{
	scan_root_range(start, end, true);
}

/*
 * A gray block's scan areas, its pointer fields (a typed block:
 * types.c), or all of it; memleak_lock held. False when it was freed
 * before the end.
 */
static bool scan_gray_block(struct memleak_block *b, unsigned long start,
			    unsigned long *flags)
{
	const struct memleak_type *type = memleak_block_type(b);
	struct block_part part;

	if (type && !block_scan_areas(b)) {
		memleak_scan_typed_block(b, start, type, flags);
		return still_queued(b);
	}
	/* Areas are only added, never removed, while the block lives. */
	for_each_block_part(b, start, part)
		if (!scan_range_locked(part.start, part.end, b, flags))
			return false;
	return true;
}

/*
 * The gray queue is in the order blocks were found, which on a real heap
 * is random: every block's memory and its record are cache misses. They
 * are fetched ahead in two stages, so that none waits for another:
 * 2 * PREFETCH_AHEAD places ahead, a block's record and the first line
 * of its memory (the lookup that queued it gave the record's address
 * without reading it); PREFETCH_AHEAD places ahead, its memory's first
 * lines (memleak_prefetch_memory()), its size read from the record
 * fetched that many blocks ago (the first line fetched again: cheaper
 * than telling it apart).
 */
static void prefetch_ahead(void)
{
	const struct memleak_queue_entry *far, *near;

	far = memleak_queue_peek(&gray, 2 * PREFETCH_AHEAD);
	near = memleak_queue_peek(&gray, PREFETCH_AHEAD);

	if (far) {
		__builtin_prefetch((const void *)far->start);
		__builtin_prefetch(far->block);
	}
	if (near)
		memleak_prefetch_memory(near->block, near->start);
}

/* A gray block's fixed cost to the window; a new window when spent. */
static void charge_block(unsigned long *flags)
{
	if (budget > BLOCK_WORDS) {
		budget -= BLOCK_WORDS;
		return;
	}
	scan_unlock(*flags);
	scan_lock(flags);
}

/* Scans gray blocks until none is left (scanning may add more). */
static void drain_gray_list(void)
{
	struct memleak_queue_entry e;
	struct memleak_block *b;
	unsigned long flags;

	scan_lock(&flags);
	while (memleak_queue_pop_keeping(&gray, &e)) {
		prefetch_ahead();
		charge_block(&flags);
		b = e.block;
		if (!still_queued(b))
			continue;	/* freed since it was queued */
		/* Queued means gray: a first reference made it so. */
		if (block_is_white(b))
			b->count = b->min_count;
		/* It gained a reference: once white again, confirm it again. */
		b->flags &= ~MEMLEAK_CONFIRMED;
		/* Read whole: the pause passes over it if nobody writes it. */
		if (!block_is_black(b) && scan_gray_block(b, e.start, &flags))
			b->flags |= MEMLEAK_SCANNED;
	}
	scan_unlock(flags);
}

/*
 * Every walk of all blocks goes in the index's order (memleak_index_walk():
 * slab by slab in address order, then the blocks outside slabs), at most
 * WALK_BATCH blocks in each IRQ-off window, like the chunks of
 * scan_range(): a walk in one window would keep interrupts off for time
 * growing with the number of blocks. The position between windows is an
 * address, so blocks freed or made meanwhile need no care: those made
 * behind it are not visited. In a scan they are new and need no reset,
 * and the pause of step 5 reads every non-white block. The index's
 * order lets a slab's walk fetch its blocks ahead, and reads their
 * memory in address order.
 */
#define WALK_BATCH 512

static void walk_from(struct memleak_index_pos pos,
		      memleak_visit_fn *visit,
		      void *ctx)
{
	unsigned long flags;

	scan_lock(&flags);
	while (memleak_index_walk(&pos, WALK_BATCH, visit, ctx)) {
		scan_unlock(flags);
		scan_lock(&flags);
	}
	scan_unlock(flags);
}

void memleak_walk_blocks(memleak_visit_fn *visit,
			 void *ctx)
{
	walk_from((struct memleak_index_pos)MEMLEAK_INDEX_WALK_START, visit,
		  ctx);
}

/* Step 1 for a block that is gray even so (never a leak): listed. */
static void gray_from_start(struct memleak_block *b, unsigned long start,
			    void *ctx)
{
	(void)ctx;
	make_gray(b, start);
}

/*
 * Step 1: no marks, everything white, the never-leaking blocks gray.
 * Blocks created during the walk start white (or, never leaking, gray:
 * step 5 reads them); from its end on, new blocks are MEMLEAK_NEW
 * (tracking.c).
 */
static void reset_colors(void)
{
	unsigned long flags, from = 0;

	scan_lock(&flags);
	while ((from = memleak_slot_bits_clear_marks(from, SCAN_BUDGET))) {
		scan_unlock(flags);
		scan_lock(&flags);
	}
	scan_unlock(flags);
	walk_from((struct memleak_index_pos)MEMLEAK_INDEX_WALK_RESET,
		  gray_from_start, NULL);
	scan_lock(&flags);
	memleak.marking = true;
	scan_unlock(flags);
}

static void scan_roots(void)
{
	const struct memleak_root *root;

	for (root = __start_memleak_roots; root < __stop_memleak_roots; root++)
		root->scan();
}

/*
 * For the classification (classify.c), while the words are at hand: a
 * word of white block b at p that may point to another white block.
 */
static void note_if_white_target(struct memleak_block *b, unsigned long start,
				 const unsigned long *p)
{
	if (memleak_in_bounds(*p) &&
	    memleak_reads_word(b, (unsigned long)p - start) &&
	    !memleak_index_marked(*p))
		memleak_classify_note(b, start, *p);
}

/*
 * A cheap hash of the block's contents, a word at a time (the bytes of
 * a size that is not a whole number of words are left out: a change
 * there alone goes unseen, which only means a report), noting the words
 * the classification will want. memleak_lock held, within the window's
 * budget; false when the block was freed.
 */
static bool checksum_block(struct memleak_block *b, unsigned long start,
			   u32 *sum, unsigned long *flags)
{
	const unsigned long *p = (const unsigned long *)start;
	const unsigned long *end = p + block_size(b) / sizeof(long);
	/* The lowest start, as in scan_words(). */
	const unsigned long lowest = ~memleak.min_addr_inv;
	u32 h = 2166136261u;

	while (p < end) {
		unsigned long n = min((unsigned long)(end - p), (unsigned long)budget);

		for (const unsigned long *stop = p + n; p < stop; p++) {
			h = (h ^ (u32)*p) * 16777619u;
			if (*p >= lowest)
				note_if_white_target(b, start, p);
		}
		budget -= n;
		if (budget)
			continue;
		scan_unlock(*flags);
		scan_lock(flags);
		if (!still_queued(b))
			return false;
	}
	*sum = h;
	return true;
}

/* The white blocks, and how many of them have no checksum yet. */
struct white_list {
	struct memleak_queue blocks;
	unsigned long unsummed;
};

static void collect_if_white(struct memleak_block *b, unsigned long start,
			     void *ctx)
{
	struct white_list *white = ctx;

	if (!block_is_white(b))
		return;
	if (!memleak_queue_push(&white->blocks, b, start))
		memleak_disable("out of memory for the list of white blocks");
	white->unsummed += !(b->flags & MEMLEAK_CHECKSUM_VALID);
}

/*
 * Step 4 for one white block, given the checksum of its contents now:
 * returns true when they changed since the previous scan, after making
 * the block gray for this scan. memleak_lock held.
 */
static bool note_checksum(struct memleak_block *b, unsigned long start,
			  u32 sum)
{
	bool valid = b->flags & MEMLEAK_CHECKSUM_VALID;
	u32 old;
	int had = memleak_checksum_replace(b, sum, &old);

	if (had < 0) {
		memleak_disable("out of memory for checksums");
		return false;
	}
	b->flags |= MEMLEAK_CHECKSUM_VALID;
	/* The first sum compares to none (valid and had go together). */
	if (!valid || !had || sum == old)
		return false;
	b->flags &= ~MEMLEAK_CLEARED;	/* changed: worth showing again */
	if (block_is_white(b)) {
		b->count = b->min_count;
		make_gray(b, start);
	}
	return true;
}

/*
 * Step 4: sums every white block, in the list's order, the blocks and
 * their table slots fetched ahead; true when one changed (made gray).
 * The table makes room for the new sums first (growing once, its pages
 * cleared outside the lock).
 */
static bool sum_white_blocks(struct white_list *white)
{
	struct memleak_queue_chunk *chunk;
	struct memleak_queue_entry *e;
	unsigned long flags;
	bool rescan = false;
	unsigned int i;
	u32 sum;

	if (memleak_checksum_reserve(white->unsummed)) {
		scan_lock(&flags);
		memleak_disable("out of memory for checksums");
		scan_unlock(flags);
	}
	scan_lock(&flags);
	memleak_queue_for_each(&white->blocks, chunk, i, e) {
		const struct memleak_queue_entry *ahead =
			memleak_queue_ahead(chunk, i);

		memleak_queue_prefetch(chunk, i);
		if (ahead)
			memleak_checksum_prefetch(ahead->block);
		if (memleak.enabled && still_queued(e->block) &&
		    checksum_block(e->block, e->start, &sum, &flags))
			rescan |= note_checksum(e->block, e->start, sum);
		spend(BLOCK_WORDS, &flags);
	}
	scan_unlock(flags);
	return rescan;
}

/* ------------------------------------------------------------------ */
/* Step 5: the white blocks checked again with the world stopped        */

/* The filter's bits for one white block; count starts again from 0. */
static void filter_white_block(struct memleak_block *b, unsigned long start)
{
	const struct memleak_alias_set *set = block_aliases(b);
	unsigned long key, end = start + block_size(b), object;

	b->count = 0;
	if (memleak.interior) {
		for (key = start; key < end;
		     key += 1ul << FILTER_GRANULE_SHIFT)
			filter_add(key);
		filter_add(end - 1);
		return;
	}
	object = start + block_pad_offset(b);
	filter_add(start);
	filter_add(object);
	for (unsigned int i = 0; set && i < set->nr; i++)
		filter_add(object + set->offsets[i]);
}

/*
 * Fills the filter from the white blocks of list; returns how many of
 * them were never confirmed (0: no need to stop the world).
 */
static unsigned int filter_order(unsigned int shift)
{
	return get_order((1ul << shift) / 8);
}

/*
 * A filter sized for nr white blocks (the small one if none can be had).
 * Whole pages, untracked, and given back before the scan returns; taken
 * and given back under memleak_lock, so that the collector's memory
 * (memleak_white_filter_pages()) always counts them with the free pages.
 */
static void size_filter(unsigned long nr)
{
	unsigned int shift = FILTER_MIN_SHIFT;
	struct page *big = NULL;
	unsigned long flags;

	while (shift < FILTER_MAX_SHIFT &&
	       (1ul << shift) < (nr << FILTER_BITS_PER_BLOCK_SHIFT))
		shift++;
	memleak_enter(&flags);
	if (shift > FILTER_MIN_SHIFT)
		big = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, filter_order(shift));
	white_filter = big ? page_address(big) : small_filter;
	filter_shift = big ? shift : FILTER_MIN_SHIFT;
	memleak_leave(flags);
	memset(white_filter, 0, (1ul << filter_shift) / 8);
}

static void free_filter(void)
{
	unsigned long flags;

	if (white_filter == small_filter)
		return;
	memleak_enter(&flags);
	__free_pages(virt_to_page(white_filter), filter_order(filter_shift));
	white_filter = small_filter;
	filter_shift = FILTER_MIN_SHIFT;
	memleak_leave(flags);
}

/* memleak_lock held. */
unsigned long memleak_white_filter_pages(void)
{
	if (white_filter == small_filter)
		return 0;
	return 1ul << filter_order(filter_shift);
}

/*
 * Set by build_white_filter() when a white block needs more than one
 * reference (min_count > 1: a vmalloc area, which its own bookkeeping
 * points to once). Its count starts again from 0 in the pause, which
 * passes over the memory nobody wrote since the mark began: a reference
 * the mark counted there would not be counted again, and the block
 * could stay white with a second one stored since. Such a pause reads
 * everything again.
 */
static bool white_needs_more_than_one;

static unsigned long build_white_filter(struct memleak_queue *list)
{
	unsigned long flags, unconfirmed = 0;
	struct memleak_queue_chunk *chunk;
	struct memleak_queue_entry *e;
	unsigned int i;

	size_filter(list->nr);
	white_needs_more_than_one = false;
	scan_lock(&flags);
	memleak_queue_for_each(list, chunk, i, e) {
		struct memleak_block *b = e->block;

		memleak_queue_prefetch_record(chunk, i);
		spend(BLOCK_WORDS, &flags);
		if (!still_queued(b) || !block_is_white(b))
			continue;
		filter_white_block(b, e->start);
		unconfirmed += !(b->flags & MEMLEAK_CONFIRMED);
		white_needs_more_than_one |= b->min_count > 1;
	}
	scan_unlock(flags);
	return unconfirmed;
}

static void scan_words_confirming(unsigned long start, unsigned long end)
{
	scan_words((const unsigned long *)ALIGN(start, sizeof(long)),
		   (const unsigned long *)ALIGN_DOWN(end, sizeof(long)));
	memleak.pause_bytes += end - start;
}

/*
 * Every other block is read in full: it may hold the last pointer. The
 * world is stopped and the walk holds memleak_lock, so the block is read
 * right here, without the gray list or a lock per chunk.
 */
static void scan_if_not_white(struct memleak_block *b, unsigned long start,
			      void *ctx)
{
	const struct memleak_type *type = memleak_block_type(b);
	struct block_part part;

	(void)ctx;
	/*
	 * Each block costs the window its words and SKIP_WORDS (what this
	 * function does besides reading), white ones too: here most are.
	 */
	charge(SKIP_WORDS);
	if (!(b->flags & MEMLEAK_ALLOCATED) || block_is_black(b) ||
	    block_is_white(b))
		return;
	/* What the mark read and nobody wrote since holds nothing new. */
	if (memleak.pause_knew_writes && (b->flags & MEMLEAK_SCANNED)) {
		charge(PAGES_CHECK_WORDS);
		if (!memleak_range_written(start, start + block_size(b))) {
			memleak.pause_unwritten++;
			return;
		}
	}
	if (type && !block_scan_areas(b)) {
		/* Precise here too: no integer field may rescue a block. */
		memleak_scan_typed_block(b, start, type, NULL);
		charge(block_size(b) / sizeof(long));
		return;
	}
	/*
	 * A block larger than a window's budget goes to the gray queue,
	 * whose drain reads it a window at a time, as in step 3.
	 */
	if (block_size(b) / sizeof(long) > SCAN_BUDGET) {
		gray_push(b, start);
		return;
	}
	for_each_block_part(b, start, part) {
		scan_words_confirming(part.start, part.end);
		charge((part.end - part.start) / sizeof(long));
	}
}

/*
 * The pause's walk reads every block it visits in full: a few blocks at
 * a time, and a new window once they have spent the budget (a block
 * larger than the budget is left to the gray queue's drain). Knowing
 * the written pages, it does not even visit the blocks the mark read
 * whole in a slab nobody wrote (MEMLEAK_INDEX_WALK_UNREAD), and those
 * it passes over cost the window PASSED_WORDS each.
 */
#define READ_BATCH 16

static void walk_reading_blocks(memleak_visit_fn *visit)
{
	struct memleak_index_pos pos = MEMLEAK_INDEX_WALK_START;
	unsigned long flags;
	bool more;

	if (memleak.pause_knew_writes)
		pos = (struct memleak_index_pos)MEMLEAK_INDEX_WALK_UNREAD;
	scan_lock(&flags);
	do {
		more = memleak_index_walk(&pos, READ_BATCH, visit, NULL);
		memleak.pause_unwritten += pos.passed;
		memleak.pause_passed += pos.passed;
		spend(pos.passed * PASSED_WORDS, &flags);
		pos.passed = 0;
	} while (more);
	scan_unlock(flags);
}

/*
 * The world could not be stopped: the white blocks never confirmed are
 * not reported by this scan (made gray), the next one tries again.
 */
static void skip_unconfirmed(struct memleak_queue *list)
{
	struct memleak_queue_chunk *chunk;
	struct memleak_queue_entry *e;
	unsigned long flags;
	unsigned int i;

	scan_lock(&flags);
	memleak_queue_for_each(list, chunk, i, e) {
		struct memleak_block *b = e->block;

		spend(BLOCK_WORDS, &flags);
		if (still_queued(b) && block_is_white(b) &&
		    !(b->flags & MEMLEAK_CONFIRMED)) {
			b->count = b->min_count;
			memleak_index_mark(b, e->start);
		}
	}
	memleak.pause_failures++;
	scan_unlock(flags);
}

/*
 * What is white after the world was stopped stays so: confirmed. The
 * world is still stopped, the window open (*flags).
 */
static void note_confirmed(struct memleak_queue *list, unsigned long *flags)
{
	struct memleak_queue_chunk *chunk;
	struct memleak_queue_entry *e;
	unsigned int i;

	memleak_queue_for_each(list, chunk, i, e) {
		struct memleak_block *b = e->block;

		memleak_queue_prefetch_record(chunk, i);
		spend(BLOCK_WORDS, flags);
		if (still_queued(b) && block_is_white(b))
			b->flags |= MEMLEAK_CONFIRMED;
	}
}

/*
 * Step 5. The other CPUs are parked (memleak_stop_world()), so nothing
 * moves: the roots, the live stacks (whatever memleak.stack_scan says),
 * the allocations still waiting in the logs and every non-white block
 * are read once more, and a white block referenced from there turns
 * gray and is read too. The pause is timed for 'memleak stats'.
 */
static void confirm_white_blocks(struct memleak_queue *list)
{
	unsigned long flags;
	u64 t0;

	if (!build_white_filter(list)) {
		free_filter();
		return;
	}
	if (!memleak_stop_world()) {
		skip_unconfirmed(list);
		free_filter();
		return;
	}
	t0 = arch_cycles();
	memleak.pause_knew_writes = memleak_collect_writes() &&
				    !white_needs_more_than_one;
	memleak.pause_unwritten = 0;
	memleak.pause_passed = 0;
	memleak.pause_bytes = 0;
	scan_lock(&flags);
	memleak.confirming = true;
	scan_unlock(flags);
	walk_reading_blocks(scan_if_not_white);
	roots_unwritten_skipped = memleak.pause_knew_writes;
	scan_roots();
	roots_unwritten_skipped = false;
	memleak_scan_pending();
	drain_gray_list();
	scan_lock(&flags);
	note_confirmed(list, &flags);
	memleak.confirming = false;
	scan_unlock(flags);
	memleak.pause_cycles = arch_cycles() - t0;
	if (memleak.pause_cycles > memleak.max_pause_cycles)
		memleak.max_pause_cycles = memleak.pause_cycles;
	memleak.pauses++;
	memleak_resume_world();
	free_filter();
}

/*
 * Whether b was made at least min_age ticks before the scan began (now).
 * A block stamped after that (made during step 1, so white) is as young
 * as can be: its age must not wrap round to a huge one.
 */
static bool old_enough(const struct memleak_block *b, unsigned long now,
		       unsigned long min_age)
{
	s32 age = (s32)((u32)now - b->jiffies);

	return age >= 0 && (unsigned long)age >= min_age;
}

/* A suspected leak; "new" the first time a scan finds it. */
static void mark_suspect(struct memleak_block *b, unsigned long start,
			 struct memleak_queue *suspects)
{
	b->flags |= MEMLEAK_SUSPECT;
	if (!memleak_queue_push(suspects, b, start))
		memleak_disable("out of memory for the list of suspects");
	memleak.nr_suspects++;
	if (!(b->flags & MEMLEAK_REPORTED)) {
		b->flags |= MEMLEAK_REPORTED;
		memleak.nr_new++;
	}
}

/*
 * Steps 4 and 5: rescan the changed blocks, confirm the white ones,
 * mark them as suspects. Ages count to the start of the scan (now), and
 * the minimum is the one set then: 'memleak age=' meanwhile changes the
 * next scan, not the blocks this one saw made while their owners still
 * held them in registers.
 */
static void find_suspects(unsigned long now, unsigned long min_age,
			  u64 *since)
{
	struct white_list white = { { NULL, NULL, 0 }, 0 };
	struct memleak_queue suspects = { NULL, NULL, 0 };
	struct memleak_queue_entry e;
	unsigned long flags, n = 0;

	/* A white block is never marked: the marked ones are passed over. */
	walk_from((struct memleak_index_pos)MEMLEAK_INDEX_WALK_UNMARKED,
		  collect_if_white, &white);
	if (sum_white_blocks(&white))
		drain_gray_list();
	end_phase(MEMLEAK_PHASE_CHECKSUM, since);
	confirm_white_blocks(&white.blocks);
	memleak_untrack_writes();
	end_phase(MEMLEAK_PHASE_CONFIRM, since);
	scan_lock(&flags);
	memleak.nr_suspects = memleak.nr_new = memleak.nr_young = 0;
	memleak_suppress_new_scan();
	while (memleak_queue_pop(&white.blocks, &e)) {
		struct memleak_block *b = e.block;

		/* A collector that disabled itself mid-scan reports nothing. */
		if (memleak.enabled && (b->flags & MEMLEAK_ALLOCATED) &&
		    block_is_white(b) && !(b->flags & MEMLEAK_CLEARED)) {
			if (!old_enough(b, now, min_age))
				memleak.nr_young++;
			else if (!memleak_suppressed(b))
				mark_suspect(b, e.start, &suspects);
		}
		/* The queue is the scan's own: a pause anywhere is safe. */
		if (++n % WALK_BATCH == 0) {
			scan_unlock(flags);
			scan_lock(&flags);
		}
	}
	scan_unlock(flags);
	memleak_classify_suspects(&suspects);
	memleak_queue_empty_in_windows(&suspects);
	end_phase(MEMLEAK_PHASE_CLASSIFY, since);
}

bool memleak_claim_scan(void)
{
	unsigned long flags;
	bool ok;

	scan_lock(&flags);
	ok = memleak.enabled && !scan_running;
	if (ok) {
		scan_running = true;
		memleak_pin();
	}
	scan_unlock(flags);
	return ok;
}

void memleak_release_scan(void)
{
	unsigned long flags;

	scan_lock(&flags);
	scan_running = false;
	memleak_unpin();
	scan_unlock(flags);
	memleak_free_retired();
}

void memleak_walk_roots(void (*visit)(unsigned long start, unsigned long end,
				      const char *root, void *ctx),
			void *ctx, unsigned long floor)
{
	const struct memleak_root *root;

	memleak_stack_floor = floor;
	memleak_walking_roots = true;
	root_visit = visit;
	root_ctx = ctx;
	for (root = __start_memleak_roots; root < __stop_memleak_roots; root++) {
		root_name = root->name;
		root->scan();
	}
	root_visit = NULL;
	memleak_walking_roots = false;
}

/*
 * One full scan; afterwards MEMLEAK_SUSPECT marks the suspected leaks.
 * Returns 0, or -EBUSY when another scan runs or the collector is off.
 */
int memleak_scan(void)
{
	unsigned long start = jiffies, flags;
	unsigned long min_age = READ_ONCE(memleak.min_age_jiffies);
	u64 t0, since;

	memleak_flush_pending();
	t0 = arch_cycles();
	if (!memleak_claim_scan())
		return -EBUSY;
	since = arch_cycles();
	memleak_stack_floor = (unsigned long)__builtin_frame_address(0);
	memleak.bytes_scanned = 0;
	memleak.scan_irqoff_cycles = 0;
	scan_lock(&flags);
	memleak_types_new_scan();
	scan_unlock(flags);
	reset_colors();
	memleak_track_writes();
	end_phase(MEMLEAK_PHASE_RESET, &since);
	scan_roots();
	drain_gray_list();
	end_phase(MEMLEAK_PHASE_MARK, &since);
	find_suspects(start, min_age, &since);
	scan_lock(&flags);
	memleak.marking = false;
	memleak.scan_cycles = arch_cycles() - t0;
	memleak.scan_jiffies = jiffies;
	memleak.scans++;
	scan_running = false;
	memleak_queue_empty(&gray);
	memleak_unpin();
	scan_unlock(flags);
	memleak_free_retired();
	memleak_queue_shrink();
	memleak_types_confirm();
	return 0;
}
