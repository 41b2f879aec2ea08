/*
 * Cycle stamps for measuring short stretches of code: the arch's
 * free-running counter read inline and not converted, so a stamp costs
 * an instruction or two (rdtsc on i386, CNTVCT on ARM). Under QEMU with
 * -icount both counters follow virtual time, which advances by a fixed
 * amount per instruction executed, so differences count instructions
 * (tests/bench/memleak-scan-qemu.sh turns them into instructions).
 *
 * <asm/cycles.h> provides, as static inline functions:
 *   u64 arch_cycles(void);      the counter now
 *   u64 arch_cycles_hz(void);   its rate (0 until the arch measured it)
 */
#ifndef KERNEL_CYCLES_H
#define KERNEL_CYCLES_H

#include <kernel/types.h>
#include <asm/cycles.h>

/* Nanoseconds for a difference of cycle stamps; 0 without a rate. */
static inline u64 cycles_to_ns(u64 cycles)
{
	u64 hz = arch_cycles_hz();

	if (!hz)
		return 0;
	/* Split so that neither product can overflow 64 bits. */
	return cycles / hz * 1000000000ULL + cycles % hz * 1000000000ULL / hz;
}

#endif
