/*
 * Pages on the host: 4 KiB, and "RAM" is an mmap'd arena addressed by
 * its host addresses, so the linear map is the identity here too.
 * Host addresses need 47 bits: pfns are unsigned long, never 32-bit.
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))

#define LOWMEM_LIMIT (1UL << 47)

#define __pa(vaddr) ((unsigned long)(vaddr))
#define __va(paddr) ((void *)(unsigned long)(paddr))

#endif
