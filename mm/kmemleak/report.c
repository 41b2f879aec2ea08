/*
 * The leak collector's reports, in the format of Linux's
 * /sys/kernel/debug/kmemleak, which kernel developers already read:
 *
 *   unreferenced object 0x4f0c2e40 (size 32):
 *     comm "shell", pid 2, jiffies 1234 (age 5.120s)
 *     hex dump (first 32 bytes):
 *       6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b  kkkkkkkkkkkkkkkk
 *       ...
 *     backtrace:
 *       [<4010c1f0>] lt_kmalloc+0x18/0x80
 *       [<4010c3b4>] setup_orphans+0x18/0x218
 *
 * What is printed about a block is copied under memleak_lock, then
 * printed without it (the console is slow).
 */
#include <kernel/memleak.h>
#include <kernel/cycles.h>
#include <kernel/errno.h>
#include <kernel/kallsyms.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include "internal.h"

#define HEX_DUMP_BYTES 32
#define HEX_ROW_BYTES 16

/*
 * A code address as a frame of a report: "name+0x../0x..", with
 * " [module]" for a module's (" (unloaded)" once it is removed: its
 * names are kept, kernel/module_ghosts.c), or the bare address.
 */
static const char *frame_text(unsigned long pc, char *buf, size_t len)
{
	if (!kallsyms_snprint(buf, len, pc))
		snprintf(buf, len, "0x%08lx", pc);
	return buf;
}

/* A copy of what is printed about a block, taken under memleak_lock. */
struct block_snapshot {
	unsigned long start;
	size_t size;
	unsigned long jiffies;
	struct memleak_trace *trace;	/* holds a reference */
	unsigned int nr_bytes;
	u8 bytes[HEX_DUMP_BYTES];
};

/* memleak_lock held; the snapshot must be released with release_snapshot(). */
static void take_snapshot(const struct memleak_block *b, unsigned long start,
			  struct block_snapshot *s)
{
	s->start = start;
	s->size = block_size(b);
	s->jiffies = b->jiffies;
	s->trace = block_trace(b);
	memleak_trace_get(s->trace);
	s->nr_bytes = min(block_size(b), (size_t)HEX_DUMP_BYTES);
	memcpy(s->bytes, (const void *)start, s->nr_bytes);
}

static void release_snapshot(struct block_snapshot *s)
{
	unsigned long flags;

	memleak_enter(&flags);
	memleak_trace_put(s->trace);
	memleak_leave(flags);
}

static void print_hex_row(const u8 *bytes, unsigned int n)
{
	char line[HEX_ROW_BYTES * 3 + 2 + HEX_ROW_BYTES + 1];
	unsigned int pos = 0;

	for (unsigned int i = 0; i < HEX_ROW_BYTES; i++)
		pos += snprintf(line + pos, sizeof(line) - pos,
				i < n ? "%02x " : "   ", i < n ? bytes[i] : 0);
	line[pos++] = ' ';
	for (unsigned int i = 0; i < n; i++)
		line[pos++] = bytes[i] >= 0x20 && bytes[i] < 0x7f ? bytes[i] : '.';
	line[pos] = '\0';
	printk("    %s\n", line);
}

/* Seconds and milliseconds since j, as "S.SSS". */
static void print_age(unsigned long j)
{
	unsigned long ms = (unsigned long)((u32)jiffies - (u32)j) * 1000 / HZ;

	printk("%lu.%03lus", ms / 1000, ms % 1000);
}

static void print_snapshot(const struct block_snapshot *s)
{
	const struct memleak_trace *t = s->trace;
	char frame[KSYM_PRINT_MAX];

	printk("unreferenced object 0x%08lx (size %zu):\n", s->start, s->size);
	printk("  comm \"%s\", pid %d, jiffies %lu (age ", t->comm, t->pid,
	       s->jiffies);
	print_age(s->jiffies);
	printk(")\n  hex dump (first %u bytes):\n", s->nr_bytes);
	for (unsigned int i = 0; i < s->nr_bytes; i += HEX_ROW_BYTES)
		print_hex_row(s->bytes + i, min(s->nr_bytes - i,
						(unsigned int)HEX_ROW_BYTES));
	printk("  backtrace:\n");
	for (unsigned int i = 0; i < t->nr_entries; i++)
		printk("    [<%08lx>] %s\n", t->entries[i],
		       frame_text(t->entries[i], frame, sizeof(frame)));
}

/* For the collector itself (orphan freeing); memleak_lock held. */
void memleak_print_block(const struct memleak_block *b)
{
	struct block_snapshot s;

	take_snapshot(b, block_start(b), &s);
	print_snapshot(&s);
	memleak_trace_put(s.trace);
}

static void collect_if_suspect(struct memleak_block *b, unsigned long start,
			       void *ctx)
{
	if ((b->flags & MEMLEAK_SUSPECT) && !memleak_queue_push(ctx, b, start))
		memleak_disable("out of memory for the list of suspects");
}

/* Oldest first; of two blocks allocated in one tick, the lower first. */
static bool allocated_before(const struct memleak_queue_entry *a,
			     const struct memleak_queue_entry *b)
{
	if (a->block->jiffies != b->block->jiffies)
		return (s32)(a->block->jiffies - b->block->jiffies) < 0;
	return a->start < b->start;
}

/*
 * Prints every suspect still allocated, oldest first (the order of the
 * index's walk when out of memory to sort); returns how many were
 * printed. The collector stays pinned meanwhile, so the suspects'
 * records stay readable after a free on another CPU; a slab object's
 * record may hold a newer block by then, which is no suspect.
 */
unsigned long memleak_print_suspects(void)
{
	struct memleak_queue suspects = { NULL, NULL, 0 };
	unsigned long printed = 0, flags;
	struct memleak_queue_entry e;

	memleak_enter(&flags);
	memleak_pin();
	memleak_leave(flags);
	memleak_walk_blocks(collect_if_suspect, &suspects);
	memleak_queue_sort(&suspects, allocated_before);
	for (;;) {
		struct block_snapshot s;
		bool alive, more;

		memleak_enter(&flags);
		more = memleak_queue_pop(&suspects, &e);
		/* Freed since, or its record a newer block's: no suspect. */
		alive = more && (e.block->flags & MEMLEAK_SUSPECT) &&
			(e.block->flags & MEMLEAK_ALLOCATED);
		if (alive)
			take_snapshot(e.block, e.start, &s);
		memleak_leave(flags);
		if (!more)
			break;
		if (!alive)
			continue;	/* freed since the scan: not a leak */
		print_snapshot(&s);
		release_snapshot(&s);
		printed++;
	}
	memleak_enter(&flags);
	memleak_unpin();
	memleak_leave(flags);
	memleak_free_retired();
	return printed;
}

/* ------------------------------------------------------------------ */
/* The digest: one line per allocation site and tier, largest first     */

#define DIGEST_SITES 32

struct digest_site {
	unsigned long pc;		/* the allocator's caller; 0: other sites */
	enum memleak_tier tier;
	unsigned long blocks, bytes;
};

struct digest {
	struct digest_site site[DIGEST_SITES + 1];	/* the last: the rest */
	unsigned int nr;
};

/*
 * Where the leak was made: the first frame, the allocator's caller (the
 * allocators' own frames are never in a trace: memleak_allocator_frames()).
 */
static unsigned long allocation_site(const struct memleak_trace *t)
{
	return t->nr_entries ? t->entries[0] : 0;
}

static void add_to_digest(struct memleak_block *b, unsigned long start,
			  void *ctx)
{
	struct digest *d = ctx;
	enum memleak_tier tier = memleak_block_tier(b);
	unsigned long pc;
	unsigned int i;

	(void)start;
	if (!(b->flags & MEMLEAK_SUSPECT) || !(b->flags & MEMLEAK_ALLOCATED))
		return;
	pc = allocation_site(block_trace(b));
	for (i = 0; i < d->nr; i++)
		if (d->site[i].pc == pc && d->site[i].tier == tier)
			break;
	if (i == d->nr && d->nr < DIGEST_SITES)
		d->site[d->nr++] = (struct digest_site){ .pc = pc, .tier = tier };
	if (i == DIGEST_SITES)
		d->site[i].tier = tier;	/* the rest: counted, not named */
	d->site[i].blocks++;
	d->site[i].bytes += block_size(b);
}

static const char *const tier_names[MEMLEAK_NR_TIERS][2] = {
	[MEMLEAK_DIRECT_LEAK] = { "direct leak", "direct leaks" },
	[MEMLEAK_INDIRECT_LEAK] = { "indirect leak", "indirect leaks" },
	[MEMLEAK_POSSIBLY_LOST] = { "possibly lost block", "possibly lost blocks" },
};

static void print_site(const struct digest_site *s)
{
	char frame[KSYM_PRINT_MAX];

	printk("memleak: %lu %s, %lu bytes, from ", s->blocks,
	       tier_names[s->tier][s->blocks != 1], s->bytes);
	if (s->pc)
		printk("%s\n", frame_text(s->pc, frame, sizeof(frame)));
	else
		printk("other places\n");
}

void memleak_print_digest(void)
{
	struct digest d = { .nr = 0 };
	unsigned int i, j;

	memleak_walk_blocks(add_to_digest, &d);
	/* Largest first (a handful of sites: insertion sort). */
	for (i = 1; i < d.nr; i++) {
		struct digest_site s = d.site[i];

		for (j = i; j > 0 && d.site[j - 1].bytes < s.bytes; j--)
			d.site[j] = d.site[j - 1];
		d.site[j] = s;
	}
	for (i = 0; i < d.nr; i++)
		print_site(&d.site[i]);
	if (d.site[DIGEST_SITES].blocks)
		print_site(&d.site[DIGEST_SITES]);
}

static void clear_if_reported(struct memleak_block *b, unsigned long start,
			      void *ctx)
{
	unsigned long *n = ctx;

	(void)start;
	if (!(b->flags & (MEMLEAK_SUSPECT | MEMLEAK_REPORTED)))
		return;
	b->flags |= MEMLEAK_CLEARED;
	b->flags &= ~(MEMLEAK_SUSPECT | MEMLEAK_REPORTED);
	(*n)++;
}

/* Hides what has been reported until its contents change; returns how many. */
unsigned long memleak_clear_reports(void)
{
	unsigned long flags, n = 0;

	memleak_walk_blocks(clear_if_reported, &n);
	memleak_enter(&flags);
	memleak.nr_suspects = 0;
	memleak.nr_new = 0;
	memleak_leave(flags);
	return n;
}

static const char *color_name(const struct memleak_block *b)
{
	if (block_is_black(b))
		return "black (ignored)";
	if (b->min_count == 0)
		return "gray (never a leak)";
	return block_is_gray(b) ? "gray" : "white";
}

/* Everything known about one block, memleak_lock held (a debug aid). */
void memleak_dump_block(const struct memleak_block *b)
{
	const struct memleak_alias_set *set = block_aliases(b);
	unsigned long pad = block_pad_offset(b);
	const struct memleak_scan_area *area;
	u32 sum = 0;

	if (b->flags & MEMLEAK_CHECKSUM_VALID)
		memleak_checksum_get(b, &sum);
	printk("block 0x%08lx-0x%08lx (size %zu), %s after the last scan\n",
	       block_start(b), block_start(b) + block_size(b) - 1, block_size(b),
	       color_name(b));
	printk("  references: %d found, %d needed; flags%s%s%s%s\n", b->count,
	       b->min_count, b->flags & MEMLEAK_REPORTED ? " reported" : "",
	       b->flags & MEMLEAK_SUSPECT ? " suspect" : "",
	       b->flags & MEMLEAK_CLEARED ? " cleared" : "",
	       b->flags & MEMLEAK_CHECKSUM_VALID ? " checksummed" : "");
	printk("  allocated on CPU %u, checksum %08x\n", block_trace(b)->cpu,
	       sum);
	if (pad)
		printk("  object starts at +%lu (memleak_padding)\n", pad);
	for (unsigned int i = 0; set && i < set->nr; i++)
		printk("  alias 0x%08lx (+%lu)\n",
		       block_start(b) + pad + set->offsets[i],
		       pad + set->offsets[i]);
	for (area = block_scan_areas(b); area; area = area->next)
		printk("  scan area +%lu, %zu bytes\n", area->offset,
		       area->length);
	memleak_print_block(b);
}
