/*
 * i386 frame records, for the generic walker of <kernel/stacktrace.h>.
 * Every function starts with "push %ebp; mov %esp, %ebp" (the kernel is
 * built with -fno-omit-frame-pointer), so %ebp points at the saved %ebp
 * of the caller, with the return address just above it:
 *
 *	higher addresses
 *	| caller's frame ...     |
 *	| return address         |  ebp + 4   (fp[1])
 *	| caller's ebp           |  <- ebp    (fp[0])
 *	| locals, saved regs     |
 *	lower addresses (esp)
 *
 * The entry code sets %ebp to 0, which ends every chain.
 */
#ifndef ASM_UNWIND_H
#define ASM_UNWIND_H

/* The record above, for unwind_frame() and the walker of save_stack_trace(). */
#define ARCH_FRAME_LAYOUT \
	{ .saved_fp = 0, .return_address = 1, .below = 0, .above = 2 }

/* One byte back from a return address lies inside its call instruction. */
#define ARCH_RETURN_TO_CALL 1

#endif
