/*
 * The leak collector's annotations (<kernel/memleak.h>): memleak_padding(),
 * memleak_not_leak(), memleak_ignore(), memleak_scan_area(), and the
 * slow path every hook takes before memleak_init() (the early buffer,
 * early.c) or while the collector is busy on this CPU.
 *
 * Locking: memleak_lock, taken here; the per-CPU logs are flushed first
 * (their locks come before it), since the block an annotation names may
 * still wait in one.
 */
#include <kernel/memleak.h>
#include <kernel/alloc_entry.h>
#include <kernel/export.h>
#include <kernel/printk.h>
#include "internal.h"
#include "index.h"

/* The block that starts at ptr, or NULL after a warning naming what. */
static struct memleak_block *find_start(unsigned long ptr, const char *what)
{
	struct memleak_index_place place;
	struct memleak_block *b = memleak_index_find_start(ptr, &place);

	if (b)
		return b;
	printk("memleak: %s: 0x%08lx is not the start of a tracked block\n",
	       what, ptr);
	return NULL;
}

static void pad_block(unsigned long ptr, unsigned long offset, size_t size)
{
	struct memleak_block *b = find_start(ptr, "memleak_padding");

	if (!b)
		return;
	if (offset + size > block_size(b)) {
		printk("memleak_padding: %lu+%zu is past the end of 0x%08lx\n",
		       offset, size, ptr);
		return;
	}
	if (memleak_set_padding(b, offset, size))
		memleak_disable("out of memory for padding");
}

static void not_leak_block(unsigned long ptr)
{
	struct memleak_block *b = find_start(ptr, "memleak_not_leak");

	if (!b)
		return;
	b->min_count = 0;
	memleak_index_update(b);
}

static void ignore_block(unsigned long ptr)
{
	struct memleak_block *b = find_start(ptr, "memleak_ignore");

	if (!b)
		return;
	b->flags |= MEMLEAK_BLACK;
	memleak_index_update(b);
}

static void add_scan_area(unsigned long ptr, unsigned long offset,
			  size_t length)
{
	struct memleak_block *b = find_start(ptr, "memleak_scan_area");

	if (!b)
		return;
	if (offset + length > block_size(b) || offset + length < offset) {
		printk("memleak_scan_area: %lu+%zu is past the end of 0x%08lx\n",
		       offset, length, ptr);
		return;
	}
	if (memleak_add_scan_area(b, offset, length))
		memleak_disable("out of memory for scan areas");
}

void memleak_annotate(enum memleak_op op, unsigned long ptr,
		      unsigned long offset, size_t size)
{
	switch (op) {
	case MEMLEAK_OP_ALLOC:
	case MEMLEAK_OP_FREE:
		break;	/* only before init: then memleak_alloc/free() */
	case MEMLEAK_OP_PADDING:
		pad_block(ptr, offset, size);
		break;
	case MEMLEAK_OP_NOT_LEAK:
		not_leak_block(ptr);
		break;
	case MEMLEAK_OP_IGNORE:
		ignore_block(ptr);
		break;
	case MEMLEAK_OP_SCAN_AREA:
		add_scan_area(ptr, offset, size);
		break;
	}
}

/*
 * Runs an annotation (or, before memleak_init(), any operation) the
 * slow way: logged before init, applied after, ignored once the
 * collector is disabled. Annotations first flush the logs: the block
 * they name may still wait in one.
 */
static __noinline void do_op(enum memleak_op type, const void *ptr,
			     unsigned long offset, size_t size, int min_count,
			     const struct memleak_type *block_type)
{
	unsigned long flags;

	if (!ptr || !memleak_hook_enter(&flags))
		return;
	if (READ_ONCE(memleak.tracking))
		memleak_flush_logs();
	spin_lock(&memleak_lock);
	if (!memleak.enabled)
		goto out;
	if (!memleak.initialized) {
		memleak_early_log(type, (unsigned long)ptr, offset, size,
				  min_count, block_type);
		goto out;
	}
	memleak_annotate(type, (unsigned long)ptr, offset, size);
out:
	spin_unlock(&memleak_lock);
	memleak_hook_leave(flags);
}

/*
 * A hook off its fast path: before memleak_init() the operation goes to
 * the early log; with the collector running on this CPU (its own
 * allocations) or disabled it is dropped.
 */
__alloc_entry void memleak_untracked_alloc(const void *ptr, size_t size,
					  int min_count,
					  const struct memleak_type *type)
{
	if (!READ_ONCE(memleak.initialized))
		do_op(MEMLEAK_OP_ALLOC, ptr, 0, size, min_count, type);
}

void memleak_untracked_free(const void *ptr)
{
	if (!READ_ONCE(memleak.initialized))
		do_op(MEMLEAK_OP_FREE, ptr, 0, 0, 0, NULL);
}

void memleak_padding(const void *ptr, unsigned long offset, size_t size)
{
	do_op(MEMLEAK_OP_PADDING, ptr, offset, size, 0, NULL);
}
EXPORT_SYMBOL(memleak_padding);

void memleak_not_leak(const void *ptr)
{
	do_op(MEMLEAK_OP_NOT_LEAK, ptr, 0, 0, 0, NULL);
}
EXPORT_SYMBOL(memleak_not_leak);

void memleak_ignore(const void *ptr)
{
	do_op(MEMLEAK_OP_IGNORE, ptr, 0, 0, 0, NULL);
}
EXPORT_SYMBOL(memleak_ignore);

void memleak_scan_area(const void *ptr, unsigned long offset, size_t length)
{
	do_op(MEMLEAK_OP_SCAN_AREA, ptr, offset, length, 0, NULL);
}
EXPORT_SYMBOL(memleak_scan_area);
