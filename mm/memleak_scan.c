/*
 * The leak collector, part 2: the scan. Like a tracing garbage
 * collector that reports instead of freeing:
 *
 *   1. every block starts white (count = 0), except the ones annotated
 *      as never leaking (min_count 0), which start the gray list;
 *   2. the roots are scanned word by word (.data/.bss, every CPU's
 *      per-CPU area, the struct page array, thread stacks, and whatever
 *      else registers with MEMLEAK_ROOT); a word that is the address of
 *      a white block (or one of its aliases) counts one reference, and a
 *      block with min_count references turns gray and joins the list;
 *   3. the gray list is drained: each gray block is scanned in turn (its
 *      scan areas only, when it has any), which may append more;
 *   4. white blocks whose contents changed since the previous scan are
 *      probably in use: they are made gray and rescanned, not reported;
 *   5. the blocks still white (and old enough) are the suspected leaks.
 *
 * Memory is scanned in chunks of at most SCAN_CHUNK bytes, each with
 * memleak_lock held and interrupts off; between chunks other CPUs may
 * allocate and free. A block freed meanwhile loses MEMLEAK_ALLOCATED and
 * is skipped; blocks on the scan's lists are reference-counted, so their
 * metadata stays valid until the scan lets go of them.
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/task.h>
#include <kernel/time.h>
#include "memleak.h"

#define SCAN_CHUNK 4096

extern char _sdata[], _edata[], __bss_start[], __bss_stop[];
extern char boot_stack[], boot_stack_top[];

/* The gray list; only the (single) running scan touches it. */
static struct memleak_block *gray_head, *gray_tail;

/* Serialises scans: a second 'memleak' waits for none, it is refused. */
static bool scan_running;

/*
 * The frame of memleak_scan(): on the scanning thread's own stack only
 * what lies above it is scanned. The collector's own frames, and dead
 * slots in them left by earlier calls (a report that printed a block's
 * address, say), must not pass for references.
 */
static unsigned long scan_stack_floor;

/*
 * Overwrites the dead stack below the caller. Code that has just held
 * block addresses in locals (a pattern's setup, a report that printed
 * them) calls it when done: the next scan's frames will lie there, and a
 * stale copy in an unused slot would pass for a live reference, the
 * classic false negative of a conservative scan.
 */
void __noinline memleak_wipe_stack(void)
{
	volatile char area[2048];

	for (unsigned int i = 0; i < sizeof(area); i++)
		area[i] = 0;
}

static void gray_push(struct memleak_block *b)
{
	memleak_get_block(b);
	b->gray_next = NULL;
	if (gray_tail)
		gray_tail->gray_next = b;
	else
		gray_head = b;
	gray_tail = b;
}

/* The block a scanned word refers to, under the current pointer rules. */
static struct memleak_block *block_referenced(unsigned long value)
{
	struct memleak_block *b;
	unsigned long start;

	value &= ~(sizeof(long) - 1);
	if (!memleak.interior)
		return memleak_lookup_block(value);
	b = radix_tree_lookup_le(&memleak.tree, memleak_key(value), &start);
	if (b && value < b->start + b->size)
		return b;
	return NULL;
}

/* Counts the references in [start, end); memleak_lock held. */
static void scan_words(const unsigned long *start, const unsigned long *end)
{
	for (const unsigned long *p = start; p < end; p++) {
		struct memleak_block *b = block_referenced(*p);

		if (!b || !block_is_white(b))
			continue;
		b->count++;
		if (block_is_gray(b))
			gray_push(b);
	}
}

static void note_irqoff(u64 since)
{
	u64 ns = ktime_get_ns() - since;

	if (ns > memleak.max_irqoff_ns)
		memleak.max_irqoff_ns = ns;
}

/*
 * Scans [start, end) chunk by chunk; when owner is given, stops as soon
 * as that block has been freed.
 */
static void scan_range(unsigned long start, unsigned long end,
		       struct memleak_block *owner)
{
	start = ALIGN(start, sizeof(long));
	while (start + sizeof(long) <= end) {
		unsigned long stop = min(end, start + SCAN_CHUNK), flags;
		u64 t0;

		memleak_enter(&flags);
		t0 = ktime_get_ns();
		if (owner && !(owner->flags & MEMLEAK_ALLOCATED)) {
			memleak_leave(flags);
			return;
		}
		scan_words((const unsigned long *)start,
			   (const unsigned long *)ALIGN_DOWN(stop, sizeof(long)));
		memleak.bytes_scanned += stop - start;
		note_irqoff(t0);
		memleak_leave(flags);
		start = stop;
	}
}

void memleak_scan_range(const void *start, const void *end)
{
	if (start && end > start)
		scan_range((unsigned long)start, (unsigned long)end, NULL);
}

static void scan_gray_block(struct memleak_block *b)
{
	struct memleak_scan_area *area;

	if (!b->areas) {
		scan_range(b->start, b->start + b->size, b);
		return;
	}
	/* Areas are only added, never removed, while the block lives. */
	for (area = b->areas; area; area = area->next)
		scan_range(b->start + area->offset,
			   b->start + area->offset + area->length, b);
}

/* Scans gray blocks until none is left (scanning may add more). */
static void drain_gray_list(void)
{
	struct memleak_block *b, *next;
	unsigned long flags;

	memleak_enter(&flags);
	b = gray_head;
	memleak_leave(flags);
	while (b) {
		if (!block_is_black(b))
			scan_gray_block(b);
		memleak_enter(&flags);
		next = b->gray_next;
		if (!next)
			gray_head = gray_tail = NULL;
		memleak_put_block(b);
		memleak_leave(flags);
		b = next;
	}
}

/* Step 1: everything white, the never-leaking blocks gray. */
static void reset_colors(void)
{
	struct memleak_block *b;
	unsigned long flags;

	memleak_enter(&flags);
	list_for_each_entry(b, &memleak.blocks, node) {
		b->count = 0;
		b->flags &= ~MEMLEAK_SUSPECT;
		if (block_is_gray(b))
			gray_push(b);
	}
	memleak_leave(flags);
}

/* Step 2: the roots. */
static void scan_data_and_bss(void)
{
	memleak_scan_range(_sdata, _edata);
	/* The boot stack lives in .bss; it is a thread stack, scanned as such. */
	memleak_scan_range(__bss_start, boot_stack);
	memleak_scan_range(boot_stack_top, __bss_stop);
}
MEMLEAK_ROOT("data and bss", scan_data_and_bss);

static void scan_page_array(void)
{
	memleak_scan_range(mem_map, mem_map + (max_pfn - min_pfn));
}
MEMLEAK_ROOT("page array", scan_page_array);

/* Every possible CPU's copy of the per-CPU section (kernel/percpu.c). */
static void scan_per_cpu_areas(void)
{
	const void *start, *end;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (per_cpu_area(cpu, &start, &end))
			memleak_scan_range(start, end);
}
MEMLEAK_ROOT("per-cpu areas", scan_per_cpu_areas);

#define MAX_STACKS 128

/* The live stack ranges, noted with the thread list locked. */
struct stack_ranges {
	unsigned int nr;
	bool overflow;
	const void *low[MAX_STACKS], *high[MAX_STACKS];
};

static void note_stack(const void *low, const void *high, void *ctx)
{
	struct stack_ranges *r = ctx;

	if (r->nr == MAX_STACKS) {
		r->overflow = true;
		return;
	}
	if ((unsigned long)low <= scan_stack_floor &&
	    scan_stack_floor < (unsigned long)high)
		low = (const void *)scan_stack_floor;
	r->low[r->nr] = low;
	r->high[r->nr++] = high;
}

/*
 * The ranges are noted first and scanned afterwards, chunk by chunk, so
 * that interrupts are never off for more than a chunk. A thread may
 * exit in between: its freed stack is still mapped, so this reads stale
 * words at worst (a possible false negative, never a fault).
 */
static void scan_thread_stacks(void)
{
	static struct stack_ranges ranges;

	if (!memleak.stack_scan)
		return;
	ranges.nr = 0;
	ranges.overflow = false;
	task_for_each_live_stack(note_stack, &ranges);
	if (ranges.overflow)
		printk("memleak: more than %d threads, some stacks not scanned\n",
		       MAX_STACKS);
	for (unsigned int i = 0; i < ranges.nr; i++)
		memleak_scan_range(ranges.low[i], ranges.high[i]);
}
MEMLEAK_ROOT("thread stacks", scan_thread_stacks);

static void scan_roots(void)
{
	const struct memleak_root *root;

	for (root = __start_memleak_roots; root < __stop_memleak_roots; root++)
		root->scan();
}

/* A cheap hash of the block's contents, computed chunk by chunk. */
static bool checksum_block(struct memleak_block *b, u32 *sum)
{
	u32 h = 2166136261u;
	unsigned long pos = b->start, end = b->start + b->size;

	while (pos < end) {
		unsigned long stop = min(end, pos + SCAN_CHUNK), flags;

		memleak_enter(&flags);
		if (!(b->flags & MEMLEAK_ALLOCATED)) {
			memleak_leave(flags);
			return false;
		}
		for (; pos < stop; pos++)
			h = (h ^ *(const u8 *)pos) * 16777619u;
		memleak_leave(flags);
	}
	*sum = h;
	return true;
}

/* The white blocks now, each with a reference, linked through list_next. */
static struct memleak_block *collect_white(void)
{
	struct memleak_block *b, *list = NULL;
	unsigned long flags;

	memleak_enter(&flags);
	list_for_each_entry_reverse(b, &memleak.blocks, node) {
		if (!block_is_white(b))
			continue;
		memleak_get_block(b);
		b->list_next = list;
		list = b;
	}
	memleak_leave(flags);
	return list;
}

/*
 * Step 4 for one white block, given the checksum of its contents now:
 * returns true when they changed since the previous scan, after making
 * the block gray for this scan. memleak_lock held.
 */
static bool note_checksum(struct memleak_block *b, u32 sum)
{
	bool valid = b->flags & MEMLEAK_CHECKSUM_VALID;

	b->flags |= MEMLEAK_CHECKSUM_VALID;
	if (!valid || sum == b->checksum) {
		b->checksum = sum;
		return false;
	}
	b->checksum = sum;
	b->flags &= ~MEMLEAK_CLEARED;	/* changed: worth showing again */
	if (block_is_white(b)) {
		b->count = b->min_count;
		gray_push(b);
	}
	return true;
}

static bool old_enough(const struct memleak_block *b, unsigned long now)
{
	return now - b->jiffies >= memleak.min_age_jiffies;
}

/* A suspected leak; "new" the first time a scan finds it. */
static void mark_suspect(struct memleak_block *b)
{
	b->flags |= MEMLEAK_SUSPECT;
	memleak.nr_suspects++;
	if (!(b->flags & MEMLEAK_REPORTED)) {
		b->flags |= MEMLEAK_REPORTED;
		memleak.nr_new++;
	}
}

/* Steps 4 and 5: rescan the changed blocks, mark the rest as suspects. */
static void find_suspects(void)
{
	struct memleak_block *list = collect_white(), *b, *next;
	unsigned long flags, now = jiffies;
	bool rescan = false;
	u32 sum;

	for (b = list; b; b = b->list_next) {
		if (!checksum_block(b, &sum))
			continue;
		memleak_enter(&flags);
		if (b->flags & MEMLEAK_ALLOCATED)
			rescan |= note_checksum(b, sum);
		memleak_leave(flags);
	}
	if (rescan)
		drain_gray_list();
	memleak_enter(&flags);
	memleak.nr_suspects = memleak.nr_new = 0;
	for (b = list; b; b = next) {
		next = b->list_next;
		if ((b->flags & MEMLEAK_ALLOCATED) && block_is_white(b) &&
		    old_enough(b, now) && !(b->flags & MEMLEAK_CLEARED))
			mark_suspect(b);
		memleak_put_block(b);
	}
	memleak_leave(flags);
}

static bool claim_scan(void)
{
	unsigned long flags;
	bool ok;

	memleak_enter(&flags);
	ok = memleak.enabled && !scan_running;
	if (ok)
		scan_running = true;
	memleak_leave(flags);
	return ok;
}

/*
 * One full scan; afterwards MEMLEAK_SUSPECT marks the suspected leaks.
 * Returns 0, or -EBUSY when another scan runs or the collector is off.
 */
int memleak_scan(void)
{
	u64 t0 = ktime_get_ns();

	if (!claim_scan())
		return -EBUSY;
	scan_stack_floor = (unsigned long)__builtin_frame_address(0);
	memleak.bytes_scanned = 0;
	reset_colors();
	scan_roots();
	drain_gray_list();
	find_suspects();
	memleak.scan_ns = ktime_get_ns() - t0;
	memleak.scan_jiffies = jiffies;
	memleak.scans++;
	scan_running = false;
	return 0;
}
