/*
 * Host benchmark of the leak collector's scan (mm/kmemleak/scan.c) over
 * a heap graph of a million tracked blocks: a tree of kmalloc'd blocks
 * (32 to 256 bytes, four children each) hanging from a root, plus 1%
 * orphans. Prints, for tests/bench/run, the scan's cost per scanned
 * word against a plain sweep reading the same blocks in the same run
 * (the machine is too noisy for absolute times alone), its cost per
 * tracked block, its longest lock-held (IRQ-off) stretch (the least
 * of the runs: in wall time it also holds the host's preemptions), and
 * what a word that points into no tracked block costs: a root of 8 M
 * small numbers, timed inside the scan, against a plain read of it
 * right after, the median of each repetition's own ratio (the best of
 * each, taken apart, moved from 1.2 to 2.1 between runs of one program
 * on this VM). Built without sanitizers (HOST_BENCH) and with the
 * collector (HOST_MEMLEAK, tests/host/build.mk).
 */
#include <kernel/memleak.h>
#include <kernel/slab.h>
#include <kernel/mm.h>
#include <kernel/cycles.h>
#include <asm/host.h>
#include "../../mm/kmemleak/internal.h"

#include <stdio.h>
#include <stdlib.h>

#define NR_BLOCKS 1000000UL
#define NR_ORPHANS (NR_BLOCKS / 100)
#define NR_TREE (NR_BLOCKS - NR_ORPHANS)
#define FANOUT 4
#define REPEATS 5
#define BENCH "memleak scan (host)"
#include "bench.h"

static unsigned long root;

/* Words that point into no tracked block, and what scanning them took. */
#define NR_PLAIN_WORDS (8UL << 20)
static unsigned long *plain_words;
static double plain_scan_ns;

static void scan_bench_root(void)
{
	u64 t0;

	memleak_scan_range(&root, &root + 1);
	t0 = arch_cycles();
	memleak_scan_range(plain_words, plain_words + NR_PLAIN_WORDS);
	plain_scan_ns = (double)(arch_cycles() - t0);
}
MEMLEAK_ROOT("bench root", scan_bench_root);

static void **blocks;
static size_t *sizes;
static volatile unsigned long sink;


/*
 * Block i of the tree has children FANOUT*i+1.. in its first words; the
 * other words hold small numbers, which never look like block addresses.
 */
static void build_graph(void)
{
	unsigned long seed = 88172645463325252UL;

	blocks = calloc(NR_BLOCKS, sizeof(*blocks));
	sizes = calloc(NR_BLOCKS, sizeof(*sizes));
	if (!blocks || !sizes)
		die("out of host memory");
	for (unsigned long i = 0; i < NR_BLOCKS; i++) {
		unsigned long *w;

		sizes[i] = 32UL << (next_rand(&seed) % 4);
		blocks[i] = kmalloc(sizes[i], GFP_KERNEL);
		if (!blocks[i])
			die("arena full");
		w = blocks[i];
		for (size_t j = 0; j < sizes[i] / sizeof(long); j++)
			w[j] = j * 3 + i % 1000;
		memleak_alloc(blocks[i], sizes[i], 1);
	}
	for (unsigned long i = 0; i < NR_TREE; i++)
		for (unsigned long c = 0; c < FANOUT; c++)
			if (FANOUT * i + 1 + c < NR_TREE)
				((unsigned long *)blocks[i])[c] =
					(unsigned long)
						blocks[FANOUT * i + 1 + c];
	root = (unsigned long)blocks[0];
	memleak_flush_pending();
	if (!memleak.enabled || memleak.nr_blocks != NR_BLOCKS)
		die("the collector did not track every block");
}

/* Reads every word the scan reads (the root and the tree), in tree order. */
static double sweep_ns(void)
{
	u64 t0 = arch_cycles();
	unsigned long sum = root;

	for (unsigned long i = 0; i < NR_TREE; i++) {
		const unsigned long *w = blocks[i];

		for (size_t j = 0; j < sizes[i] / sizeof(long); j++)
			sum += w[j];
	}
	sink = sum;
	return (double)(arch_cycles() - t0);
}

/* Small numbers, as in the blocks: below every block's address. */
static void fill_plain_words(void)
{
	plain_words = malloc(NR_PLAIN_WORDS * sizeof(*plain_words));
	if (!plain_words)
		die("out of host memory");
	for (unsigned long i = 0; i < NR_PLAIN_WORDS; i++)
		plain_words[i] = i % 1000;
}

static double read_plain_words_ns(void)
{
	u64 t0 = arch_cycles();
	unsigned long sum = 0;

	for (unsigned long i = 0; i < NR_PLAIN_WORDS; i++)
		sum += plain_words[i];
	sink = sum;
	return (double)(arch_cycles() - t0);
}

static double scan_ns(void)
{
	if (memleak_scan())
		die("scan refused");
	if (memleak.nr_suspects != NR_ORPHANS)
		die("the scan did not report exactly the orphans");
	return (double)memleak.scan_cycles; /* ns on the host */
}

int main(void)
{
	double best_scan = 1e30, best_sweep = 1e30, irqoff = 1e30, words;
	double plain_scan[REPEATS], plain_read[REPEATS], plain_ratio[REPEATS];

	host_arena_size = 1UL << 30;
	host_mm_init();
	memleak_init();
	memleak.min_age_jiffies = 0;
	fill_plain_words();
	build_graph();
	/* Side by side, the best of each: the least disturbed runs. */
	for (int r = 0; r < REPEATS; r++) {
		/* The blocks alone: the root of small numbers is apart. */
		double scan = scan_ns() - plain_scan_ns, sweep = sweep_ns();

		if (scan < best_scan)
			best_scan = scan;
		/* A host window also holds whatever preempted the process. */
		if (memleak.scan_irqoff_cycles < irqoff)
			irqoff = (double)memleak.scan_irqoff_cycles;
		if (sweep < best_sweep)
			best_sweep = sweep;
		plain_scan[r] = plain_scan_ns;
		plain_read[r] = read_plain_words_ns();
		plain_ratio[r] = plain_scan[r] / plain_read[r];
	}
	words = (double)memleak.bytes_scanned / sizeof(long) - NR_PLAIN_WORDS;
	printf("row\t%s\t%lu blocks, %.0f words scanned\t%.2f\t%.2f\t%.1f\t"
	       "ns/word (scan vs plain sweep)\n",
	       BENCH, NR_BLOCKS, words, best_scan / words, best_sweep / words,
	       best_scan / best_sweep);
	printf("row\t%s\t%lu blocks, per tracked block\t%.1f\t-\t-\tns/block\n",
	       BENCH, NR_BLOCKS, best_scan / NR_BLOCKS);
	printf("row\t%s\t%lu blocks, longest IRQ-off window vs whole scan\t"
	       "%.0f\t%.0f\t%.4f\tus\n",
	       BENCH, NR_BLOCKS, irqoff / 1000, best_scan / 1000,
	       irqoff / best_scan);
	printf("row\t%s\t%lu words pointing into no tracked block (a root)\t"
	       "%.2f\t%.2f\t%.1f\tns/word (scan vs plain read, medians)\n",
	       BENCH, NR_PLAIN_WORDS,
	       median(plain_scan, REPEATS) / NR_PLAIN_WORDS,
	       median(plain_read, REPEATS) / NR_PLAIN_WORDS,
	       median(plain_ratio, REPEATS));
	return 0;
}
