/*
 * ARM exception vectors. Every exception saves the interrupted
 * registers on the SVC stack as a struct arm_frame (see <asm/arm.h>)
 * and calls arm_exception(frame, kind) in traps.c.
 */
#define MODE_SVC 0x13

#define FRAME_SP 52	/* offsetof(struct arm_frame, sp) */
#define FRAME_LR 56
#define FRAME_SIZE 68	/* r0-r12, sp, lr, pc, cpsr */

#define EXC_RESET 0
#define EXC_UNDEF 1
#define EXC_SVC 2
#define EXC_PREFETCH_ABORT 3
#define EXC_DATA_ABORT 4
#define EXC_IRQ 5
#define EXC_FIQ 6

	.text
	.arm
	.align 5
	.global arm_vectors
arm_vectors:
	b reset_entry
	b undef_entry
	b svc_entry
	b prefetch_abort_entry
	b data_abort_entry
	b .
	b irq_entry
	b fiq_entry

/*
 * lr_adjust turns the banked lr into the address of the instruction to
 * return to (ARM ARM, "Exception return"), so pc in the frame is exact.
 */
.macro exception_entry name, lr_adjust, kind
\name:
	.if \lr_adjust
	sub lr, lr, #\lr_adjust
	.endif
	srsdb sp!, #MODE_SVC		/* pc and cpsr onto the SVC stack */
	cps #MODE_SVC
	sub sp, sp, #8			/* room for sp and lr */
	push {r0-r12}
	add r0, sp, #FRAME_SIZE
	str r0, [sp, #FRAME_SP]		/* sp before the exception */
	str lr, [sp, #FRAME_LR]
	mov r0, sp
	mov r1, #\kind
	b exception_common
.endm

	exception_entry reset_entry, 0, EXC_RESET
	exception_entry undef_entry, 4, EXC_UNDEF
	exception_entry svc_entry, 0, EXC_SVC
	exception_entry prefetch_abort_entry, 4, EXC_PREFETCH_ABORT
	exception_entry data_abort_entry, 8, EXC_DATA_ABORT
	exception_entry irq_entry, 4, EXC_IRQ
	exception_entry fiq_entry, 4, EXC_FIQ

/* The C handler wants an 8-byte aligned stack (AAPCS); r4 remembers it. */
exception_common:
	mov r4, sp
	bic sp, sp, #7
	bl arm_exception
	mov sp, r4
	ldr lr, [sp, #FRAME_LR]
	pop {r0-r12}
	add sp, sp, #8
	rfeia sp!
