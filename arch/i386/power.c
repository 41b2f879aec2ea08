/* i386 power control on QEMU's pc machine: ACPI off, reset, test exit. */
#include <kernel/arch.h>
#include <asm/io.h>

#define ACPI_SLP_TYP_OFF (0 << 10)	/* QEMU: sleep type 0 is soft-off */
#define ACPI_SLP_EN (1 << 13)
#define KBC_COMMAND 0x64
#define KBC_PULSE_RESET 0xfe
/* isa-debug-exit: QEMU exits with (value << 1) | 1. */
#define DEBUG_EXIT_PORT 0xf4
#define DEBUG_EXIT_BASE 0x10	/* status 33 is success, 35 failure, ... */

void arch_halt(void)
{
	for (;;)
		__asm__ __volatile__("cli; hlt");
}

void arch_poweroff(void)
{
	outw(CONFIG_ACPI_PM1A_CNT, ACPI_SLP_TYP_OFF | ACPI_SLP_EN);
	/*
	 * QEMU acts on the request asynchronously, so halt and let it; a
	 * fallback write to the test device here would win the race.
	 */
	arch_halt();
}

void arch_reboot(void)
{
	outb(KBC_COMMAND, KBC_PULSE_RESET);
	arch_halt();
}

void arch_test_exit(int code)
{
	outl(DEBUG_EXIT_PORT, DEBUG_EXIT_BASE + (code & 0x3f));
	arch_halt();
}
