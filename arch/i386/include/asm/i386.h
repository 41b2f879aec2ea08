/* Declarations shared between the i386 arch files only. */
#ifndef ASM_I386_H
#define ASM_I386_H

#include <kernel/types.h>

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define KERNEL_PERCPU 0x18	/* %fs: this CPU's struct cpu_local (gdt.c) */

/* The registers as the trap entry code saves them (see entry.S). */
struct trap_frame {
	u32 gs, fs, es, ds;
	u32 edi, esi, ebp, esp_dummy, ebx, edx, ecx, eax;	/* pusha */
	u32 vector, error;
	u32 eip, cs, eflags;
	/* esp and ss follow only for traps from a lower privilege level. */
};

struct thread;

void uart_init(void);
/*
 * Fills CPU cpu's GDT and struct cpu_local (first: the thread it starts
 * as), on the boot CPU before starting it; gdt_init() then loads them on
 * CPU cpu itself (CPU 0's are prepared there).
 */
void gdt_prepare_cpu(unsigned int cpu, struct thread *first);
void gdt_init(unsigned int cpu);
/* Builds the IDT (boot CPU) and loads it; idt_load() on the others. */
void idt_init(void);
void idt_load(void);
void multiboot_parse(u32 magic, u32 info_addr);
void trap_handler(struct trap_frame *frame);
/* Interrupt vectors (32-255) of trap_handler(): see irq.c. */
void i386_interrupt(struct trap_frame *frame);
/* trap_handler(): vector 2, a stop request from smp.c or stray. */
void i386_nmi(void);
/* Registers the TSC as the clock once pit_calibrate() measured it. */
void tsc_clock_init(void);

#endif
