/*
 * ARM context switch and the first instructions of every new thread.
 * The layout of a switched-out stack is in <asm/thread.h>.
 */
	.text
	.arm

/* void arch_switch_to(struct arch_context *prev, struct arch_context *next) */
	.global arch_switch_to
	.type arch_switch_to, %function
arch_switch_to:
	push {r4-r12, lr}
	str sp, [r0]
	ldr sp, [r1]
	pop {r4-r12, lr}
	bx lr
	.size arch_switch_to, . - arch_switch_to

/*
 * A new thread's first switch returns here with fp = 0, so the frame
 * chain of every thread ends at thread_entry(), which never returns.
 */
	.global arch_thread_start
	.type arch_thread_start, %function
arch_thread_start:
	bl thread_entry
	udf #0
	.size arch_thread_start, . - arch_thread_start
