/* Host micro-benchmark of lib/radix-tree.c: operations/s at 10k-1M keys. */
#include <kernel/radix-tree.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Nodes come from chunks with a free list, as the collector's pool will. */
#define CHUNK_NODES 4096

union bench_node {
	union bench_node *next;
	struct radix_tree_node node;
};

struct bench_pool {
	union bench_node *free;
	union bench_node **chunks;
	size_t nchunks;
};

static void *pool_alloc(void *ctx)
{
	struct bench_pool *p = ctx;
	union bench_node *chunk, *n;

	if (!p->free) {
		chunk = malloc(CHUNK_NODES * sizeof(*chunk));
		p->chunks = realloc(p->chunks, (p->nchunks + 1) * sizeof(chunk));
		if (!chunk || !p->chunks) {
			fprintf(stderr, "radix_tree bench: out of memory\n");
			exit(1);
		}
		p->chunks[p->nchunks++] = chunk;
		for (size_t i = 0; i < CHUNK_NODES; i++) {
			chunk[i].next = p->free;
			p->free = &chunk[i];
		}
	}
	n = p->free;
	p->free = n->next;
	return n;
}

static void pool_free(void *node, void *ctx)
{
	struct bench_pool *p = ctx;
	union bench_node *n = node;

	n->next = p->free;
	p->free = n;
}

static void pool_release(struct bench_pool *p)
{
	for (size_t i = 0; i < p->nchunks; i++)
		free(p->chunks[i]);
	free(p->chunks);
	*p = (struct bench_pool){ 0 };
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum pattern { SLAB, SLAB_SHIFTED, SPREAD };

static const char *const pattern_names[] = {
	[SLAB] = "slab", [SLAB_SHIFTED] = "slab>>3", [SPREAD] = "spread",
};

/*
 * Keys shaped like a 32-bit kernel heap: "slab" is a run of 64-byte
 * objects, "slab>>3" the same addresses shifted right by 3 (8-byte
 * alignment dropped, as a collector may key them), "spread" 8-aligned
 * addresses anywhere in a 1 GiB heap (one in each of n equal stretches,
 * so all distinct). Then shuffled, so that operations come in random order.
 */
static unsigned long *make_keys(size_t n, enum pattern pattern)
{
	unsigned long *keys = malloc(n * sizeof(*keys));
	size_t stride = (1UL << 27) / n, i;

	if (!keys)
		return NULL;
	for (i = 0; i < n; i++) {
		if (pattern == SPREAD)
			keys[i] = 0xc0000000UL +
				  (i * stride + rng() % stride) * 8;
		else
			keys[i] = 0xc0000000UL + i * 64;
		if (pattern == SLAB_SHIFTED)
			keys[i] >>= 3;
	}
	for (i = n - 1; i > 0; i--) {
		size_t j = rng() % (i + 1);
		unsigned long t = keys[i];

		keys[i] = keys[j];
		keys[j] = t;
	}
	return keys;
}

/* Millions of operations per second for reps passes over n keys. */
static double rate(double start, size_t n, size_t reps)
{
	return (double)n * (double)reps / (now() - start) / 1e6;
}

/* Sinks results so that the compiler keeps every lookup. */
static volatile unsigned long sink;

static void insert_all(struct radix_tree_root *root, unsigned long *keys,
		       size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (radix_tree_insert(root, keys[i], &keys[i]) != 0) {
			fprintf(stderr, "radix_tree bench: insert failed\n");
			exit(1);
		}
}

static void delete_all(struct radix_tree_root *root, unsigned long *keys,
		       size_t n)
{
	for (size_t i = 0; i < n; i++)
		radix_tree_delete(root, keys[i]);
	if (root->nodes != 0 || radix_tree_count(root) != 0) {
		fprintf(stderr, "radix_tree bench: nodes left after deletes\n");
		exit(1);
	}
}

/* Lookups of present keys (miss: of key + 4, never present), reps passes. */
static double time_lookups(const struct radix_tree_root *root,
			   const unsigned long *keys, size_t n, size_t reps,
			   unsigned long delta)
{
	unsigned long acc = 0;
	double t = now();

	for (size_t r = 0; r < reps; r++)
		for (size_t i = 0; i < n; i++)
			acc += (unsigned long)radix_tree_lookup(root,
								keys[i] + delta);
	sink = acc;
	return rate(t, n, reps);
}

/* Interior-pointer queries: key + 4 maps back to key. */
static double time_lookup_le(const struct radix_tree_root *root,
			     const unsigned long *keys, size_t n, size_t reps)
{
	unsigned long acc = 0, found = 0;
	double t = now();

	for (size_t r = 0; r < reps; r++)
		for (size_t i = 0; i < n; i++) {
			radix_tree_lookup_le(root, keys[i] + 4, &found);
			acc += found;
		}
	sink = acc;
	return rate(t, n, reps);
}

static double best(double a, double b)
{
	return a > b ? a : b;
}

/*
 * One row: the best of ROUNDS rounds, as other work on the machine only
 * ever slows a round down. The pool is warmed by one insert-and-delete
 * pass first: on a VM, first-touch page faults would otherwise swamp the
 * tree's own cost.
 */
static void bench_one(enum pattern pattern, size_t n)
{
	enum { ROUNDS = 3 };
	struct bench_pool pool = { 0 };
	struct radix_tree_root root;
	unsigned long *keys = make_keys(n, pattern), nodes = 0;
	size_t reps = n < 1000000 ? 1000000 / n : 1;
	double t, ins = 0, hit = 0, miss = 0, le = 0, del = 0;

	if (!keys) {
		fprintf(stderr, "radix_tree bench: out of memory\n");
		exit(1);
	}
	radix_tree_init(&root, pool_alloc, pool_free, &pool);
	insert_all(&root, keys, n);
	delete_all(&root, keys, n);
	for (int round = 0; round < ROUNDS; round++) {
		t = now();
		insert_all(&root, keys, n);
		ins = best(ins, rate(t, n, 1));
		nodes = root.nodes;
		hit = best(hit, time_lookups(&root, keys, n, reps, 0));
		miss = best(miss, time_lookups(&root, keys, n, reps, 4));
		le = best(le, time_lookup_le(&root, keys, n, reps));
		t = now();
		delete_all(&root, keys, n);
		del = best(del, rate(t, n, 1));
	}
	printf("radix_tree  %-8s %8zu %7.2f %7.2f %7.2f %9.2f %7.2f %8lu "
	       "%6.1f\n", pattern_names[pattern], n, ins, hit, miss, le, del,
	       nodes, (double)nodes * RADIX_TREE_NODE_SIZE / (double)n);
	radix_tree_destroy(&root);
	pool_release(&pool);
	free(keys);
}

int main(void)
{
	static const size_t sizes[] = { 10000, 100000, 1000000 };

	printf("radix_tree: shift %d, node %zu bytes, %d-bit keys; rates in "
	       "millions of operations per second\n", RADIX_TREE_MAP_SHIFT,
	       (size_t)RADIX_TREE_NODE_SIZE, (int)RADIX_TREE_LONG_BITS);
	printf("radix_tree  %-8s %8s %7s %7s %7s %9s %7s %8s %6s\n", "keys",
	       "n", "insert", "lookup", "miss", "lookup_le", "delete", "nodes",
	       "B/key");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (int p = SLAB; p <= SPREAD; p++)
			bench_one((enum pattern)p, sizes[i]);
	return 0;
}
