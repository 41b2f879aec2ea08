/*
 * The 'mmbench' debug command (CONFIG_DEBUG_MMBENCH): one allocation +
 * free pair of each kind between two marker functions, so that a
 * debugger can count the instructions in between (tests/bench/qemu-mm.sh
 * single-steps them with GDB: exact counts on a machine with no timer).
 * Every pair is warmed up first, so the count is the common path: the
 * per-CPU array hit, the buddy free list hit (and, with the leak
 * collector, the allocation context of the pair before, except for
 * 'kmalloc-newctx').
 *
 * 'mmbench scan N [SIZE]' (with the leak collector): one scan with N
 * more tracked blocks of SIZE bytes (64 by default), timed in cycle
 * stamps (<kernel/cycles.h>), which tests/bench/memleak-scan-qemu.sh
 * turns into instructions under QEMU's -icount.
 *
 * Public interfaces only (the collector's through <kernel/memleak.h>).
 * The shell runs one command at a time, so the state here needs no lock.
 */
#include <kernel/cycles.h>
#include <kernel/memleak.h>
#include <kernel/mm.h>
#include <kernel/slab.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/string.h>

#define WARMUP 64

/*
 * What the next measured pair is (no kind: a warm-up pair), and how many
 * pairs run between the markers; GDB reads these at mmbench_begin().
 */
const char *mmbench_kind;
unsigned long mmbench_size;
unsigned long mmbench_count = 1;

/*
 * The markers. Not inline and with a side effect the compiler must keep,
 * so a breakpoint on each sees every measured pair.
 */
static volatile unsigned long mmbench_pairs;

__noinline void mmbench_begin(void)
{
	barrier();
}

__noinline void mmbench_end(void)
{
	if (mmbench_kind)
		mmbench_pairs++;
}

static void empty_pair(unsigned long size)
{
	(void)size;
}

static void kmalloc_pair(unsigned long size)
{
	kfree(kmalloc(size, GFP_KERNEL));
}

static struct kmem_cache *bench_cache;

static void cache_pair(unsigned long size)
{
	(void)size;
	kmem_cache_free(bench_cache, kmem_cache_alloc(bench_cache, GFP_KERNEL));
}

static void page_pair(unsigned long order)
{
	__free_pages(alloc_pages(GFP_KERNEL, order), order);
}

static void start_measuring(const char *kind, unsigned long size)
{
	mmbench_kind = kind;
	mmbench_size = size;
	mmbench_begin();
}

/*
 * Warms the path up with pairs from the same call instructions as the
 * measured one, the last: the steady state of a pair in a loop. Every
 * pair runs between the markers (there is no branch for the compiler to
 * duplicate the call into); GDB skips those with no kind set. Not
 * inlined nor cloned, so that pair stays one indirect call.
 */
static __attribute__((noipa)) void measure(const char *kind,
					   void (*pair)(unsigned long),
					   unsigned long size)
{
	int last = WARMUP;

	/* Hidden from the optimiser, which would peel the last round off. */
	__asm__ volatile("" : "+r"(last));
	for (int i = 0; i <= last; i++) {
		mmbench_kind = i == last ? kind : NULL;
		mmbench_size = size;
		mmbench_begin();
		pair(size);
		mmbench_end();
	}
}

/* The same pair as kmalloc_pair(), from another call chain. */
static __noinline void kmalloc_pair_elsewhere(unsigned long size)
{
	kfree(kmalloc(size, GFP_KERNEL));
	barrier();
}

/*
 * Blocks that live long enough to get their metadata and their place in
 * the tree: with the leak collector, BATCH allocations, its logs of
 * recent allocations flushed (what a scan or a full log does), then the
 * frees. Counted per pair, the flush included.
 */
#define BATCH 16

static void measure_long_lived(unsigned long size)
{
	void *p[BATCH];

	for (int round = 0; round < 4; round++) {
		if (round == 3) {
			mmbench_count = BATCH;
			start_measuring("kmalloc-long", size);
		}
		for (int i = 0; i < BATCH; i++)
			p[i] = kmalloc(size, GFP_KERNEL);
		memleak_flush_pending();
		for (int i = 0; i < BATCH; i++)
			kfree(p[i]);
	}
	mmbench_end();
	mmbench_kind = NULL;
	mmbench_count = 1;
}

/*
 * A warm pair whose call chain differs from the allocation before it:
 * the leak collector cannot reuse the last allocation context (see
 * docs/memleak.md), so this is its cost for a new call site or thread.
 */
static void measure_new_context(unsigned long size)
{
	for (int i = 0; i < WARMUP; i++) {
		kmalloc_pair(size);
		kmalloc_pair_elsewhere(size);
	}
	kmalloc_pair(size);
	start_measuring("kmalloc-newctx", size);
	kmalloc_pair_elsewhere(size);
	mmbench_end();
	mmbench_kind = NULL;
}

#define SCAN_BLOCK_SIZE 64
#define SCAN_MAX_BLOCKS 1000000
#define SCAN_MAX_SIZE 65536

/* The blocks of 'mmbench scan', chained through their first word. */
static unsigned long *scan_chain;

static void free_chain(void)
{
	while (scan_chain) {
		unsigned long *next = (unsigned long *)scan_chain[0];

		kfree(scan_chain);
		scan_chain = next;
	}
}

/*
 * n blocks of size bytes, all reachable from scan_chain (in .bss, a
 * root); their other words hold small numbers, never block addresses.
 */
static bool build_chain(unsigned long n, unsigned long size)
{
	for (unsigned long i = 0; i < n; i++) {
		unsigned long *b = kmalloc(size, GFP_KERNEL);

		if (!b)
			return false;
		for (unsigned int j = 1; j < size / sizeof(long); j++)
			b[j] = i + j;
		b[0] = (unsigned long)scan_chain;
		scan_chain = b;
	}
	return true;
}

#define SCAN_MAX_LEAKS 40000

/*
 * Blocks leaked on purpose for the pause of 'mmbench scan N SIZE LEAKS':
 * their addresses kept where the collector does not look.
 */
static unsigned long scan_leaks[SCAN_MAX_LEAKS] __memleak_noscan;
static unsigned long nr_scan_leaks;

static bool leak_blocks(unsigned long n)
{
	for (nr_scan_leaks = 0; nr_scan_leaks < n; nr_scan_leaks++) {
		void *p = kmalloc(SCAN_BLOCK_SIZE, GFP_KERNEL);

		if (!p)
			return false;
		scan_leaks[nr_scan_leaks] = (unsigned long)p;
	}
	return true;
}

static void free_leaks(void)
{
	while (nr_scan_leaks)
		kfree((void *)scan_leaks[--nr_scan_leaks]);
}

/*
 * One line for the bench script: the scan's size and cost in cycles,
 * and the pause with the world stopped that confirms the leaks (none
 * without leaks).
 */
static int bench_scan(const char *count, const char *bytes, const char *leaks)
{
	unsigned long n, size = SCAN_BLOCK_SIZE, nleaks = 0;
	struct memleak_scan_stats st = { 0 };
	int err;

	if (leaks && (kstrtoul(leaks, 10, &nleaks) || nleaks > SCAN_MAX_LEAKS)) {
		printk("mmbench scan: '%s' is not a leak count up to %d\n",
		       leaks, SCAN_MAX_LEAKS);
		return 1;
	}

	if (kstrtoul(count, 10, &n) || n > SCAN_MAX_BLOCKS) {
		printk("mmbench scan: '%s' is not a block count up to %d\n",
		       count, SCAN_MAX_BLOCKS);
		return 1;
	}
	if (bytes && (kstrtoul(bytes, 10, &size) || size < sizeof(long) ||
		      size > SCAN_MAX_SIZE || size % sizeof(long))) {
		printk("mmbench scan: '%s' is not a whole number of words up to %d "
		       "bytes\n", bytes, SCAN_MAX_SIZE);
		return 1;
	}
	if (!build_chain(n, size) || !leak_blocks(nleaks)) {
		printk("mmbench scan: out of memory for %lu blocks\n", n);
		free_chain();
		free_leaks();
		return 1;
	}
	err = memleak_scan_measured(&st);
	if (!err)
		printk("mmbench scan: added %lu size %lu tracked %lu bytes %lu "
		       "cycles %llu irqoff %llu hz %llu suspects %lu leaks %lu "
		       "pause %llu pausebytes %lu\n", n, size, st.blocks,
		       st.bytes_scanned, (unsigned long long)st.cycles,
		       (unsigned long long)st.irqoff_cycles,
		       (unsigned long long)arch_cycles_hz(), st.suspects,
		       nleaks, (unsigned long long)st.pause_cycles,
		       st.pause_bytes);
	else if (err == -ENODEV)
		printk("mmbench scan: the leak collector is not configured in\n");
	else
		printk("mmbench scan: the collector is busy or disabled\n");
	/*
	 * With 'memleak age=0' the leaks are reported at once: freed on
	 * purpose, they are no orphans to tell of one by one.
	 */
	if (st.suspects)
		memleak_clear_reports();
	free_chain();
	free_leaks();
	return err ? 1 : 0;
}

static int cmd_mmbench(int argc, char **argv)
{
	unsigned long before = mmbench_pairs;

	if (argc >= 3 && argc <= 5 && strcmp(argv[1], "scan") == 0)
		return bench_scan(argv[2], argc >= 4 ? argv[3] : NULL,
				  argc == 5 ? argv[4] : NULL);
	if (argc != 1) {
		printk("usage: mmbench [scan N [SIZE [LEAKS]]]\n");
		return 1;
	}
	bench_cache = kmem_cache_create("mmbench-64", 64, 0, 0, NULL);
	if (!bench_cache)
		return 1;
	measure("empty", empty_pair, 0);
	for (size_t size = 8; size; size = kmalloc_size_class(size + 1))
		measure("kmalloc", kmalloc_pair, size);
	measure("kmalloc", kmalloc_pair, 256 * 1024);
	measure_new_context(64);
	measure_long_lived(64);
	measure("kmem_cache", cache_pair, 64);
	measure("pages", page_pair, 0);
	kmem_cache_destroy(bench_cache);
	bench_cache = NULL;
	printk("mmbench: %lu pairs measured (tests/bench/qemu-mm.sh counts their instructions)\n",
	       mmbench_pairs - before);
	return 0;
}
SHELL_COMMAND("mmbench", cmd_mmbench, "mmbench [scan N [SIZE [LEAKS]]]",
	      "run one alloc+free pair of each kind between markers for GDB, "
	      "or time a leak scan with N more blocks of SIZE bytes (and LEAKS "
	      "leaked ones, for the pause that confirms them)");
