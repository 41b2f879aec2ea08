/* Declarations shared between the i386 arch files only. */
#ifndef ASM_I386_H
#define ASM_I386_H

#include <kernel/types.h>

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10

/* The registers as the trap entry code saves them (see entry.S). */
struct trap_frame {
	u32 gs, fs, es, ds;
	u32 edi, esi, ebp, esp_dummy, ebx, edx, ecx, eax;	/* pusha */
	u32 vector, error;
	u32 eip, cs, eflags;
	/* esp and ss follow only for traps from a lower privilege level. */
};

void uart_init(void);
void gdt_init(void);
void idt_init(void);
void multiboot_parse(u32 magic, u32 info_addr);
void trap_handler(struct trap_frame *frame);
/* Interrupt vectors (32-255) of trap_handler(): see irq.c. */
void i386_interrupt(struct trap_frame *frame);
/* Registers the TSC as the clock once pit_calibrate() measured it. */
void tsc_clock_init(void);

#endif
