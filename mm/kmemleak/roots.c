/*
 * The leak collector's roots in the kernel image: the memory that is no
 * tracked block but may hold the only pointer to one. Other subsystems
 * add theirs with MEMLEAK_ROOT() from their own files; these are the
 * collector's own, kept apart from the scan (scan.c) because
 * they name the kernel's linker symbols, CPUs and threads, which a host
 * build of the scan (arch/host) does not have: there the program
 * registers its own roots.
 */
#include <kernel/memleak.h>
#include <kernel/kallsyms.h>
#include <kernel/mm.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/task.h>
#include <kernel/thread.h>
#include "internal.h"

extern char _sdata[], __noscan_data_end[], _edata[];
extern char __bss_start[], __noscan_bss_end[], __bss_stop[];
extern char boot_stack[], boot_stack_top[];

/* The noscan parts come first in .data and .bss: linker/sections.ld. */
static void scan_data_and_bss(void)
{
	memleak_scan_range(__noscan_data_end, _edata);
	/* The boot stack lives in .bss; it is a thread stack, scanned as such. */
	memleak_scan_range(__noscan_bss_end, boot_stack);
	memleak_scan_range(boot_stack_top, __bss_stop);
}
MEMLEAK_ROOT("data and bss", scan_data_and_bss);

static void scan_page_array(void)
{
	memleak_scan_range(mem_map, mem_map + (max_pfn - min_pfn));
}
MEMLEAK_ROOT("page array", scan_page_array);

/* Every possible CPU's copy of the per-CPU section (kernel/percpu.c). */
static void scan_per_cpu_areas(void)
{
	const void *start, *end;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (per_cpu_area(cpu, &start, &end))
			memleak_scan_range(start, end);
}
MEMLEAK_ROOT("per-cpu areas", scan_per_cpu_areas);

/*
 * Stopping the world for the scan's last step: each parked CPU's stack
 * pointer, below which nothing of what it was doing lies.
 */
static struct smp_park park __memleak_noscan;

bool memleak_stop_world(void)
{
	return smp_park_others(&park);
}

void memleak_resume_world(void)
{
	smp_unpark_others(&park);
}

/*
 * A thread running on a parked CPU: task_for_each_live_stack() gives its
 * whole stack, but only what lies above the parked CPU's stack pointer
 * is live.
 */
static const void *parked_low(const void *low, const void *high)
{
	if (!memleak.confirming)
		return low;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		const void *sp = (const void *)park.sp[cpu];

		if (sp > low && sp < high)
			return sp;
	}
	return low;
}

#define MAX_STACKS 128

/* The live stack ranges, noted with the thread list locked. */
struct stack_ranges {
	unsigned int nr;
	bool overflow;
	const void *low[MAX_STACKS], *high[MAX_STACKS];
};

static void note_stack(const void *low, const void *high, void *ctx)
{
	struct stack_ranges *r = ctx;

	if (r->nr == MAX_STACKS) {
		r->overflow = true;
		return;
	}
	if ((unsigned long)low <= memleak_stack_floor &&
	    memleak_stack_floor < (unsigned long)high)
		low = (const void *)memleak_stack_floor;
	else
		low = parked_low(low, high);
	r->low[r->nr] = low;
	r->high[r->nr++] = high;
}

/*
 * The ranges are noted first and scanned afterwards, chunk by chunk, so
 * that interrupts are never off for more than a chunk. A thread may
 * exit in between: its freed stack is still mapped, so this reads stale
 * words at worst (a possible false negative, never a fault). With the
 * world stopped to confirm the white blocks, the stacks are always
 * read: they hold the registers of every thread that is not running,
 * and of every parked CPU, where a pointer in transit lives.
 */
static void scan_thread_stacks(void)
{
	static struct stack_ranges ranges __memleak_noscan;

	if (!memleak.stack_scan && !memleak.confirming &&
	    !memleak_walking_roots)
		return;
	ranges.nr = 0;
	ranges.overflow = false;
	task_for_each_live_stack(note_stack, &ranges);
	if (ranges.overflow)
		printk("memleak: more than %d threads, some stacks not scanned\n",
		       MAX_STACKS);
	/* Whole in the pause: the live parts move, and stack=off skips them. */
	for (unsigned int i = 0; i < ranges.nr; i++)
		memleak_scan_range_whole(ranges.low[i], ranges.high[i]);
}
MEMLEAK_ROOT("thread stacks", scan_thread_stacks);

/* ------------------------------------------------------------------ */
/* Naming a root location, for 'memleak refs' and 'why' (explain.c)   */

/* "sym+0x1c" for a data address, or the address itself. */
static void data_symbol(unsigned long addr, char *buf, size_t size)
{
	unsigned long off;
	const char *name = kallsyms_lookup_data(addr, NULL, &off);

	if (name)
		snprintf(buf, size, "%s+0x%lx", name, off);
	else
		snprintf(buf, size, "0x%08lx", addr);
}

/* The thread whose stack holds addr, as the report names threads. */
static bool stack_owner(unsigned long addr, char *buf, size_t size)
{
	unsigned long flags = thread_list_lock();
	struct thread *t;
	bool found = false;

	for_each_thread(t) {
		unsigned long low = (unsigned long)t->stack;

		if (t->stack && addr >= low && addr - low < t->stack_size) {
			snprintf(buf, size, "stack of \"%s\" (pid %d): 0x%08lx",
				 t->name, t->pid, addr);
			found = true;
			break;
		}
	}
	thread_list_unlock(flags);
	return found;
}

/* The CPU whose copy of the per-CPU section holds addr, and where. */
static bool per_cpu_location(unsigned long addr, char *buf, size_t size)
{
	const void *start, *end;
	unsigned int cpu;
	char sym[KSYM_NAME_MAX + 16];

	for_each_possible_cpu(cpu) {
		if (!per_cpu_area(cpu, &start, &end) ||
		    addr < (unsigned long)start || addr >= (unsigned long)end)
			continue;
		data_symbol(addr - (unsigned long)start +
			    (unsigned long)__per_cpu_start, sym, sizeof(sym));
		snprintf(buf, size, "per-cpu %u: %s", cpu, sym);
		return true;
	}
	return false;
}

void memleak_describe_root(unsigned long addr, const char *root, char *buf,
			   size_t size)
{
	char sym[KSYM_NAME_MAX + 16];
	const char *region = root;

	if (per_cpu_location(addr, buf, size) || stack_owner(addr, buf, size))
		return;
	if (addr >= (unsigned long)_sdata && addr < (unsigned long)_edata)
		region = ".data";
	else if (addr >= (unsigned long)__bss_start &&
		 addr < (unsigned long)__bss_stop)
		region = ".bss";
	else if (addr >= (unsigned long)mem_map &&
		 addr < (unsigned long)(mem_map + (max_pfn - min_pfn))) {
		unsigned long i = (addr - (unsigned long)mem_map) /
				  sizeof(struct page);

		snprintf(buf, size, "page array: pfn 0x%lx+0x%lx", min_pfn + i,
			 addr - (unsigned long)&mem_map[i]);
		return;
	}
	data_symbol(addr, sym, sizeof(sym));
	snprintf(buf, size, "%s: %s", region, sym);
}
