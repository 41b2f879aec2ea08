/*
 * ARM thread context: switch.S pushes r4-r12 and lr on the old thread's
 * stack and keeps only its stack pointer here. A switched-out stack
 * holds, from sp up:
 *
 *   r4 r5 r6 r7 r8 r9 r10 r11 (fp) r12 lr (return address)
 */
#ifndef ASM_THREAD_H
#define ASM_THREAD_H

struct arch_context {
	unsigned long sp;
};

#define SWITCH_FRAME_WORDS 10
#define SWITCH_FRAME_FP 7	/* word index of the saved r11 */
#define SWITCH_FRAME_PC 9	/* of the saved lr */

/* AAPCS: 8-byte aligned stack at public interfaces. */
#define STACK_ALIGN 8

#endif
