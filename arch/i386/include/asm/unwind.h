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

#include <kernel/stacktrace.h>

/* The record above, for unwind_frame() and the walker of save_stack_trace(). */
#define ARCH_FRAME_LAYOUT \
	{ .saved_fp = 0, .return_address = 1, .below = 0, .above = 2 }

/* One step up the chain; see unwind_frame(). */
static inline bool arch_prev_frame(struct stack_frame *frame,
				   unsigned long low, unsigned long high)
{
	static const struct frame_layout layout = ARCH_FRAME_LAYOUT;

	return unwind_frame(&layout, frame, low, high);
}

/*
 * The address that names the call site of frame->pc, a return address:
 * one byte back lies inside the call instruction. The return address
 * itself may already be in the next function when the call was the
 * last instruction of its function (a call to a noreturn function).
 */
static inline unsigned long arch_call_address(const struct stack_frame *frame)
{
	return frame->pc - 1;
}

#endif
