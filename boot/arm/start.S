/*
 * ARM entry point (QEMU virt, SVC mode, MMU off). QEMU leaves sp at 0,
 * so a stack comes first; r2 may hold the device tree address.
 */
#define BOOT_STACK_SIZE 16384

	.section .text.boot, "ax"
	.arm
	.global _start
	.type _start, %function
_start:
	cpsid if
	mov r4, r2			/* keep the DTB pointer, if any */
	/* Clear .bss ourselves rather than trust every loader to. */
	ldr r0, =__bss_start
	ldr r1, =__bss_stop
	mov r2, #0
1:	cmp r0, r1
	strlo r2, [r0], #4
	blo 1b
	ldr sp, =boot_stack_top
	/* A zero frame pointer ends every backtrace here. */
	mov fp, #0
	ldr r0, =arm_vectors
	mcr p15, 0, r0, c12, c0, 0	/* VBAR */
	isb
	mov r0, r4
	bl arch_start
2:	wfi
	b 2b
	.size _start, . - _start

	.section .bss
	.align 4
	.global boot_stack
boot_stack:
	.skip BOOT_STACK_SIZE
	.global boot_stack_top
boot_stack_top:
