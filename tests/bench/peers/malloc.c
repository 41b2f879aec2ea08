/*
 * Contenders of tests/bench/memleak-peers.sh that use the C library's
 * malloc, one source for three programs:
 *   -DPEER_LSAN      built with clang -fsanitize=leak: times
 *                    __lsan_do_recoverable_leak_check(); the script reads
 *                    the leaked count from LSan's SUMMARY line;
 *   -DPEER_VALGRIND  run under valgrind: times VALGRIND_DO_LEAK_CHECK and
 *                    counts definitely + indirectly lost blocks;
 *   -DPEER_FLOOR     "floor": about the least a tracing mark must do
 *                    here: a breadth-first walk from the roots that
 *                    reads every reachable block's words once, the next
 *                    blocks fetched ahead, but takes each pointer's
 *                    target from a record made beforehand instead of
 *                    looking it up (no index, no conservative test, no
 *                    other phase);
 *   (none of these)  "plain": a sequential read of every block's words,
 *                    in address order, the speed of memory.
 * The block addresses are kept inverted, so that neither LSan nor
 * Valgrind sees them as references.
 */
#include "graph.h"
#ifdef PEER_LSAN
#include <sanitizer/lsan_interface.h>
#endif
#ifdef PEER_VALGRIND
#include <valgrind/memcheck.h>
#endif

void **root_array;
/* The build's array of (hidden) addresses: allocated, so reachable. */
uintptr_t *kept_hidden;

static __attribute__((noinline)) uintptr_t *build(struct graph *g)
{
	void **blocks = graph_xalloc(g->n * sizeof(*blocks));
	uintptr_t *hidden = (uintptr_t *)blocks;

	for (unsigned long k = 0; k < g->n; k++) {
		uint32_t i = g->order[k];

		blocks[i] = malloc(g->size[i]);
		if (!blocks[i]) {
			fprintf(stderr, "malloc: out of memory\n");
			exit(2);
		}
	}
	for (unsigned long i = 0; i < g->n; i++)
		graph_fill(g, blocks, i);
	root_array = malloc(g->nr_roots * sizeof(*root_array));
	for (unsigned long r = 0; r < g->nr_roots; r++)
		root_array[r] = blocks[g->roots[r]];
	for (unsigned long i = 0; i < g->n; i++)
		hidden[i] = ~(uintptr_t)blocks[i];
	return hidden;
}

/* Wipes the stack the build left, where stale addresses may lie. */
static __attribute__((noinline)) void wipe_stack(void)
{
	volatile char area[16384];

	memset((char *)area, 0, sizeof(area));
}

#ifdef PEER_FLOOR
static volatile unsigned long sink;

/*
 * What the floor knows of a block, made before the clock starts, as a
 * collector makes its metadata when blocks are allocated: one small
 * record, so that a block costs one metadata miss besides its memory.
 */
struct floor_block {
	const unsigned long *words;
	uint32_t nr_words;
	uint32_t to[GRAPH_EDGES];
};

/*
 * How far ahead in the queue a block's record (twice this) and its
 * memory (this) are fetched: in two stages, as our gray queue does, so
 * that the memory's address is in the cache when it is needed.
 */
#define FLOOR_AHEAD 4

/* A block's first lines, as many as most blocks have, as ours does. */
static void prefetch_words(const struct floor_block *b)
{
	uint32_t bytes = b->nr_words * sizeof(long);

	for (uint32_t at = 0; at < bytes && at < 256; at += 64)
		__builtin_prefetch((const char *)b->words + at);
}

/*
 * The breadth-first walk, timed; *found: the blocks it did not reach.
 * Its records, seen bytes and queue are made before the clock starts.
 */
static uint64_t floor_mark(const struct graph *g, const uintptr_t *hidden,
			   unsigned long *found)
{
	struct floor_block *fb = graph_xalloc(g->n * sizeof(*fb));
	unsigned char *seen = graph_xalloc(g->n);
	uint32_t *queue = graph_xalloc(g->n * sizeof(*queue));
	unsigned long head = 0, tail, sum = 0;
	uint64_t t0;

	for (unsigned long i = 0; i < g->n; i++) {
		fb[i].words = (const unsigned long *)~hidden[i];
		fb[i].nr_words = g->size[i] / sizeof(long);
		for (int e = 0; e < GRAPH_EDGES; e++)
			fb[i].to[e] = g->to[i][e];
	}
	t0 = graph_now_ns();
	tail = graph_queue_roots(g, seen, queue);
	while (head < tail) {
		const struct floor_block *b;

		if (head + 2 * FLOOR_AHEAD < tail)
			__builtin_prefetch(&fb[queue[head + 2 * FLOOR_AHEAD]]);
		if (head + FLOOR_AHEAD < tail)
			prefetch_words(&fb[queue[head + FLOOR_AHEAD]]);
		b = &fb[queue[head++]];
		for (uint32_t k = 0; k < b->nr_words; k++)
			sum += b->words[k];
		for (int e = 0; e < GRAPH_EDGES; e++)
			graph_see(b->to[e], seen, queue, &tail);
	}
	t0 = graph_now_ns() - t0;
	sink = sum;
	*found = g->n - tail;
	free(fb);
	free(seen);
	free(queue);
	return t0;
}
#elif !defined(PEER_LSAN) && !defined(PEER_VALGRIND)
struct extent {
	uintptr_t hidden;	/* ~address */
	unsigned long words;
};

static int by_address(const void *a, const void *b)
{
	uintptr_t x = ~((const struct extent *)a)->hidden;
	uintptr_t y = ~((const struct extent *)b)->hidden;

	return x < y ? -1 : x > y;
}

static volatile unsigned long sink;

/* Every word of every block, blocks in address order. */
static uint64_t read_all(const struct graph *g, const uintptr_t *hidden)
{
	struct extent *e = graph_xalloc(g->n * sizeof(*e));
	unsigned long sum = 0;
	uint64_t t0;

	for (unsigned long i = 0; i < g->n; i++) {
		e[i].hidden = hidden[i];
		e[i].words = g->size[i] / sizeof(long);
	}
	qsort(e, g->n, sizeof(*e), by_address);
	t0 = graph_now_ns();
	for (unsigned long i = 0; i < g->n; i++) {
		const unsigned long *w = (const unsigned long *)~e[i].hidden;

		for (unsigned long k = 0; k < e[i].words; k++)
			sum += w[k];
	}
	t0 = graph_now_ns() - t0;
	sink = sum;
	free(e);
	return t0;
}
#endif

int main(int argc, char **argv)
{
	unsigned long found = 0;
	static struct graph g;	/* global: a root for every contender */
	uint64_t t0, t1;
	uintptr_t *hidden __attribute__((unused));

	graph_make(&g, graph_blocks_arg(argc, argv));
	hidden = kept_hidden = build(&g);
	g.leaked = graph_count_leaked(&g);
#if defined(PEER_LSAN) || defined(PEER_VALGRIND)
	graph_release(&g);
#endif
	wipe_stack();
#if defined(PEER_LSAN)
	t0 = graph_now_ns();
	__lsan_do_recoverable_leak_check();
	t1 = graph_now_ns();
	found = ~0UL;	/* from LSan's summary, by the script */
#elif defined(PEER_VALGRIND)
	{
		unsigned long leaked, dubious, reachable, suppressed;

		t0 = graph_now_ns();
		VALGRIND_DO_LEAK_CHECK;
		t1 = graph_now_ns();
		VALGRIND_COUNT_LEAK_BLOCKS(leaked, dubious, reachable,
					   suppressed);
		(void)dubious;
		(void)reachable;
		(void)suppressed;
		found = leaked;
	}
#elif defined(PEER_FLOOR)
	t0 = 0;
	t1 = floor_mark(&g, hidden, &found);
	graph_release(&g);
#else
	t0 = 0;
	t1 = read_all(&g, hidden);
	found = g.leaked;	/* reads, does not look for leaks */
	graph_release(&g);
#endif
	graph_result(&g, t1 - t0, found, 0);
	return 0;
}
