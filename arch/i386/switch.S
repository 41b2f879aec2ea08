/*
 * i386 context switch and the first instructions of every new thread.
 * The layout of a switched-out stack is in <asm/thread.h>.
 */
	.text

/* void arch_switch_to(struct arch_context *prev, struct arch_context *next) */
	.global arch_switch_to
	.type arch_switch_to, @function
arch_switch_to:
	pushl %ebp
	movl %esp, %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl 8(%ebp), %eax
	movl 12(%ebp), %edx
	movl %esp, (%eax)
	movl (%edx), %esp
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret
	.size arch_switch_to, . - arch_switch_to

/*
 * A new thread's first switch returns here with ebp = 0, so the frame
 * chain of every thread ends at thread_entry(), which never returns.
 */
	.global arch_thread_start
	.type arch_thread_start, @function
arch_thread_start:
	call thread_entry
	ud2
	.size arch_thread_start, . - arch_thread_start

	.section .note.GNU-stack, "", @progbits
