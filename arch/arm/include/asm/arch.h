/* ARM inline pieces of the arch contract (see include/kernel/arch.h). */
#ifndef ASM_ARCH_H
#define ASM_ARCH_H

#include <stdbool.h>

#define ARCH_NAME "arm"
#define ARCH_ENTRY_FILE "boot/arm/start.S"
/* A plain B: R_ARM_JUMP24, which a module may need a veneer for. */
#define ARCH_ASM_TAIL_CALL(sym) "b " sym

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

/*
 * Two CP15 registers nothing else uses here hold each CPU's identity:
 * TPIDRPRW its number, TPIDRURO (a user read-only register, and there
 * is no user mode) its running thread. One instruction each, so a
 * thread that moves to another CPU never mixes two CPUs' answers.
 */
struct thread;

static inline unsigned int arch_cpu_id(void)
{
	unsigned int cpu;

	__asm__ __volatile__("mrc p15, 0, %0, c13, c0, 4" : "=r"(cpu));
	return cpu;
}

static inline struct thread *arch_current(void)
{
	struct thread *t;

	__asm__ __volatile__("mrc p15, 0, %0, c13, c0, 3" : "=r"(t));
	return t;
}

/* The scheduler, interrupts off, right before it switches to t. */
static inline void arch_set_current(struct thread *t)
{
	__asm__ __volatile__("mcr p15, 0, %0, c13, c0, 3"
			     : : "r"(t) : "memory");
}

/* What arch_cpu_hwid() returns: the MPIDR affinity fields. */
#define ARCH_CPU_HWID "mpidr"

#endif
