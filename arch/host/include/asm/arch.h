/*
 * The arch contract on the host (user space), for unit tests and
 * benchmarks of lib/ and mm/: "interrupts" are a flag tests can check,
 * and the CPU number is a variable tests can set to play another CPU.
 */
#ifndef ASM_ARCH_H
#define ASM_ARCH_H

#define ARCH_NAME "host"

/* 1 between arch_irq_save() and the matching arch_irq_restore(). */
extern unsigned long host_irqs_off;
/* What arch_cpu_id() returns; below CONFIG_NR_CPUS. */
extern unsigned int host_cpu_id;

static inline unsigned long arch_irq_save(void)
{
	unsigned long old = host_irqs_off;

	host_irqs_off = 1;
	return old;
}

static inline void arch_irq_restore(unsigned long flags)
{
	host_irqs_off = flags;
}

static inline void arch_irq_enable(void)
{
	host_irqs_off = 0;
}

static inline void arch_cpu_relax(void)
{
}

static inline void arch_wait_for_interrupt(void)
{
}

static inline unsigned int arch_cpu_id(void)
{
	return host_cpu_id;
}

#endif
