/*
 * Self-test of the written pages read from dirty bits (written.c): a
 * page written after tracking starts is reported, one left alone is
 * not, and a page written just before (its translation cached with the
 * dirty bit set) is reported after a second write, which only the TLB
 * flush makes sure of: on this CPU, and with several, on another one.
 */
#include <kernel/bitops.h>
#include <kernel/gfp.h>
#include <kernel/ktest.h>
#include <kernel/mm.h>
#include <kernel/slab.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/written.h>

static bool page_written(const unsigned long *bits, const void *p)
{
	return test_bit((__pa(p) >> PAGE_SHIFT) - min_pfn, bits);
}

/*
 * Starts tracking, waiting while the leak collector's scan tracks (with
 * 'memleak scan=1' it may run meanwhile): false after 10 s of that.
 */
static bool track_when_free(void)
{
	for (unsigned int ms = 0; ms < 10000; ms += 10) {
		if (arch_track_written_pages())
			return true;
		msleep(10);
	}
	return false;
}

static bool expect_tracking(struct ktest *t)
{
	bool tracking = track_when_free();

	KEXPECT(t, tracking);
	return tracking;
}

static void test_written_pages(struct ktest *t)
{
	size_t bytes = BITS_TO_LONGS(max_pfn - min_pfn) * sizeof(long);
	unsigned long *bits = kzalloc(bytes, GFP_KERNEL);
	struct page *pages = alloc_pages(GFP_KERNEL, 2);
	volatile char *before, *after, *untouched;

	KEXPECT(t, bits && pages);
	if (!bits || !pages)
		goto out;
	before = page_address(pages);
	after = before + PAGE_SIZE;
	untouched = before + 2 * PAGE_SIZE;
	before[0] = 1;	/* its translation now says "dirty" */
	(void)untouched[0];
	if (!expect_tracking(t))
		goto out;
	/* One tracker at a time: a second would clear the first's bits. */
	KEXPECT(t, !arch_track_written_pages());
	before[8] = 2;
	after[8] = 3;
	KEXPECT(t, arch_written_pages(bits));
	KEXPECT(t, page_written(bits, (const void *)before));
	KEXPECT(t, page_written(bits, (const void *)after));
	KEXPECT(t, !page_written(bits, (const void *)untouched));
	arch_untrack_written_pages();
	/* A second round starts afresh. */
	memset(bits, 0, bytes);
	if (!expect_tracking(t))
		goto out;
	KEXPECT(t, arch_written_pages(bits));
	KEXPECT(t, !page_written(bits, (const void *)after));
	arch_untrack_written_pages();
out:
	if (pages)
		__free_pages(pages, 2);
	kfree(bits);
}

static void write_first_word(void *page)
{
	*(volatile unsigned long *)page = 1;
}

/*
 * Another CPU writes a page before tracking starts (its own TLB caches
 * the translation dirty) and again after: only the cross call that
 * flushes every CPU's TLB makes the second write set the bit again.
 * With one CPU there is nothing to test.
 */
static void test_other_cpu_writes(struct ktest *t)
{
	size_t bytes = BITS_TO_LONGS(max_pfn - min_pfn) * sizeof(long);
	unsigned long *bits = kzalloc(bytes, GFP_KERNEL);
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	unsigned int other = smp_processor_id() ? 0 : 1;
	void *p;

	KEXPECT(t, bits && page);
	if (!bits || !page || !cpu_online(other))
		goto out;
	p = page_address(page);
	KEXPECT_EQ(t, smp_call_function_single(other, write_first_word, p,
					       true), 0);
	if (!expect_tracking(t))
		goto out;
	KEXPECT_EQ(t, smp_call_function_single(other, write_first_word, p,
					       true), 0);
	KEXPECT(t, arch_written_pages(bits));
	KEXPECT(t, page_written(bits, p));
	arch_untrack_written_pages();
out:
	if (page)
		__free_pages(page, 0);
	kfree(bits);
}

static const struct ktest_case written_cases[] = {
	KTEST_CASE(test_written_pages),
	KTEST_CASE(test_other_cpu_writes),
	{ 0 },
};
KTEST_SUITE("written", written_cases);
