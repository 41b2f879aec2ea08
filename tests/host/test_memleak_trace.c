/*
 * Host tests of where a leak collector trace starts: the allocators'
 * frames (functions marked __alloc_entry, <kernel/alloc_entry.h>) are
 * dropped when the trace is taken, so that its first call site is the
 * allocator's caller, never an allocator and never one frame too far.
 * The host walks its stack with glibc's unwinder (arch/host/stacktrace.c)
 * and ld gathers alloc_text as in the kernel. Single-threaded: no lock.
 */
#include <kernel/kernel.h>
#include <kernel/alloc_entry.h>
#include <kernel/memleak.h>
#include <kernel/slab.h>
#include "../../mm/kmemleak/internal.h"
#include "test_memleak.h"

static void scan_no_roots(void)
{
}
MEMLEAK_ROOT("trace test", scan_no_roots);

/* Where the allocator test_kzalloc() returns to in its caller. */
static unsigned long caller_return;

/* An allocator as mm/kmalloc.c's: the hook right in the entry point. */
static __alloc_entry __noinline void *test_kmalloc(size_t size)
{
	void *p = kmalloc(size, GFP_KERNEL);

	memleak_alloc(p, size, 1);
	return p;
}

/* One that calls another, as kzalloc() calls kmalloc(). */
static __alloc_entry __noinline void *test_kzalloc(size_t size)
{
	void *p;

	caller_return = (unsigned long)__builtin_return_address(0);
	p = test_kmalloc(size);
	OPTIMIZER_HIDE_VAR(p);	/* no tail call: keep this frame */
	return p;
}

/* The culprit: not an allocator, its call site must come first. */
static __noinline void *culprit(size_t size)
{
	void *p = test_kzalloc(size);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static const struct memleak_trace *trace_of(const void *p)
{
	const struct memleak_block *b;

	memleak_flush_pending();
	b = memleak_lookup_block((unsigned long)p);
	assert_non_null(b);
	assert_non_null(block_trace(b));
	return block_trace(b);
}

/* Another culprit, for a trace of its own. */
static __noinline void *other_culprit(size_t size)
{
	void *p = test_kzalloc(size);

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static void release(void *p)
{
	memleak_free(p);
	kfree(p);
}

static void test_first_frame_is_the_caller(void **state)
{
	void *p = culprit(24);
	const struct memleak_trace *t = trace_of(p);

	(void)state;
	assert_true(t->nr_entries >= 2);
	/* The call site, as the walker names it: one byte before the return. */
	assert_int_equal(t->entries[0], caller_return - 1);
	for (unsigned int i = 0; i < t->nr_entries; i++)
		assert_false(in_alloc_text(t->entries[i]));
	release(p);
}

/*
 * A block names its trace by id (memleak_trace_of()): a trace freed (its
 * last block gone, the unused traces shrunk away) gives its id to the
 * next new trace, and each block finds its own trace by its id.
 */
static void test_trace_ids_reused(void **state)
{
	const struct memleak_trace *t;
	void *p, *q;
	u32 id;

	(void)state;
	memleak_shrink();		/* no unused trace waits to be freed */
	p = culprit(24);
	t = trace_of(p);
	id = t->id;
	assert_true(id != 0);
	assert_ptr_equal(memleak_trace_of(id), t);
	release(p);
	memleak_shrink();
	q = other_culprit(24);
	t = trace_of(q);
	assert_int_equal(t->id, id);
	assert_ptr_equal(block_trace(memleak_lookup_block((unsigned long)q)), t);
	assert_int_equal(t->entries[0], caller_return - 1);
	release(q);
}

/*
 * A block names its trace in 16 bits: the 65536th live trace is refused
 * and the collector says why; the ids come back when the traces go.
 */
static void test_trace_ids_run_out(void **state)
{
	static struct memleak_trace *held[MEMLEAK_MAX_TRACES + 1];
	struct memleak_trace key = { .nr_entries = 1 }, *t;
	unsigned int n = 0, highest = 0;
	unsigned long flags;

	(void)state;
	host_log_clear();
	memleak_shrink();
	memleak_enter(&flags);
	while (n <= MEMLEAK_MAX_TRACES) {
		key.entries[0] = 0x10000 + n;
		t = memleak_intern_trace(&key);
		if (!t)
			break;
		highest = max(highest, t->id);
		held[n++] = t;
	}
	memleak_leave(flags);
	assert_int_equal(memleak.nr_traces, MEMLEAK_MAX_TRACES);
	assert_int_equal(highest, MEMLEAK_MAX_TRACES);
	expect_disabled("out of trace ids");
	memleak_enter(&flags);
	while (n)
		memleak_trace_put(held[--n]);
	memleak_leave(flags);
	memleak_shrink();
	memleak_enter(&flags);
	t = memleak_intern_trace(&key);
	memleak_leave(flags);
	assert_non_null(t);
	assert_true(t->id <= MEMLEAK_MAX_TRACES);
	memleak_enter(&flags);
	memleak_trace_put(t);
	memleak_leave(flags);
}

/* Only the leading allocator frames go, however many there are. */
static void test_only_leading_allocator_frames(void **state)
{
	const unsigned long in_kmalloc = (unsigned long)test_kmalloc + 1;
	const unsigned long in_kzalloc = (unsigned long)test_kzalloc + 1;
	const unsigned long in_culprit = (unsigned long)culprit + 1;
	const unsigned long sites[] = { in_kmalloc, in_kzalloc, in_culprit,
					in_kmalloc };

	(void)state;
	assert_int_equal(memleak_allocator_frames(sites, 4), 2);
	assert_int_equal(memleak_allocator_frames(sites + 2, 2), 0);
	assert_int_equal(memleak_allocator_frames(sites, 1), 1);
	assert_int_equal(memleak_allocator_frames(sites, 0), 0);
}

/* The real allocators and the hook are in the section, their callers not. */
static void test_alloc_text_holds_the_allocators(void **state)
{
	(void)state;
	assert_true(in_alloc_text((unsigned long)kmalloc));
	assert_true(in_alloc_text((unsigned long)kzalloc));
	assert_true(in_alloc_text((unsigned long)kmem_cache_alloc));
	assert_true(in_alloc_text((unsigned long)memleak_alloc));
	assert_false(in_alloc_text((unsigned long)culprit));
	assert_false(in_alloc_text((unsigned long)kfree));
	assert_false(in_alloc_text((unsigned long)__stop_alloc_text));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_frame_is_the_caller),
		cmocka_unit_test(test_only_leading_allocator_frames),
		cmocka_unit_test(test_trace_ids_reused),
		cmocka_unit_test(test_trace_ids_run_out),
		cmocka_unit_test(test_alloc_text_holds_the_allocators),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
