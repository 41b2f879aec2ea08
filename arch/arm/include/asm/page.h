/*
 * ARM (QEMU virt) page size and virtual memory layout. RAM (from
 * 0x40000000) and the devices below it are identity-mapped; vmalloc
 * areas live in their own window above RAM.
 *
 *   0x00000000  flash, never mapped (catches NULL)
 *   0x08000000  GIC, UART, RTC, virtio: identity, device memory
 *   0x40000000  RAM, identity-mapped; DTB first, kernel at 0x40100000
 *   0xC0000000  LOWMEM_LIMIT: RAM beyond this is not used
 *   0xD0000000  VMALLOC_START .. VMALLOC_END 0xF0000000
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

/* LOWMEM_LIMIT and the vmalloc window: the 32-bit layout of the picture. */
#include <asm-generic/page.h>

#endif
