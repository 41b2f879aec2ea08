/*
 * Per-CPU variables. DEFINE_PER_CPU() puts a variable in the per-CPU
 * section (.data.percpu, between __per_cpu_start and __per_cpu_end);
 * at boot setup_per_cpu_areas() gives every possible CPU its own copy
 * of the whole section, __per_cpu_offset[cpu] bytes away from it. The
 * variable's own name then only denotes the template: always go
 * through per_cpu(), per_cpu_ptr() or this_cpu_ptr().
 *
 *	static DEFINE_PER_CPU(unsigned long, hits);
 *	(*this_cpu_ptr(&hits))++;	(interrupts or preemption off)
 *	for_each_possible_cpu(cpu)
 *		total += per_cpu(hits, cpu);
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <kernel/compiler.h>
#include <kernel/smp.h>

#define PER_CPU_SECTION ".data.percpu"

#define DEFINE_PER_CPU(type, name) \
	__section(PER_CPU_SECTION) __typeof__(type) name
#define DECLARE_PER_CPU(type, name) \
	extern __section(PER_CPU_SECTION) __typeof__(type) name

/* The template section, from the linker script. */
extern char __per_cpu_start[], __per_cpu_end[];

/*
 * Where each CPU's copy lies relative to the template; 0 (the template
 * itself) until setup_per_cpu_areas(), so early boot on CPU 0 works.
 */
extern unsigned long __per_cpu_offset[NR_CPUS];

/* CPU cpu's copy of the per-CPU object ptr points at (in the template). */
#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(ptr))((unsigned long)(ptr) + __per_cpu_offset[(cpu)]))
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), (cpu)))
/* This CPU's copy: only stable while interrupts or preemption are off. */
#define this_cpu_ptr(ptr) per_cpu_ptr((ptr), smp_processor_id())

/*
 * Allocates one copy of the section per possible CPU (all possible CPUs
 * must be known: call after the arch enumerated them) and fills
 * __per_cpu_offset. Panics without memory: nothing works without it.
 */
void setup_per_cpu_areas(void);

/* CPU cpu's copy: [*start, *end). False for a CPU that is not possible. */
bool per_cpu_area(unsigned int cpu, const void **start, const void **end);

#endif
