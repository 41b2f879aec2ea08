/*
 * Host benchmark of kmalloc and the slab caches against glibc's malloc,
 * in the same run and for the same sizes: nanoseconds per alloc+free
 * pair, and per pair when a thousand blocks are allocated before they
 * are freed (which makes the per-CPU arrays refill and flush). Built
 * without sanitizers or debugging (HOST_BENCH); prints rows for
 * tests/bench/run: "row, benchmark, case, ours, reference, ratio, unit".
 */
#include <kernel/slab.h>
#include <kernel/mm.h>
#include <asm/host.h>

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define PAIRS 2000000
#define BATCH 1000
/* Batches of large blocks stay within this much of the 64 MiB arena. */
#define BATCH_BYTES (16 << 20)
#define BATCH_ROUNDS 2000
#define REPEATS 5

static void *volatile sink;

static void *checked(void *p)
{
	if (!p) {
		printf("row\tkmalloc (host)\tallocation failed\t-\t-\t-\t-\n");
		exit(1);
	}
	return p;
}

/* Blocks per batch: BATCH, fewer for large sizes. */
static int batch_len(size_t size)
{
	return size * BATCH > BATCH_BYTES ? (int)(BATCH_BYTES / size) : BATCH;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

struct allocator {
	void *(*alloc)(void *ctx, size_t size);
	void (*free)(void *ctx, void *p);
	void *ctx;
};

static void *glibc_alloc(void *ctx, size_t size)
{
	(void)ctx;
	return malloc(size);
}

static void glibc_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

static void *kmalloc_alloc(void *ctx, size_t size)
{
	(void)ctx;
	return kmalloc(size, GFP_KERNEL);
}

static void kmalloc_free(void *ctx, void *p)
{
	(void)ctx;
	kfree(p);
}

static void *cache_alloc(void *ctx, size_t size)
{
	(void)size;
	return kmem_cache_alloc(ctx, GFP_KERNEL);
}

static void cache_free(void *ctx, void *p)
{
	kmem_cache_free(ctx, p);
}

/* ns per pair: alloc then free at once. */
static double pairs(const struct allocator *a, size_t size)
{
	double start = now_ns();

	for (int i = 0; i < PAIRS; i++) {
		void *p = checked(a->alloc(a->ctx, size));

		*(char *)p = 1;
		sink = p;
		a->free(a->ctx, p);
	}
	return (now_ns() - start) / PAIRS;
}

/* ns per pair: a batch of allocations, then their frees. */
static double batches(const struct allocator *a, size_t size)
{
	static void *blocks[BATCH];
	int n = batch_len(size);
	double start = now_ns();

	for (int r = 0; r < BATCH_ROUNDS; r++) {
		for (int i = 0; i < n; i++) {
			blocks[i] = checked(a->alloc(a->ctx, size));
			*(char *)blocks[i] = 1;
		}
		for (int i = 0; i < n; i++)
			a->free(a->ctx, blocks[i]);
	}
	return (now_ns() - start) / ((double)n * BATCH_ROUNDS);
}

/* The best of REPEATS runs: the least disturbed by the rest of the machine. */
static double best(double (*fn)(const struct allocator *, size_t),
		   const struct allocator *a, size_t size)
{
	double min = 1e30;

	for (int i = 0; i < REPEATS; i++) {
		double t = fn(a, size);

		if (t < min)
			min = t;
	}
	return min;
}

static void row(const char *what, size_t size, double ours, double ref)
{
	printf("row\tkmalloc (host)\t%s, %zu B\t%.1f\t%.1f\t%.2f\tns/pair\n",
	       what, size, ours, ref, ours / ref);
}

int main(void)
{
	static const size_t sizes[] = { 8, 32, 64, 128, 256, 512, 1024, 4096,
					16384, 131072 };
	const struct allocator glibc = { glibc_alloc, glibc_free, NULL };
	const struct allocator km = { kmalloc_alloc, kmalloc_free, NULL };

	/*
	 * Keep glibc from handing memory back to the kernel between rounds
	 * (and from mmap'ing large blocks): the arena of ours is never given
	 * back either, so both compare allocators, not page faults.
	 */
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TOP_PAD, 64 << 20);
	host_mm_init();
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t size = sizes[i];
		struct kmem_cache *c = kmem_cache_create("bench", size, 0, 0, NULL);
		const struct allocator cache = { cache_alloc, cache_free, c };
		double ref = best(pairs, &glibc, size);

		row("kmalloc+kfree", size, best(pairs, &km, size), ref);
		row("kmem_cache_alloc+free", size, best(pairs, &cache, size), ref);
		char what[48];

		snprintf(what, sizeof(what), "%d kmalloc then %d kfree",
			 batch_len(size), batch_len(size));
		ref = best(batches, &glibc, size);
		row(what, size, best(batches, &km, size), ref);
		kmem_cache_destroy(c);
	}
	if (mm_errors())
		printf("row\tkmalloc (host)\tallocator reported errors\t%lu\t-\t-\t-\n",
		       mm_errors());
	return 0;
}
