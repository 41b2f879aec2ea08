/*
 * i386 page size and virtual memory layout. RAM is identity-mapped
 * (virtual == physical) up to LOWMEM_LIMIT; vmalloc areas live in their
 * own window above it; the local APIC and I/O APIC sit at the top.
 *
 *   0x00000000  page 0, never mapped (catches NULL)
 *   0x00001000  RAM, identity-mapped (kernel at 1 MiB)
 *   0xC0000000  LOWMEM_LIMIT: RAM beyond this is not used
 *   0xD0000000  VMALLOC_START .. VMALLOC_END 0xF0000000
 *   0xFEC00000  I/O APIC, local APIC (identity, uncached)
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

/* LOWMEM_LIMIT and the vmalloc window: the 32-bit layout of the picture. */
#include <asm-generic/page.h>

#endif
