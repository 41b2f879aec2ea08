/*
 * ARM cycle stamps (<kernel/cycles.h>): the generic timer's virtual
 * count, CNTVCT (the same as CNTPCT here: no hypervisor offsets it).
 * The isb keeps the read from being taken early, before the code it
 * is meant to follow.
 */
#ifndef ASM_CYCLES_H
#define ASM_CYCLES_H

#include <kernel/types.h>

static inline u64 arch_cycles(void)
{
	u32 lo, hi;

	__asm__ __volatile__("isb\n\tmrrc p15, 1, %0, %1, c14"
			     : "=r"(lo), "=r"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

/* CNTFRQ, set by the firmware (QEMU: 62.5 MHz). */
static inline u64 arch_cycles_hz(void)
{
	u32 v;

	__asm__ __volatile__("mrc p15, 0, %0, c14, c0, 0" : "=r"(v));
	return v;
}

#endif
