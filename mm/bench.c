/*
 * 'mmbench': one allocation+free pair of each kind between two marker
 * functions, so that a debugger can count the instructions in between
 * (tests/bench/qemu-mm.sh single-steps them with GDB: exact counts on a
 * machine with no timer). Every pair is warmed up first, so the count
 * is the common path: the per-CPU array hit, the buddy free list hit.
 */
#include <kernel/mm.h>
#include <kernel/slab.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/string.h>

#define WARMUP 64

/* What the next measured pair is; GDB reads these at mmbench_begin(). */
const char *mmbench_kind;
unsigned long mmbench_size;

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

/* Warms the path up, then runs one pair between the markers. */
static void measure(const char *kind, void (*pair)(unsigned long),
		    unsigned long size)
{
	for (int i = 0; i < WARMUP; i++)
		pair(size);
	mmbench_kind = kind;
	mmbench_size = size;
	mmbench_begin();
	pair(size);
	mmbench_end();
}

static int cmd_mmbench(int argc, char **argv)
{
	unsigned long before = mmbench_pairs;

	(void)argv;
	if (argc != 1) {
		printk("usage: mmbench\n");
		return 1;
	}
	bench_cache = kmem_cache_create("mmbench-64", 64, 0, 0, NULL);
	if (!bench_cache)
		return 1;
	measure("empty", empty_pair, 0);
	for (size_t size = 8; size; size = kmalloc_size_class(size + 1))
		measure("kmalloc", kmalloc_pair, size);
	measure("kmalloc", kmalloc_pair, 256 * 1024);
	measure("kmem_cache", cache_pair, 64);
	measure("pages", page_pair, 0);
	kmem_cache_destroy(bench_cache);
	bench_cache = NULL;
	printk("mmbench: %lu pairs measured (tests/bench/qemu-mm.sh counts their instructions)\n",
	       mmbench_pairs - before);
	return 0;
}
SHELL_COMMAND("mmbench", cmd_mmbench, "mmbench",
	      "run one alloc+free pair of each kind between markers for GDB");
