/*
 * The heap every contender of tests/bench/memleak-peers.sh builds: the
 * same random graph from a fixed seed, so that all of them must find the
 * same number of leaked blocks.
 *
 * N blocks, 97% of 16..256 bytes and 3% up to 4 KiB; each holds two
 * pointers to random other blocks at random word positions, and small
 * numbers (never heap addresses) in its other words. A random 10% of the
 * blocks are the roots, held in a global array; every block reachable
 * from them is live, every other one is leaked (a breadth-first search
 * here counts them: the answer every contender must give). Blocks are
 * allocated in a random order, unrelated to the graph, as on a real
 * heap where a block's neighbours in memory have nothing to do with it.
 *
 * Header-only, plain C: each contender is its own program (Boehm GC and
 * LeakSanitizer replace the allocator, so they cannot share a process).
 */
#ifndef BENCH_PEERS_GRAPH_H
#define BENCH_PEERS_GRAPH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GRAPH_EDGES 2

struct graph {
	unsigned long n;
	uint32_t *size;			/* bytes of block i */
	uint32_t (*to)[GRAPH_EDGES];	/* the blocks block i points to */
	uint32_t (*at)[GRAPH_EDGES];	/* at which word */
	uint32_t *order;		/* allocation order */
	uint32_t *roots;
	unsigned long nr_roots;
	unsigned long leaked;		/* blocks unreachable from the roots */
	unsigned long words;		/* words in all blocks */
};

static uint64_t graph_seed = 0x9e3779b97f4a7c15ULL;

static uint64_t graph_rand(void)
{
	graph_seed ^= graph_seed >> 12;
	graph_seed ^= graph_seed << 25;
	graph_seed ^= graph_seed >> 27;
	return graph_seed * 2685821657736338717ULL;
}

static void *graph_xalloc(size_t bytes)
{
	void *p = calloc(1, bytes);

	if (!p) {
		fprintf(stderr, "graph: out of memory\n");
		exit(2);
	}
	return p;
}

/*
 * A breadth-first walk from the roots, in steps: block b joins the
 * queue the first time it is seen; graph_queue_roots() starts the
 * queue, graph_queue_edges() adds what block b points to. Inline: the
 * floor (peers/malloc.c) is timed walking with them.
 */
static inline void graph_see(uint32_t b, unsigned char *seen, uint32_t *queue,
			     unsigned long *tail)
{
	if (!seen[b]) {
		seen[b] = 1;
		queue[(*tail)++] = b;
	}
}

static inline unsigned long graph_queue_roots(const struct graph *g,
					      unsigned char *seen,
					      uint32_t *queue)
{
	unsigned long tail = 0;

	for (unsigned long r = 0; r < g->nr_roots; r++)
		graph_see(g->roots[r], seen, queue, &tail);
	return tail;
}

static inline void graph_queue_edges(const struct graph *g, uint32_t b,
				     unsigned char *seen, uint32_t *queue,
				     unsigned long *tail)
{
	for (int e = 0; e < GRAPH_EDGES; e++)
		graph_see(g->to[b][e], seen, queue, tail);
}

static unsigned long graph_count_leaked(const struct graph *g)
{
	unsigned char *seen = graph_xalloc(g->n);
	uint32_t *queue = graph_xalloc(g->n * sizeof(*queue));
	unsigned long head = 0, tail = graph_queue_roots(g, seen, queue);

	while (head < tail)
		graph_queue_edges(g, queue[head++], seen, queue, &tail);
	free(seen);
	free(queue);
	return g->n - tail;
}

static void graph_make(struct graph *g, unsigned long n)
{
	g->n = n;
	g->size = graph_xalloc(n * sizeof(*g->size));
	g->to = graph_xalloc(n * sizeof(*g->to));
	g->at = graph_xalloc(n * sizeof(*g->at));
	g->order = graph_xalloc(n * sizeof(*g->order));
	g->nr_roots = n / 10;
	g->roots = graph_xalloc(g->nr_roots * sizeof(*g->roots));
	g->words = 0;
	for (unsigned long i = 0; i < n; i++) {
		uint32_t words;

		if (graph_rand() % 100 < 97)	/* 16..256 bytes */
			g->size[i] = 16 + 8 * (graph_rand() % 31);
		else				/* 264 bytes..4 KiB */
			g->size[i] = 264 + 8 * (graph_rand() % 480);
		words = g->size[i] / 8;	/* word positions valid on 64-bit */
		for (int e = 0; e < GRAPH_EDGES; e++) {
			g->to[i][e] = graph_rand() % n;
			g->at[i][e] = graph_rand() % words;
		}
		g->order[i] = i;
		g->words += g->size[i] / sizeof(long);
	}
	for (unsigned long i = n - 1; i > 0; i--) {	/* Fisher-Yates */
		unsigned long j = graph_rand() % (i + 1);
		uint32_t t = g->order[i];

		g->order[i] = g->order[j];
		g->order[j] = t;
	}
	for (unsigned long r = 0; r < g->nr_roots; r++)
		g->roots[r] = graph_rand() % n;
	g->leaked = graph_count_leaked(g);
}

/*
 * Fills block i (already allocated, at blocks[i]): small numbers, then
 * its pointers. Two edges may pick the same word: the later one wins, so
 * the leaked count is recomputed from what was actually stored.
 */
static void graph_fill(struct graph *g, void **blocks, unsigned long i)
{
	unsigned long *w = blocks[i];
	unsigned long words = g->size[i] / sizeof(long);

	for (unsigned long k = 0; k < words; k++)
		w[k] = graph_rand() % 65536;
	for (int e = 0; e < GRAPH_EDGES; e++)
		w[g->at[i][e] * 8 / sizeof(long)] =
			(unsigned long)blocks[g->to[i][e]];
	if (g->at[i][0] == g->at[i][1])
		g->to[i][0] = g->to[i][1];
}

/*
 * Frees the generator's arrays of block numbers once the heap is built.
 * Two 32-bit block numbers side by side read as one 64-bit word that can
 * fall inside a heap block (0x6000_0000_0000 is LSan's heap), so a
 * conservative scanner that can see them would keep leaked blocks alive.
 */
static void graph_release(struct graph *g)
{
	free(g->size);
	free(g->to);
	free(g->at);
	free(g->order);
	free(g->roots);
	g->size = NULL;
	g->to = NULL;
	g->at = NULL;
	g->order = NULL;
	g->roots = NULL;
}

static unsigned long graph_blocks_arg(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s NR_BLOCKS\n", argv[0]);
		exit(2);
	}
	return strtoul(argv[1], NULL, 0);
}

static uint64_t graph_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* What every contender prints, one line, for the script. */
static void graph_result(const struct graph *g, uint64_t ns,
			 unsigned long found, unsigned long meta_bytes)
{
	printf("blocks=%lu expected=%lu found=%lu ns=%llu words=%lu meta=%lu\n",
	       g->n, g->leaked, found, (unsigned long long)ns, g->words,
	       meta_bytes);
}

#endif
