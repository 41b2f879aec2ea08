/* ARM power control on QEMU virt: PSCI off/reset, semihosting test exit. */
#include <kernel/arch.h>
#include <asm/arm.h>

#define SEMIHOST_SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

int psci_call(u32 fn, u32 a1, u32 a2, u32 a3)
{
	register u32 r0 __asm__("r0") = fn;
	register u32 r1 __asm__("r1") = a1;
	register u32 r2 __asm__("r2") = a2;
	register u32 r3 __asm__("r3") = a3;

	__asm__ __volatile__(".arch_extension virt\n\thvc #0"
			     : "+r"(r0)
			     : "r"(r1), "r"(r2), "r"(r3)
			     : "memory");
	return (int)r0;
}

void arch_halt(void)
{
	for (;;)
		__asm__ __volatile__("cpsid if\n\tdsb\n\twfi");
}

void arch_poweroff(void)
{
	psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
	arch_halt();
}

void arch_reboot(void)
{
	psci_call(PSCI_SYSTEM_RESET, 0, 0, 0);
	arch_halt();
}

/* QEMU must run with semihosting enabled (tools/run does so). */
void arch_test_exit(int code)
{
	u32 block[2] = { ADP_STOPPED_APPLICATION_EXIT, (u32)code };
	register u32 r0 __asm__("r0") = SEMIHOST_SYS_EXIT_EXTENDED;
	register u32 r1 __asm__("r1") = (u32)block;

	__asm__ __volatile__("svc 0x123456" : : "r"(r0), "r"(r1) : "memory");
	arch_halt();
}
