/*
 * Frame records on the host (x86-64 and AArch64 alike, when built with
 * frame pointers): the frame pointer points at the caller's saved frame
 * pointer, with the return address in the next word. Only the layout is
 * used on the host: save_stack_chain() there keeps no chain to re-check
 * (arch/host/stacktrace.c).
 */
#ifndef ASM_UNWIND_H
#define ASM_UNWIND_H

#define ARCH_FRAME_LAYOUT \
	{ .saved_fp = 0, .return_address = 1, .below = 0, .above = 2 }

/* A return address names its call instruction one byte back. */
#define ARCH_RETURN_TO_CALL 1

#endif
