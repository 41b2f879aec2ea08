/* i386 inline pieces of the arch contract (see include/kernel/arch.h). */
#ifndef ASM_ARCH_H
#define ASM_ARCH_H

#include <stdbool.h>
#include <kernel/compiler.h>

#define ARCH_NAME "i386"
#define ARCH_ENTRY_FILE "boot/i386/multiboot.S"
/* Through the PLT notation, so a module gets R_386_PLT32 for it. */
#define ARCH_ASM_TAIL_CALL(sym) "jmp " sym "@PLT"

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

/*
 * Each CPU's %fs is a data segment of its own GDT (gdt.c) based at its
 * struct cpu_local: the CPU number at %fs:0, the running thread at
 * %fs:4. One instruction each, so a thread that moves to another CPU
 * never reads half of one CPU and half of another.
 */
#define CPU_LOCAL_CPU 0
#define CPU_LOCAL_CURRENT 4

struct thread;

static inline unsigned int arch_cpu_id(void)
{
	unsigned int cpu;

	__asm__ __volatile__("movl %%fs:" __stringify(CPU_LOCAL_CPU) ", %0"
			     : "=r"(cpu));
	return cpu;
}

static inline struct thread *arch_current(void)
{
	struct thread *t;

	__asm__ __volatile__("movl %%fs:" __stringify(CPU_LOCAL_CURRENT) ", %0"
			     : "=r"(t));
	return t;
}

/* The scheduler, interrupts off, right before it switches to t. */
static inline void arch_set_current(struct thread *t)
{
	__asm__ __volatile__("movl %0, %%fs:" __stringify(CPU_LOCAL_CURRENT)
			     : : "r"(t) : "memory");
}

/* What arch_cpu_hwid() returns: the local APIC ID. */
#define ARCH_CPU_HWID "apic"

#endif
