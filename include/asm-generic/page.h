/*
 * What every architecture's <asm/page.h> shares: 4 KiB pages and a
 * linear map that is the identity (RAM's virtual addresses are its
 * physical ones on i386, ARM and the host's arena alike). The arch
 * header adds its own memory layout and includes this one.
 */
#ifndef ASM_GENERIC_PAGE_H
#define ASM_GENERIC_PAGE_H

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))

/* The linear map is the identity. */
#define __pa(vaddr) ((unsigned long)(vaddr))
#define __va(paddr) ((void *)(unsigned long)(paddr))

#endif
