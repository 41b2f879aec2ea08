/*
 * Pages on the host: 4 KiB, and "RAM" is an mmap'd arena addressed by
 * its host addresses, so the linear map is the identity here too.
 * Host addresses need 47 bits: pfns are unsigned long, never 32-bit.
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#include <asm-generic/page.h>

#define LOWMEM_LIMIT (1UL << 47)

#endif
