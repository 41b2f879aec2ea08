/*
 * i386 trap entry: one small stub per vector pushes a uniform
 * (vector, error code) pair, then trap_common saves the registers as a
 * struct trap_frame and calls trap_handler(), for exceptions and
 * interrupts alike (all 256 vectors have a stub). Interrupt gates keep
 * IF clear until iret, and the frame lives on the interrupted thread's
 * stack, so trap_handler() may switch threads before it returns.
 */
#define KERNEL_DS 0x10

/* Vectors for which the CPU pushes an error code itself. */
#define HAS_ERROR(n) ((n) == 8 || ((n) >= 10 && (n) <= 14) || (n) == 17 || \
		      (n) == 21 || (n) == 29 || (n) == 30)

	.text
.macro trap_stub n
	.align 8
trap_stub_\n:
	.if !HAS_ERROR(\n)
	pushl $0
	.endif
	pushl $\n
	jmp trap_common
.endm

trap_common:
	pushal
	pushl %ds
	pushl %es
	pushl %fs
	pushl %gs
	movl $KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	pushl %esp		/* struct trap_frame * */
	call trap_handler
	addl $4, %esp
	popl %gs
	popl %fs
	popl %es
	popl %ds
	popal
	addl $8, %esp		/* vector and error code */
	iret

/* Every vector gets a stub: exceptions, interrupts and spurious ones. */
.altmacro
.macro stub_for n
	trap_stub %(\n)
.endm
	.set vec, 0
.rept 256
	stub_for vec
	.set vec, vec + 1
.endr

/* The stubs' addresses, for the IDT (idt.c, irq.c). */
.macro stub_addr n
	.long trap_stub_\n
.endm
.macro addr_for n
	stub_addr %(\n)
.endm
	.section .rodata
	.align 4
	.global trap_stubs
trap_stubs:
	.set vec, 0
.rept 256
	addr_for vec
	.set vec, vec + 1
.endr

	.section .note.GNU-stack, "", @progbits
