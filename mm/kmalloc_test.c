/*
 * Self-tests of kmalloc on the target: every size class, large blocks,
 * kcalloc, krealloc, and bad pointers given to kfree. Every case ends
 * with the free page count it started with.
 */
#include <kernel/memleak.h>
#include <kernel/ktest.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/string.h>

#define PER_CLASS 32

static unsigned long settled_free(void)
{
	slab_shrink_all();
	return memleak_nr_free_pages();
}

static unsigned char pattern(unsigned int id, size_t i)
{
	return (unsigned char)(id * 37 + i * 3);
}

/* Allocates PER_CLASS blocks of one size, fills and checks them. */
static int exercise_size(size_t size, size_t want)
{
	static unsigned char *p[PER_CLASS];
	int bad = 0;

	for (int i = 0; i < PER_CLASS; i++) {
		p[i] = kmalloc(size, GFP_KERNEL);
		if (!p[i] || ksize(p[i]) != want) {
			bad++;
			continue;
		}
		for (size_t j = 0; j < size; j += 61)
			p[i][j] = pattern(i, j);
		p[i][size - 1] = pattern(i, size - 1);
	}
	for (int i = 0; i < PER_CLASS; i++) {
		for (size_t j = 0; p[i] && j < size; j += 61)
			bad += p[i][j] != pattern(i, j);
		bad += p[i] && p[i][size - 1] != pattern(i, size - 1);
		kfree(p[i]);
	}
	/* Stale pointers here would hide later leaks from the collector. */
	memset(p, 0, sizeof(p));
	return bad;
}

static void test_every_class(struct ktest *t)
{
	unsigned long before = settled_free(), errors = mm_errors();
	size_t prev = 0;

	for (size_t size = 8; size <= KMALLOC_MAX_CACHE_SIZE;
	     size = kmalloc_size_class(size + 1)) {
		KEXPECT_EQ(t, exercise_size(prev + 1, size), 0);
		KEXPECT_EQ(t, exercise_size(size, size), 0);
		if (size == KMALLOC_MAX_CACHE_SIZE)
			break;
		prev = size;
	}
	KEXPECT_EQ(t, mm_errors(), errors);
	KEXPECT_EQ(t, settled_free(), before);
}

static void test_large_blocks(struct ktest *t)
{
	unsigned long before = settled_free();
	unsigned char *a = kmalloc(KMALLOC_MAX_CACHE_SIZE + 1, GFP_KERNEL);
	unsigned char *b = kmalloc(1 << 20, GFP_KERNEL);

	KEXPECT(t, a && b);
	if (!a || !b)
		return;
	KEXPECT_EQ(t, ksize(a), 64 * 1024 * 4);
	KEXPECT_EQ(t, ksize(b), 1 << 20);
	KEXPECT(t, virt_to_page(a)->flags & PG_kmalloc);
	KEXPECT_EQ(t, page_state(NR_KMALLOC_LARGE_PAGES), 64 + 256);
	memset(a, 0xa1, ksize(a));
	memset(b, 0xb2, ksize(b));
	KEXPECT(t, a + ksize(a) <= b || b + ksize(b) <= a);
	KEXPECT_EQ(t, a[ksize(a) - 1], 0xa1);
	kfree(a);
	kfree(b);
	KEXPECT_EQ(t, page_state(NR_KMALLOC_LARGE_PAGES), 0);
	KEXPECT_EQ(t, settled_free(), before);
}

static void test_kcalloc_and_zero(struct ktest *t)
{
	unsigned long before = settled_free();
	unsigned int *v = kcalloc(100, sizeof(*v), GFP_KERNEL);
	int nonzero = 0;

	for (int i = 0; i < 100; i++)
		nonzero += v[i] != 0;
	KEXPECT_EQ(t, nonzero, 0);
	kfree(v);
	KEXPECT(t, kcalloc(~(size_t)0 / 4, 8, GFP_KERNEL | __GFP_NOWARN) == NULL);
	KEXPECT(t, kmalloc(0, GFP_KERNEL) == ZERO_SIZE_PTR);
	kfree(ZERO_SIZE_PTR);
	kfree(NULL);
	KEXPECT_EQ(t, settled_free(), before);
}

static void test_krealloc(struct ktest *t)
{
	static const size_t steps[] = { 20, 24, 300, 5000, 200000, 100, 3 };
	unsigned long before = settled_free();
	unsigned char *p = kmalloc(steps[0], GFP_KERNEL);
	size_t have = steps[0];
	int bad = 0;

	for (size_t j = 0; j < have; j++)
		p[j] = pattern(5, j);
	for (unsigned int i = 1; i < sizeof(steps) / sizeof(steps[0]); i++) {
		unsigned char *q = krealloc(p, steps[i], GFP_KERNEL);

		if (!q) {
			bad++;
			break;
		}
		for (size_t j = 0; j < have && j < steps[i]; j++)
			bad += q[j] != pattern(5, j);
		for (size_t j = 0; j < steps[i]; j++)
			q[j] = pattern(5, j);
		p = q;
		have = steps[i];
	}
	KEXPECT_EQ(t, bad, 0);
	KEXPECT_EQ(t, ksize(p), 8);
	kfree(p);
	KEXPECT_EQ(t, settled_free(), before);
}

static void test_bad_kfree_reported(struct ktest *t)
{
	unsigned long before = settled_free(), errors = mm_errors();
	char *small = kmalloc(50, GFP_KERNEL);
	char *large = kmalloc(200000, GFP_KERNEL);
	static char not_heap[16];

	printk("    # four warnings expected: not kmalloc memory, inside two blocks, double free\n");
	kfree(not_heap);
	kfree(small + 1);
	kfree(large + PAGE_SIZE);
	kfree(small);
	kfree(small);
	KEXPECT_EQ(t, mm_errors(), errors + 4);
	kfree(large);
	KEXPECT_EQ(t, settled_free(), before);
}

static const struct ktest_case kmalloc_cases[] = {
	KTEST_CASE(test_every_class),
	KTEST_CASE(test_large_blocks),
	KTEST_CASE(test_kcalloc_and_zero),
	KTEST_CASE(test_krealloc),
	KTEST_CASE(test_bad_kfree_reported),
	{ 0 },
};
KTEST_SUITE("kmalloc", kmalloc_cases);
