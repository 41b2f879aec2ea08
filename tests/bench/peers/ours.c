/*
 * Contender "ours" of tests/bench/memleak-peers.sh: the leak collector
 * (mm/kmemleak/, built for the host) on the random graph of graph.h.
 * Blocks come from our kmalloc (the host arena) and are tracked with
 * memleak_alloc(); the roots are one array, scanned as a MEMLEAK_ROOT;
 * only memleak_scan() is timed. Also prints the collector's metadata
 * (memleak_metadata_bytes()) for the bytes-per-block figure, and part by
 * part (memleak_metadata()).
 */
#include <kernel/memleak.h>
#include <kernel/slab.h>
#include <kernel/mm.h>
#include <kernel/cycles.h>
#include <kernel/task.h>
#include <asm/host.h>
#include "../../../mm/kmemleak/internal.h"
#include "graph.h"

static void **root_array;
static unsigned long nr_root_words;

static void scan_peer_roots(void)
{
	memleak_scan_range(root_array, root_array + nr_root_words);
}
MEMLEAK_ROOT("bench roots", scan_peer_roots);

static __attribute__((noinline)) void build(struct graph *g)
{
	void **blocks = graph_xalloc(g->n * sizeof(*blocks));

	for (unsigned long k = 0; k < g->n; k++) {
		uint32_t i = g->order[k];

		blocks[i] = kmalloc(g->size[i], GFP_KERNEL);
		if (!blocks[i]) {
			fprintf(stderr, "ours: arena full\n");
			exit(2);
		}
		memleak_alloc(blocks[i], g->size[i], 1);
	}
	for (unsigned long i = 0; i < g->n; i++)
		graph_fill(g, blocks, i);
	root_array = graph_xalloc(g->nr_roots * sizeof(*root_array));
	for (unsigned long r = 0; r < g->nr_roots; r++)
		root_array[r] = blocks[g->roots[r]];
	nr_root_words = g->nr_roots;
	free(blocks);
}

int main(int argc, char **argv)
{
	static struct graph g;	/* global: a root for every contender */
	struct memleak_metadata before, after;
	unsigned long meta_before;
	uint64_t t0, t1;

	graph_make(&g, graph_blocks_arg(argc, argv));
	host_arena_size = 64UL << 20;
	while (host_arena_size < g.words * sizeof(long) * 2 + (64UL << 20))
		host_arena_size *= 2;
	host_mm_init();
	host_arena_populate();	/* the kernel's RAM is there: no faults */
	memleak_init();
	meta_before = memleak_metadata_bytes();
	memleak_metadata(&before);
	build(&g);
	g.leaked = graph_count_leaked(&g);
	graph_release(&g);	/* as the other contenders do */
	memleak_flush_pending();
	memleak.min_age_jiffies = 0;
	task_wipe_dead_stack();
	t0 = graph_now_ns();
	memleak_scan();
	t1 = graph_now_ns();
	graph_result(&g, t1 - t0, memleak.nr_suspects,
		     memleak_metadata_bytes() - meta_before);
	/* Where the time went: the world-stopped confirmation's share. */
	fprintf(stderr, "ours: pause %llu of %llu cycles, %lu of %lu bytes\n",
		(unsigned long long)memleak.pause_cycles,
		(unsigned long long)memleak.scan_cycles, memleak.pause_bytes,
		memleak.bytes_scanned);
	/* And step by step, per block: what to make cheaper next. */
	fprintf(stderr, "ours: phases");
	for (unsigned int i = 0; i < MEMLEAK_NR_PHASES; i++)
		fprintf(stderr, " %s=%.1f", memleak_phase_names[i],
			(double)cycles_to_ns(memleak.phase_cycles[i]) / g.n);
	fprintf(stderr, " ns per block\n");
	/* Which metadata: the records per slab block, the rest per block. */
	memleak_metadata(&after);
	fprintf(stderr, "ours: metadata records=%.1f (per slab block) "
		"tables=%.1f tree=%.1f traces=%.1f extra=%.1f queues=%.1f "
		"checksums=%.1f bytes per block\n",
		(double)(after.records - before.records) /
			(double)(after.slab_blocks ? after.slab_blocks : 1),
		(double)(after.tables - before.tables) / g.n,
		(double)(after.tree - before.tree) / g.n,
		(double)(after.traces - before.traces) / g.n,
		(double)(after.extra - before.extra) / g.n,
		(double)(after.queues - before.queues) / g.n,
		(double)(after.checksums - before.checksums) / g.n);
	return 0;
}
