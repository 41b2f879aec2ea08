/* Multiboot v1 header and the i386 entry point: a stack, then arch_start(). */

#define MB_HEADER_MAGIC 0x1badb002
#define MB_PAGE_ALIGN (1 << 0)	/* modules on page boundaries */
#define MB_MEMORY_INFO (1 << 1)	/* we need mem_* and the memory map */
#define MB_FLAGS (MB_PAGE_ALIGN | MB_MEMORY_INFO)

#define BOOT_STACK_SIZE 16384

	.section .multiboot, "a"
	.align 4
	.long MB_HEADER_MAGIC
	.long MB_FLAGS
	.long -(MB_HEADER_MAGIC + MB_FLAGS)

	.section .text.boot, "ax"
	.global _start
	.type _start, @function
_start:
	cli
	cld
	/* Clear .bss ourselves rather than trust every loader to. */
	movl $__bss_start, %edi
	movl $__bss_stop, %ecx
	subl %edi, %ecx
	movl %eax, %edx
	xorl %eax, %eax
	rep stosb
	movl %edx, %eax
	movl $boot_stack_top, %esp
	/* A zero frame pointer ends every backtrace here. */
	xorl %ebp, %ebp
	pushl %ebx		/* Multiboot info */
	pushl %eax		/* 0x2badb002 when a Multiboot loader ran us */
	call arch_start
1:	cli
	hlt
	jmp 1b
	.size _start, . - _start

	.section .bss
	.align 16
	.global boot_stack
boot_stack:
	.skip BOOT_STACK_SIZE
	.global boot_stack_top
boot_stack_top:

	.section .note.GNU-stack, "", @progbits
