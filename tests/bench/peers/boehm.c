/*
 * Contender "boehm" of tests/bench/memleak-peers.sh: Boehm GC (Debian's
 * libgc) on the random graph of graph.h, run with GC_MARKERS=1 (one
 * marker thread, like our scan). The blocks are GC_MALLOC'd while the
 * collector is disabled; the roots are one array registered with
 * GC_add_roots(), as ours registers its with MEMLEAK_ROOT. Only
 * GC_gcollect() is timed, a full mark and (lazy) sweep start. The
 * leaked blocks are then the ones GC_is_marked() says were not reached,
 * or already freed (large ones are freed at once): the addresses are
 * kept hidden (inverted) in memory Boehm does not scan, so the count
 * does not disturb the mark.
 */
#include <gc.h>
#include <gc/gc_mark.h>
#include "graph.h"

static void **root_array;

struct count_args {
	uintptr_t *hidden;
	unsigned long n, unmarked;
};

static void *count_unmarked(void *p)
{
	struct count_args *a = p;

	for (unsigned long i = 0; i < a->n; i++) {
		void *p = (void *)~a->hidden[i];

		/* Large unreached objects are freed at once: no base then. */
		a->unmarked += GC_base(p) != p || !GC_is_marked(p);
	}
	return NULL;
}

/* Wipes the stack the build left, where stale addresses may lie. */
static __attribute__((noinline)) void wipe_stack(void)
{
	volatile char area[16384];

	memset((char *)area, 0, sizeof(area));
}

static __attribute__((noinline)) uintptr_t *build(struct graph *g)
{
	void **blocks = graph_xalloc(g->n * sizeof(*blocks));
	uintptr_t *hidden = (uintptr_t *)blocks;

	for (unsigned long k = 0; k < g->n; k++) {
		uint32_t i = g->order[k];

		blocks[i] = GC_MALLOC(g->size[i]);
		if (!blocks[i]) {
			fprintf(stderr, "boehm: out of memory\n");
			exit(2);
		}
	}
	for (unsigned long i = 0; i < g->n; i++)
		graph_fill(g, blocks, i);
	root_array = graph_xalloc(g->nr_roots * sizeof(*root_array));
	GC_add_roots(root_array, root_array + g->nr_roots);
	for (unsigned long r = 0; r < g->nr_roots; r++)
		root_array[r] = blocks[g->roots[r]];
	for (unsigned long i = 0; i < g->n; i++)
		hidden[i] = ~(uintptr_t)blocks[i];
	return hidden;
}

int main(int argc, char **argv)
{
	struct count_args a = { 0 };
	static struct graph g;	/* global: a root for every contender */
	uint64_t t0, t1;

	graph_make(&g, graph_blocks_arg(argc, argv));
	GC_INIT();
	GC_disable();
	a.hidden = build(&g);
	a.n = g.n;
	g.leaked = graph_count_leaked(&g);
	graph_release(&g);
	wipe_stack();
	GC_enable();
	t0 = graph_now_ns();
	GC_gcollect();
	t1 = graph_now_ns();
	GC_call_with_alloc_lock(count_unmarked, &a);
	graph_result(&g, t1 - t0, a.unmarked, 0);
	return 0;
}
