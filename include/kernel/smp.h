/* CPU numbering: how many CPUs there may be and which one we run on. */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <kernel/arch.h>

#define NR_CPUS CONFIG_NR_CPUS

/*
 * The number of the CPU running this code, 0..NR_CPUS-1. Stable only
 * while preemption or interrupts are off. Comes from the arch
 * (<asm/arch.h>: arch_cpu_id()).
 */
static inline unsigned int smp_processor_id(void)
{
	return arch_cpu_id();
}

#endif
