/* ARM inline pieces of the arch contract (see include/kernel/arch.h). */
#ifndef ASM_ARCH_H
#define ASM_ARCH_H

#include <stdbool.h>

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

static inline void arch_irq_disable(void)
{
	__asm__ __volatile__("cpsid i" : : : "memory");
}

static inline bool arch_irqs_disabled(void)
{
	unsigned long flags;

	__asm__ __volatile__("mrs %0, cpsr" : "=r"(flags) : : "memory");
	return flags & PSR_I_BIT;
}

static inline void arch_cpu_relax(void)
{
	__asm__ __volatile__("yield" : : : "memory");
}

static inline void arch_wait_for_interrupt(void)
{
	__asm__ __volatile__("dsb\n\twfi" : : : "memory");
}

/*
 * Called with interrupts off: sleeps until one is pending (wfi wakes on
 * a pending interrupt even while it is masked), then turns interrupts
 * on so it is taken. A wake-up checked just before cannot be missed.
 * Returns with interrupts on.
 */
static inline void arch_safe_halt(void)
{
	__asm__ __volatile__("dsb\n\twfi\n\tcpsie i" : : : "memory");
}

/* Until the other CPUs are started (kernel core work) everything is CPU 0. */
static inline unsigned int arch_cpu_id(void)
{
	return 0;
}

#endif
