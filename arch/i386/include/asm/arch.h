/* i386 inline pieces of the arch contract (see include/kernel/arch.h). */
#ifndef ASM_ARCH_H
#define ASM_ARCH_H

#include <stdbool.h>

#define ARCH_NAME "i386"

#define EFLAGS_IF (1u << 9)

static inline unsigned long arch_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfl; popl %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

static inline void arch_irq_restore(unsigned long flags)
{
	if (flags & EFLAGS_IF)
		__asm__ __volatile__("sti" : : : "memory");
}

static inline void arch_irq_enable(void)
{
	__asm__ __volatile__("sti" : : : "memory");
}

static inline void arch_irq_disable(void)
{
	__asm__ __volatile__("cli" : : : "memory");
}

static inline bool arch_irqs_disabled(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfl; popl %0" : "=r"(flags) : : "memory");
	return !(flags & EFLAGS_IF);
}

static inline void arch_cpu_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

static inline void arch_wait_for_interrupt(void)
{
	__asm__ __volatile__("hlt" : : : "memory");
}

/*
 * Called with interrupts off: turns them on and sleeps until one comes,
 * with no window between the two (sti holds interrupts off for one more
 * instruction), so a wake-up checked just before cannot be missed.
 * Returns with interrupts on.
 */
static inline void arch_safe_halt(void)
{
	__asm__ __volatile__("sti; hlt" : : : "memory");
}

/* Until the other CPUs are started (kernel core work) everything is CPU 0. */
static inline unsigned int arch_cpu_id(void)
{
	return 0;
}

#endif
