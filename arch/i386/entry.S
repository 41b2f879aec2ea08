/*
 * i386 trap entry: one small stub per vector pushes a uniform
 * (vector, error code) pair, then trap_common saves the registers as a
 * struct trap_frame and calls trap_handler().
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

.altmacro
.macro all_stubs from, to
	trap_stub \from
	.if \to - \from
	all_stubs %(\from + 1), \to
	.endif
.endm
	all_stubs 0, 47

/* The stubs' addresses, for idt_init(). */
.macro stub_addr n
	.long trap_stub_\n
.endm
.macro all_addrs from, to
	stub_addr \from
	.if \to - \from
	all_addrs %(\from + 1), \to
	.endif
.endm
	.section .rodata
	.align 4
	.global trap_stubs
trap_stubs:
	all_addrs 0, 47

	.section .note.GNU-stack, "", @progbits
