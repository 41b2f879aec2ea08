/* ARM inline pieces of the arch contract (see include/kernel/arch.h). */
#ifndef ASM_ARCH_H
#define ASM_ARCH_H

#define ARCH_NAME "arm"

#define PSR_I_BIT (1u << 7)

static inline unsigned long arch_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("mrs %0, cpsr\n\tcpsid i" : "=r"(flags) : : "memory");
	return flags;
}

static inline void arch_irq_restore(unsigned long flags)
{
	if (!(flags & PSR_I_BIT))
		__asm__ __volatile__("cpsie i" : : : "memory");
}

static inline void arch_irq_enable(void)
{
	__asm__ __volatile__("cpsie i" : : : "memory");
}

static inline void arch_cpu_relax(void)
{
	__asm__ __volatile__("yield" : : : "memory");
}

static inline void arch_wait_for_interrupt(void)
{
	__asm__ __volatile__("dsb\n\twfi" : : : "memory");
}

/* Until the other CPUs are started (kernel core work) everything is CPU 0. */
static inline unsigned int arch_cpu_id(void)
{
	return 0;
}

#endif
