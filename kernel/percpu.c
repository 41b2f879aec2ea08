/*
 * Per-CPU areas: one copy of the .data.percpu section for every
 * possible CPU, in a single page allocation made once at boot and never
 * freed. The leak collector scans every copy (its "per-cpu areas" root).
 */
#include <kernel/percpu.h>
#include <kernel/init.h>
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/string.h>

/* Copies start on their own cache line, so CPUs never share one. */
#define PER_CPU_ALIGN 64

unsigned long __per_cpu_offset[NR_CPUS];

static bool areas_ready;

static size_t section_size(void)
{
	return __per_cpu_end - __per_cpu_start;
}

void __init setup_per_cpu_areas(void)
{
	size_t size = section_size(), unit = ALIGN(size, PER_CPU_ALIGN);
	unsigned int cpu, nr = 0;
	struct page *page;
	char *base;

	if (areas_ready)
		return;
	for_each_possible_cpu(cpu)
		nr = cpu + 1;
	if (size == 0) {
		/* Nothing to copy: every CPU may share the empty template. */
		areas_ready = true;
		return;
	}
	page = alloc_pages(GFP_KERNEL, get_order(unit * nr));
	if (!page)
		panic("no memory for %u per-CPU areas of %zu bytes", nr, unit);
	base = page_address(page);
	/*
	 * Whatever CPU 0 stored in the template so far goes into every
	 * copy: nothing runs on the other CPUs yet, and no per-CPU variable
	 * is used before this point (interrupts are still off).
	 */
	for_each_possible_cpu(cpu) {
		char *copy = base + cpu * unit;

		memcpy(copy, __per_cpu_start, size);
		__per_cpu_offset[cpu] = (unsigned long)copy -
					(unsigned long)__per_cpu_start;
	}
	WRITE_ONCE(areas_ready, true);
	printk("percpu: %u area%s of %zu bytes at %p\n", nr, nr > 1 ? "s" : "",
	       size, base);
}

bool per_cpu_area(unsigned int cpu, const void **start, const void **end)
{
	if (!cpu_possible(cpu))
		return false;
	*start = per_cpu_ptr(&__per_cpu_start[0], cpu);
	*end = per_cpu_ptr(&__per_cpu_end[0], cpu);
	return true;
}
