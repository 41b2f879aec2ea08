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

/* The record above, for unwind_frame() and the walker of save_stack_trace(). */
#define ARCH_FRAME_LAYOUT \
	{ .saved_fp = -3, .return_address = -1, .below = 3, .above = 1 }

/* In ARM state the bl is the instruction just before its return address. */
#define ARCH_RETURN_TO_CALL 4

#endif
