/*
 * ARM frame records, for the generic walker of <kernel/stacktrace.h>.
 * The kernel is built with -mapcs-frame: every function, leaf or not,
 * starts with "mov ip, sp; push {fp, ip, lr, pc}; sub fp, ip, #4"
 * (other saved registers go below fp in the same push), so fp points at
 * the saved pc, four words of record below it:
 *
 *	higher addresses
 *	| caller's frame ...     |
 *	| saved pc (the push)    |  <- fp     (fp[0])
 *	| lr: return address     |  fp - 4    (fp[-1])
 *	| ip: caller's sp        |  fp - 8    (fp[-2])
 *	| caller's fp            |  fp - 12   (fp[-3])
 *	| r4.., locals           |
 *	lower addresses (sp)
 *
 * _start sets fp to 0, which ends every chain. Why -mapcs-frame and not
 * gcc's default {fp, lr} record: docs/backtraces.md.
 */
#ifndef ASM_UNWIND_H
#define ASM_UNWIND_H

#include <kernel/stacktrace.h>

/* The record above, for unwind_frame() and the walker of save_stack_trace(). */
#define ARCH_FRAME_LAYOUT \
	{ .saved_fp = -3, .return_address = -1, .below = 3, .above = 1 }

/* One step up the chain; see unwind_frame(). */
static inline bool arch_prev_frame(struct stack_frame *frame,
				   unsigned long low, unsigned long high)
{
	static const struct frame_layout layout = ARCH_FRAME_LAYOUT;

	return unwind_frame(&layout, frame, low, high);
}

/*
 * The address that names the call site of frame->pc, a return address:
 * in ARM state the bl is the instruction just before it, 4 bytes back.
 * The return address itself may already be in the next function when
 * the bl was the last instruction of its function (a noreturn call).
 */
static inline unsigned long arch_call_address(const struct stack_frame *frame)
{
	return frame->pc - 4;
}

#endif
