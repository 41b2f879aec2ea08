/*
 * The leak collector's early buffer: allocations, frees and annotations
 * made before memleak_init() (the boot allocator's tables, the first
 * slabs) are recorded here, with their backtraces, and replayed once
 * the collector's caches exist. Its size is
 * CONFIG_DEBUG_MEMLEAK_PREINIT_POINTERS; when it fills up the collector
 * disables itself, with a message saying what to raise.
 *
 * Locking: memleak_lock, held by the callers; __initdata, gone after boot.
 */
#include <kernel/memleak.h>
#include <kernel/init.h>
#include <kernel/smp.h>
#include <kernel/stacktrace.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include "internal.h"

struct early_op {
	u8 op;			/* enum memleak_op */
	s8 min_count;
	u8 nr_entries;
	unsigned long ptr;
	unsigned long offset;
	size_t size;
	const struct memleak_type *block_type;	/* an allocation's, or NULL */
	unsigned long entries[MEMLEAK_TRACE_LENGTH];
};

static struct early_op early_log[CONFIG_DEBUG_MEMLEAK_PREINIT_POINTERS] __initdata;
static unsigned int early_count __initdata;

/*
 * The call sites of an early allocation, from the allocator's caller on.
 * Its own call site, memleak_early_log()'s and that of do_op(), the
 * only caller of memleak_early_log(), are skipped by count (all three
 * are not inlined); then the hook's and the allocators' frames, by
 * memleak_allocator_frames().
 */
static unsigned int __init early_trace(unsigned long *entries)
{
	/* + 2: memleak_untracked_alloc() and memleak_alloc() */
	unsigned long sites[MEMLEAK_TRACE_LENGTH + MEMLEAK_ALLOC_FRAMES + 2];
	unsigned int n, skip;

	n = save_stack_trace(sites, ARRAY_SIZE(sites), 3);
	skip = memleak_allocator_frames(sites, n);
	n = min(n - skip, (unsigned int)MEMLEAK_TRACE_LENGTH);
	memcpy(entries, sites + skip, n * sizeof(*entries));
	return n;
}

void __init memleak_early_log(enum memleak_op type, unsigned long ptr,
			      unsigned long offset, size_t size, int min_count,
			      const struct memleak_type *block_type)
{
	struct early_op *op;

	if (early_count == ARRAY_SIZE(early_log)) {
		memleak_disable("early log full (raise "
				"DEBUG_MEMLEAK_PREINIT_POINTERS)");
		return;
	}
	op = &early_log[early_count++];
	op->op = type;
	op->block_type = block_type;
	op->ptr = ptr;
	op->offset = offset;
	op->size = size;
	op->min_count = min_count;
	if (type == MEMLEAK_OP_ALLOC)
		op->nr_entries = early_trace(op->entries);
}

static void __init replay_op(const struct early_op *op)
{
	struct memleak_trace key;

	switch (op->op) {
	case MEMLEAK_OP_ALLOC:
		memset(&key, 0, sizeof(key));
		strlcpy(key.comm, "boot", sizeof(key.comm));
		key.nr_entries = op->nr_entries;
		memcpy(key.entries, op->entries, sizeof(key.entries));
		key.cpu = (u8)smp_processor_id();
		key.type = memleak_type_id(op->block_type, op->size);
		memleak_create_block(op->ptr, op->size, op->min_count,
				     memleak_intern_trace(&key), jiffies);
		break;
	case MEMLEAK_OP_FREE:
		memleak_delete_block(op->ptr);
		break;
	default:
		memleak_annotate(op->op, op->ptr, op->offset, op->size);
		break;
	}
}

unsigned int __init memleak_early_replay(void)
{
	for (unsigned int i = 0; i < early_count && memleak.enabled; i++)
		replay_op(&early_log[i]);
	return early_count;
}
