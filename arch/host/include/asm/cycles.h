/*
 * Host cycle stamps (<kernel/cycles.h>): nanoseconds of the monotonic
 * clock, so the rate is 10^9 (arch/host/time.c).
 */
#ifndef ASM_CYCLES_H
#define ASM_CYCLES_H

#include <kernel/types.h>

u64 host_clock_ns(void);

static inline u64 arch_cycles(void)
{
	return host_clock_ns();
}

static inline u64 arch_cycles_hz(void)
{
	return 1000000000ULL;
}

#endif
