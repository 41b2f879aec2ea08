/*
 * Host benchmark of typed scanning (mm/kmemleak/types.c) against the
 * conservative scan of the same heap, in one run: a random graph of
 * 200,000 typed nodes (two typed pointers to random other nodes, then a
 * key and 13 words of payload), 90% hanging from a root array in random
 * order, the rest leaked; the payload holds small numbers.
 *
 * Rows: time per block and per word read, precise vs conservative
 * (interleaved, median of REPEATS; both must report exactly the leaked
 * nodes, or the benchmark fails), and the collector's metadata per
 * block. Then half of every payload is overwritten with addresses kept
 * as numbers (hashes, cookies, stale copies) of random nodes, leaked
 * ones included: the conservative scan reads them as pointers and
 * misses leaks, the precise one skips them; a row gives both counts.
 * Built without sanitizers
 * (HOST_BENCH), with the collector (HOST_MEMLEAK, tests/host/build.mk).
 */
#include <kernel/memleak.h>
#include <kernel/memleak_type.h>
#include <kernel/slab.h>
#include <kernel/mm.h>
#include <kernel/cycles.h>
#include <asm/host.h>
#include "../../mm/kmemleak/internal.h"

#include <stdio.h>
#include <stdlib.h>

#define NR_NODES 200000UL
#define NR_LEAKED (NR_NODES / 10)
#define NR_LIVE (NR_NODES - NR_LEAKED)
#define PAYLOAD 13
#define REPEATS 5
#define BENCH "memleak typed scan (host)"
#include "bench.h"

struct bench_node {
	struct bench_node *left, *right;
	unsigned long key;
	unsigned long payload[PAYLOAD];
};

MEMLEAK_TYPE(bench_node,
	     MEMLEAK_PTR(left, bench_node),
	     MEMLEAK_PTR(right, bench_node),
	     MEMLEAK_DATA_TO(key, payload));

/* The live nodes, in random order: a root of the scan. */
static struct bench_node **live;

static void scan_bench_root(void)
{
	memleak_scan_range(live, live + NR_LIVE);
}
MEMLEAK_ROOT("bench root", scan_bench_root);

static volatile unsigned long sink;


/* Every node. */
static struct bench_node **nodes;

/* Half of each payload: addresses of random nodes, as numbers. */
static void hide_addresses_in_payloads(void)
{
	unsigned long seed = 2463534242UL;

	for (unsigned long i = 0; i < NR_NODES; i++)
		for (unsigned int w = 0; w < PAYLOAD; w += 2)
			nodes[i]->payload[w] = (unsigned long)
				nodes[next_rand(&seed) % NR_NODES];
}

/*
 * Nodes are allocated in one order, linked in another, rooted in a
 * third: nothing the scan meets next is near what it met last. Leaked
 * nodes point to live ones and each other; no live node points to one.
 */
static void build_heap(void)
{
	unsigned long seed = 88172645463325252UL;
	struct bench_node **all = calloc(NR_NODES, sizeof(*all));

	live = calloc(NR_LIVE, sizeof(*live));
	if (!all || !live)
		die("out of host memory");
	for (unsigned long i = 0; i < NR_NODES; i++) {
		/* The host's kmalloc() has no hook: the collector is told. */
		all[i] = kmalloc(sizeof(*all[i]), GFP_KERNEL);
		if (!all[i])
			die("arena full");
		memleak_alloc_typed(all[i], sizeof(*all[i]), 1,
				    MEMLEAK_TYPE_OF(bench_node));
	}
	for (unsigned long i = NR_NODES - 1; i > 0; i--) {
		unsigned long j = next_rand(&seed) % (i + 1);
		struct bench_node *t = all[i];

		all[i] = all[j];
		all[j] = t;
	}
	/* all[0 .. NR_LIVE) live, the rest leaked. */
	for (unsigned long i = 0; i < NR_NODES; i++) {
		struct bench_node *n = all[i];

		n->left = all[next_rand(&seed) % NR_LIVE];
		n->right = i < NR_LIVE ? all[next_rand(&seed) % NR_LIVE] :
					 all[NR_LIVE + next_rand(&seed) % NR_LEAKED];
		n->key = i;
		for (unsigned int w = 0; w < PAYLOAD; w++)
			n->payload[w] = next_rand(&seed) % 4096;
	}
	for (unsigned long i = 0; i < NR_LIVE; i++)
		live[i] = all[i];
	nodes = all;
	for (unsigned long i = NR_LIVE - 1; i > 0; i--) {
		unsigned long j = next_rand(&seed) % (i + 1);
		struct bench_node *t = live[i];

		live[i] = live[j];
		live[j] = t;
	}
	memleak_flush_pending();
	if (!memleak.enabled || memleak.nr_blocks < NR_NODES)
		die("the collector did not track every node");
}

struct sample {
	double ns;
	double words;
	unsigned long suspects;
};

static struct sample scan_with(bool typed)
{
	struct sample s;

	memleak.typed = typed;
	if (memleak_scan())
		die("scan refused");
	s.ns = (double)memleak.scan_cycles;	/* ns on the host */
	s.words = (double)memleak.bytes_scanned / sizeof(long);
	s.suspects = memleak.nr_suspects;
	return s;
}

static int by_time(const void *a, const void *b)
{
	double x = ((const struct sample *)a)->ns;
	double y = ((const struct sample *)b)->ns;

	return x < y ? -1 : x > y;
}

static void row(const char *what, double ours, double ref, const char *unit)
{
	printf("row\t%s\t%s\t%.1f\t%.1f\t%.2f\t%s\n", BENCH, what, ours, ref,
	       ours / ref, unit);
}

int main(void)
{
	struct sample precise[REPEATS], whole[REPEATS], p, c;

	host_arena_size = 1UL << 29;
	host_mm_init();
	memleak_init();
	memleak.min_age_jiffies = 0;
	build_heap();
	/* Interleaved, so that both see the same machine. */
	for (int r = 0; r < REPEATS; r++) {
		precise[r] = scan_with(true);
		whole[r] = scan_with(false);
	}
	qsort(precise, REPEATS, sizeof(precise[0]), by_time);
	qsort(whole, REPEATS, sizeof(whole[0]), by_time);
	p = precise[REPEATS / 2];
	c = whole[REPEATS / 2];
	if (p.suspects != NR_LEAKED || c.suspects != NR_LEAKED)
		die("a scan did not report exactly the leaked nodes");
	row("precise vs conservative, per node", p.ns / NR_NODES,
	    c.ns / NR_NODES, "ns/block");
	row("precise vs conservative, words read", p.words, c.words, "words");
	row("precise vs conservative, per word read", p.ns / p.words,
	    c.ns / c.words, "ns/word");
	hide_addresses_in_payloads();
	/* Changed blocks are not reported by the scan that sees the change. */
	scan_with(true);
	p = scan_with(true);
	c = scan_with(false);
	if (p.suspects != NR_LEAKED)
		die("the precise scan missed leaks hidden in data");
	printf("row\t%s\tleaks found of %lu with addresses in the data "
	       "(precise, conservative)\t%lu\t%lu\t-\tblocks\n", BENCH,
	       NR_LEAKED, p.suspects, c.suspects);
	/*
	 * The type id is a byte in what was padding of struct memleak_block:
	 * the metadata per block is what an untyped heap needs.
	 */
	printf("row\t%s\tcollector metadata per node (struct memleak_block: "
	       "%zu bytes)\t%.1f\t-\t-\tbytes/block\n", BENCH,
	       sizeof(struct memleak_block),
	       (double)memleak_metadata_bytes() / memleak.nr_blocks);
	sink = p.suspects + c.suspects;
	return 0;
}
