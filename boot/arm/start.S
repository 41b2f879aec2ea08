/*
 * ARM entry points (QEMU virt, SVC mode, MMU off): _start for the boot
 * CPU and secondary_entry for the others (PSCI CPU_ON). QEMU leaves sp
 * at 0, so a stack comes first; r2 may hold the device tree address.
 */
#define BOOT_STACK_SIZE 16384

	.section .text.boot, "ax"
	.arm
	.global _start
	.type _start, %function
_start:
	cpsid if
	mov r4, r2			/* keep the DTB pointer, if any */
	/* This is CPU 0, running the boot thread (<asm/arch.h>). */
	mov r0, #0
	mcr p15, 0, r0, c13, c0, 4	/* TPIDRPRW: CPU number */
	ldr r0, =boot_thread
	mcr p15, 0, r0, c13, c0, 3	/* TPIDRURO: current thread */
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

/*
 * A secondary CPU, with r0 = its CPU number (the PSCI context ID). Its
 * stack pointer and first thread (its idle thread) wait in the arrays
 * of arch/arm/smp.c, cleaned to memory: the caches are still off here.
 */
	.global secondary_entry
	.type secondary_entry, %function
secondary_entry:
	cpsid if
	mcr p15, 0, r0, c13, c0, 4	/* TPIDRPRW: CPU number */
	ldr r1, =secondary_thread
	ldr r2, [r1, r0, lsl #2]
	mcr p15, 0, r2, c13, c0, 3	/* TPIDRURO: current thread */
	ldr r1, =secondary_sp
	ldr sp, [r1, r0, lsl #2]
	mov fp, #0
	ldr r1, =arm_vectors
	mcr p15, 0, r1, c12, c0, 0	/* VBAR */
	isb
	bl arm_secondary_start
3:	wfi
	b 3b
	.size secondary_entry, . - secondary_entry

	.section .bss
	.align 4
	.global boot_stack
boot_stack:
	.skip BOOT_STACK_SIZE
	.global boot_stack_top
boot_stack_top:
