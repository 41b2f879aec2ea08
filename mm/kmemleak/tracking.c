/*
 * The leak collector's tracking: every allocation that lives long
 * enough to leave its CPU's log (log.c) gets a struct memleak_block,
 * written into the index (index.c: its slot's record for a slab object)
 * that maps any address to its block; the aliases of its size
 * (aliases.c) and its trace (traces.c) go with it. Also the collector's
 * state, its start-up and memleak_disable(), where every internal
 * failure ends.
 *
 * Locking: memleak_lock (IRQs off) protects the index and the blocks; it
 * is taken with no allocator lock held, and inside it only the metadata
 * caches' slab and page-allocator locks are taken. Each CPU's log of
 * recent allocations (log.c) has a lock of its own, taken before
 * memleak_lock. Lock order: log lock -> memleak_lock -> slab cache lock
 * -> page allocator lock.
 * The collector's own allocations come from slab caches too: a per-CPU
 * flag turns the hooks off while the collector runs on that CPU, so they
 * are never tracked (and never recurse).
 */
#include <kernel/memleak.h>
#include <kernel/bootinfo.h>
#include <kernel/cmdline.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/smp.h>
#include <kernel/stacktrace.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include "internal.h"
#include "index.h"

struct memleak_state memleak = {
	.enabled = true,
	.stack_scan = IS_ENABLED(CONFIG_DEBUG_MEMLEAK_TASK_STACKS),
	.interior = IS_ENABLED(CONFIG_DEBUG_MEMLEAK_INTERIOR),
	.typed = true,
	.min_addr_inv = 0,	/* ~ULONG_MAX: nothing tracked yet */
	.max_addr_inv = ~0UL,	/* ~0 */
};
DEFINE_SPINLOCK(memleak_lock);

/*
 * Any internal failure ends up here: the collector stops tracking and
 * says why, once, and keeps the reason for whoever asks later ('memleak
 * stats', a command refused); the kernel goes on. Called with
 * memleak_lock held or before the collector is up.
 */
void memleak_disable(const char *why)
{
	memleak.enabled = false;
	memleak_set_tracking(false);
	if (memleak.disabled_why)
		return;
	memleak.disabled_why = why;
	printk("memleak: disabled: %s\n", why);
}

void memleak_shrink(void)
{
	unsigned long flags;

	memleak_enter(&flags);
	memleak_traces_shrink();
	memleak_index_shrink();
	memleak_written_shrink();
	memleak_leave(flags);
}

struct memleak_block *memleak_lookup_block(unsigned long addr)
{
	unsigned long start;
	struct memleak_block *b = memleak_index_find_at(addr, &start);

	return b && block_has_key(b, start, addr) ? b : NULL;
}

void memleak_pin(void)
{
	memleak.pins++;
}

/*
 * What was freed while pinned is given back after the last unpin, at
 * most RETIRED_PER_WINDOW things a window: a long scan under churn may
 * have retired thousands. Up to n now (not pinned); how many.
 */
#define RETIRED_PER_WINDOW 64

static unsigned int free_retired(unsigned int n)
{
	unsigned int done = memleak_index_free_retired(n);

	done += memleak_extra_free_retired(n - done);
	memleak.nr_retired -= done;
	return done;
}

void memleak_unpin(void)
{
	if (--memleak.pins == 0)
		free_retired(RETIRED_PER_WINDOW);
}

void memleak_free_retired(void)
{
	unsigned long flags;
	unsigned int n;

	do {
		memleak_enter(&flags);
		n = memleak.pins ? 0 : free_retired(RETIRED_PER_WINDOW);
		memleak_leave(flags);
	} while (n == RETIRED_PER_WINDOW);
}

/* Why a block could not be tracked (err from memleak_index_insert()). */
static void refuse_block(unsigned long start, size_t size,
			 struct memleak_trace *trace, int err)
{
	memleak_trace_put(trace);
	if (err == -EEXIST) {
		printk("memleak: block 0x%08lx (size %zu) overlaps a tracked one\n",
		       start, size);
		memleak_disable("overlapping block");
	} else if (err == -EINVAL) {
		printk("memleak: block 0x%08lx (size %zu) does not start where "
		       "its slab object does\n", start, size);
		memleak_disable("block inside a slab object");
	} else if (err == -EFBIG) {
		printk("memleak: block 0x%08lx (size %zu) is too large to "
		       "track\n", start, size);
		memleak_disable("block too large");
	} else if (err == -ERANGE) {
		printk("memleak: block 0x%08lx (size %zu) runs past its slab "
		       "object\n", start, size);
		memleak_disable("block across slab objects");
	} else {
		memleak_disable("out of memory for block metadata");
	}
}

void memleak_create_block(unsigned long start, size_t size, int min_count,
			  struct memleak_trace *trace, unsigned long when)
{
	struct memleak_block *b;
	int err;

	if (!trace) {
		memleak_disable("out of memory for backtraces");
		return;
	}
	/* A record holds min_count in a byte: more is never needed. */
	min_count = min(max(min_count, -128), 127);
	/* 4 GiB or more (64-bit hosts) is a caller's bug, not a block. */
	if ((u32)size != size) {
		refuse_block(start, size, trace, -EFBIG);
		return;
	}
	b = memleak_index_insert(start, size, min_count, &err);
	if (!b) {
		refuse_block(start, size, trace, err);
		return;
	}
	b->trace = (u16)trace->id;
	b->jiffies = when;
	b->count = 0;
	if (trace->type)
		b->flags |= MEMLEAK_TYPED;
	/* A block new to the running scan is not white in it: see there. */
	if (memleak.marking) {
		b->flags |= MEMLEAK_NEW;
		b->count = b->min_count;
		memleak_index_mark(b, start);
	}
	memleak.nr_blocks++;
	memleak.min_addr_inv = max(memleak.min_addr_inv, ~start);
	memleak.max_addr_inv = min(memleak.max_addr_inv, ~(start + size));
}

static void orphan_freed(struct memleak_block *b)
{
	printk("memleak: freeing orphan object 0x%08lx (size %zu), reported "
	       "as a leak:\n",
	       block_start(b), block_size(b));
	memleak_print_block(b);
	dump_stack();
}

bool memleak_try_delete_block(unsigned long start)
{
	struct memleak_index_place place;
	struct memleak_block *b = memleak_index_find_start(start, &place);

	if (!b)
		return false;
	if (b->flags & MEMLEAK_REPORTED) {
		memleak.nr_freed_after_report++;
		if (IS_ENABLED(CONFIG_DEBUG_MEMLEAK_ORPHAN_FREEING))
			orphan_freed(b);
	}
	memleak.nr_blocks--;
	if (b->flags & MEMLEAK_EXTRA)
		memleak_free_extra(b);
	if (b->flags & MEMLEAK_CHECKSUM_VALID)
		memleak_checksum_forget(b);
	memleak_trace_put(block_trace(b));
	memleak_index_remove(b, &place);
	return true;
}

void memleak_delete_block(unsigned long start)
{
	if (!memleak_try_delete_block(start)) {
		printk("memleak: freeing unknown object at 0x%08lx\n", start);
		dump_stack();
	}
}

/*
 * A slab's records live as long as the slab (index.c). Its allocator
 * gives it back from any context, the collector's own frees included:
 * then this CPU holds memleak_lock already (the collector allocates and
 * frees only with it held).
 */
void memleak_slab_released(const void *base)
{
	unsigned long irqs, flags;
	bool inside;

	if (!READ_ONCE(memleak.initialized))
		return;
	irqs = arch_irq_save();
	inside = memleak_in_collector();
	if (!inside)
		memleak_enter(&flags);
	if (memleak.enabled &&
	    !memleak_index_slab_released((unsigned long)base)) {
		printk("memleak: slab 0x%08lx given back with tracked objects\n",
		       (unsigned long)base);
		memleak_disable("slab given back with tracked objects");
	}
	if (!inside)
		memleak_leave(flags);
	arch_irq_restore(irqs);
}

unsigned long memleak_cache_pages(const struct kmem_cache *c)
{
	return c ? READ_ONCE(c->nr_slabs) << c->order : 0;
}

/* The collector's memory part by part; memleak_lock held. */
static void metadata_locked(struct memleak_metadata *m)
{
	memleak_index_metadata(m);
	m->traces = memleak_traces_pages() * PAGE_SIZE;
	m->extra = memleak_extra_pages() * PAGE_SIZE;
	m->queues = memleak_queue_pages() * PAGE_SIZE;
	m->checksums = memleak_checksum_pages() * PAGE_SIZE;
	m->scan = (memleak_written_bitmap_pages() +
		   memleak_white_filter_pages()) * PAGE_SIZE;
}

static unsigned long metadata_sum(const struct memleak_metadata *m)
{
	return m->records + m->tables + m->tree + m->traces + m->extra +
	       m->queues + m->checksums + m->scan;
}

void memleak_metadata(struct memleak_metadata *m)
{
	unsigned long flags;

	memleak_enter(&flags);
	metadata_locked(m);
	memleak_leave(flags);
}

unsigned long memleak_metadata_bytes(void)
{
	struct memleak_metadata m;

	memleak_metadata(&m);
	return metadata_sum(&m);
}

unsigned long memleak_nr_free_pages(void)
{
	struct memleak_metadata m;
	unsigned long flags, n;

	memleak_enter(&flags);
	metadata_locked(&m);
	n = nr_free_pages() + metadata_sum(&m) / PAGE_SIZE;
	memleak_leave(flags);
	return n;
}

/*
 * memleak=off on the kernel command line: no tracking from the start
 * (the blocks of the early log are dropped), and no metadata at all.
 * memleak=on is the default. memleak_lock held.
 */
static bool turned_off_at_boot(void)
{
	char value[8];
	int found = cmdline_get(boot_info.cmdline, "memleak", value,
				sizeof(value));

	if (found == 0 || (found > 0 && strcmp(value, "on") == 0))
		return false;
	if (found > 0 && strcmp(value, "off") == 0) {
		memleak_disable("turned off on the command line (memleak=off)");
		return true;
	}
	printk("memleak: the command line's memleak= is neither on nor off: "
	       "ignored, the collector is on\n");
	return false;
}

/*
 * Called by mm_init() once slab and kmalloc work: makes the caches and
 * the alias sets, then replays what the early log recorded.
 */
void __init memleak_init(void)
{
	unsigned long flags;
	unsigned int early;
	int aliases;

	memleak_enter(&flags);
	memleak.min_age_jiffies =
		(unsigned long)CONFIG_DEBUG_MEMLEAK_MIN_AGE_MS * HZ / 1000;
	if (turned_off_at_boot()) {
		memleak.initialized = true;	/* the early log is done with */
		memleak_leave(flags);
		return;
	}
	if (memleak_extra_init() || memleak_traces_init() ||
	    memleak_index_init() || memleak_queue_init()) {
		memleak_disable("cannot create the metadata caches");
		memleak_leave(flags);
		return;
	}
	aliases = memleak_aliases_init();
	if (aliases < 0)
		memleak_disable("out of memory for aliases");
	memleak.initialized = true;
	early = memleak_early_replay();
	memleak_init_logs();
	memleak_set_tracking(memleak.enabled);
	memleak_leave(flags);
	printk("memleak: tracking %lu blocks (%u early), %d aliases from %u "
	       "container_of() records\n", memleak.nr_blocks, early,
	       aliases, (unsigned int)(__memleak_offsets_end -
				       __memleak_offsets_start));
	memleak_suppress_init();
}
