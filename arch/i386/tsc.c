/* The TSC as the arch clock (rate measured against the PIT at boot). */
#include <kernel/printk.h>
#include <kernel/time.h>
#include <asm/apic.h>

u64 arch_clock_read(void)
{
	return rdtsc();
}

/* Called after pit_calibrate(): from now on ktime_get_ns() runs. */
void tsc_clock_init(void)
{
	u32 a, b, c, d;

	cpuid(1, &a, &b, &c, &d);
	if (!(d & CPUID1_EDX_TSC))
		panic("this CPU has no TSC (CPUID 1 edx=%08x)", d);
	clock_register(tsc_hz);
}
