/*
 * Where the secondary CPUs' real-mode start code (trampoline.S) runs,
 * and the arguments smp.c leaves for it at trampoline_args.
 */
#ifndef ASM_TRAMPOLINE_H
#define ASM_TRAMPOLINE_H

/*
 * Page aligned, below 1 MiB and inside what boot keeps reserved (all of
 * RAM below the kernel), clear of the BIOS data and of the Multiboot
 * information QEMU puts at 0x9500.
 */
#define TRAMPOLINE_ADDR 0x8000
#define TRAMPOLINE_VECTOR (TRAMPOLINE_ADDR >> 12)

/* The trampoline's own GDT, the same flat segments as the kernel's. */
#define TRAMP_CS 0x08
#define TRAMP_DS 0x10

/* Offsets in trampoline_args. */
#define TRAMP_ARG_STACK 0	/* initial esp */
#define TRAMP_ARG_ENTRY 4	/* void entry(unsigned int cpu) */
#define TRAMP_ARG_CPU 8
#define TRAMP_ARG_ALIVE 12	/* set to 1 by the CPU once in 32-bit mode */
#define TRAMP_ARGS_SIZE 16

#ifndef __ASSEMBLY__
#include <kernel/types.h>

struct trampoline_args {
	u32 stack;
	u32 entry;
	u32 cpu;
	u32 alive;
};

extern const char trampoline_start[], trampoline_end[];
extern const char trampoline_args[];
#endif

#endif
