/*
 * What every architecture's <asm/page.h> shares: 4 KiB pages and a
 * linear map that is the identity (RAM's virtual addresses are its
 * physical ones on i386, ARM and the host's arena alike). The arch
 * header draws its own memory layout and includes this one.
 */
#ifndef ASM_GENERIC_PAGE_H
#define ASM_GENERIC_PAGE_H

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))

/* The linear map is the identity. */
#define __pa(vaddr) ((unsigned long)(vaddr))
#define __va(paddr) ((void *)(unsigned long)(paddr))

#if __SIZEOF_LONG__ == 4
/*
 * A 32-bit machine (i386, ARM) uses RAM below 3 GiB, identity-mapped,
 * and maps vmalloc areas in a window above it; what lies around them
 * (devices, the APICs) is each arch's, drawn in its <asm/page.h>.
 */
#define LOWMEM_LIMIT 0xC0000000UL
#define VMALLOC_START 0xD0000000UL
#define VMALLOC_END 0xF0000000UL
#endif

#endif
