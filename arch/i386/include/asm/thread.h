/*
 * i386 thread context: switch.S pushes the callee-saved registers and
 * the frame pointer on the old thread's stack and keeps only its stack
 * pointer here. A switched-out stack holds, from sp up:
 *
 *   edi, esi, ebx, ebp (the caller's frame pointer), return address
 */
#ifndef ASM_THREAD_H
#define ASM_THREAD_H

struct arch_context {
	unsigned long sp;
};

#define SWITCH_FRAME_WORDS 5
#define SWITCH_FRAME_FP 3	/* word index of the saved ebp */
#define SWITCH_FRAME_PC 4	/* of the return address */

/* The stack alignment the ABI wants at a call. */
#define STACK_ALIGN 16

#endif
