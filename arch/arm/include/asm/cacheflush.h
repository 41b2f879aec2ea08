/*
 * ARM data cache maintenance to the point of coherency (arch/arm/mmu.c),
 * for what a CPU with its caches still off (a secondary being started,
 * arch/arm/smp.c) reads or writes: clean writes dirty lines back; flush
 * also drops them, so no stale line can later overwrite what that CPU
 * wrote to memory.
 */
#ifndef ASM_CACHEFLUSH_H
#define ASM_CACHEFLUSH_H

#include <stddef.h>

void dcache_clean_range(const void *start, size_t size);
void dcache_flush_range(const void *start, size_t size);

#endif
