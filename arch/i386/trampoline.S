/*
 * The real-mode start of a secondary CPU. A STARTUP IPI starts the CPU
 * at segment (vector << 8):0 in real mode, below 1 MiB, so smp.c copies
 * this code to TRAMPOLINE_ADDR first: it loads a small flat GDT, enters
 * 32-bit protected mode (paging still off: the kernel is identity-
 * mapped), takes the stack and entry point left in trampoline_args and
 * calls entry(cpu) in C. Every address here is computed relative to
 * trampoline_start, as the code does not run where it was linked.
 */
#include <asm/trampoline.h>

#define TRAMP(sym) (TRAMPOLINE_ADDR + (sym) - trampoline_start)

	.section .rodata
	.align 16
	.global trampoline_start
trampoline_start:
	.code16
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	/* ds-relative: the GDT pointer lies inside this code. */
	lgdtl tramp_gdt_ptr - trampoline_start
	movl %cr0, %eax
	orl $1, %eax			/* PE */
	movl %eax, %cr0
	ljmpl $TRAMP_CS, $TRAMP(tramp_32)

	.code32
tramp_32:
	movw $TRAMP_DS, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %fs
	movw %ax, %gs
	movw %ax, %ss
	movl $1, TRAMP(trampoline_args) + TRAMP_ARG_ALIVE
	movl TRAMP(trampoline_args) + TRAMP_ARG_STACK, %esp
	/* A zero frame pointer ends the new CPU's backtraces here. */
	xorl %ebp, %ebp
	subl $12, %esp			/* 16-byte aligned at the call */
	pushl TRAMP(trampoline_args) + TRAMP_ARG_CPU
	call *TRAMP(trampoline_args) + TRAMP_ARG_ENTRY
1:	cli
	hlt
	jmp 1b

	.align 8
tramp_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff	/* TRAMP_CS: flat ring 0 code */
	.quad 0x00cf92000000ffff	/* TRAMP_DS: flat ring 0 data */
tramp_gdt_ptr:
	.word tramp_gdt_ptr - tramp_gdt - 1
	.long TRAMP(tramp_gdt)

	.align 4
	.global trampoline_args
trampoline_args:
	.skip TRAMP_ARGS_SIZE
	.global trampoline_end
trampoline_end:

	.section .note.GNU-stack, "", @progbits
