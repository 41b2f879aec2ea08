/* i386 cycle stamps (<kernel/cycles.h>): the TSC. */
#ifndef ASM_CYCLES_H
#define ASM_CYCLES_H

#include <kernel/types.h>

/* Measured against the PIT at boot (arch/i386/pit.c). */
extern u64 tsc_hz;

static inline u64 arch_cycles(void)
{
	u64 v;

	__asm__ __volatile__("rdtsc" : "=A"(v));
	return v;
}

static inline u64 arch_cycles_hz(void)
{
	return tsc_hz;
}

#endif
