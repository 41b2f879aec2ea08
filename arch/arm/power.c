/*
 * ARM power control on QEMU virt: the PSCI firmware interface (off,
 * reset, CPU_ON for smp.c) and the semihosting test exit.
 */
#include <kernel/arch.h>
#include <kernel/fdt.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <asm/arm.h>

#define SEMIHOST_SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

/* QEMU's default: hvc, as the device tree of a plain -M virt says. */
static bool psci_smc;
static u32 psci_cpu_on_fn = PSCI_CPU_ON;
static bool psci_found;

int psci_call(u32 fn, u32 a1, u32 a2, u32 a3)
{
	register u32 r0 __asm__("r0") = fn;
	register u32 r1 __asm__("r1") = a1;
	register u32 r2 __asm__("r2") = a2;
	register u32 r3 __asm__("r3") = a3;

	if (psci_smc)
		__asm__ __volatile__(".arch_extension sec\n\tsmc #0"
				     : "+r"(r0)
				     : "r"(r1), "r"(r2), "r"(r3)
				     : "memory");
	else
		__asm__ __volatile__(".arch_extension virt\n\thvc #0"
				     : "+r"(r0)
				     : "r"(r1), "r"(r2), "r"(r3)
				     : "memory");
	return (int)r0;
}

/*
 * The /psci node: "method" names the conduit (hvc, or smc when QEMU
 * runs the kernel in HYP with virtualization=on); PSCI 0.1 trees give
 * CPU_ON's function ID in "cpu_on", later ones use the standard one.
 */
void psci_init(const void *blob)
{
	int node = fdt_path_offset(blob, "/psci");
	const char *method;
	u32 fn;

	if (node < 0) {
		printk("psci: no /psci node in the device tree\n");
		return;
	}
	method = fdt_getprop_string(blob, node, "method");
	if (method && strcmp(method, "smc") == 0) {
		psci_smc = true;
	} else if (!method || strcmp(method, "hvc") != 0) {
		printk("psci: unknown method \"%s\", PSCI not used\n",
		       method ? method : "(none)");
		return;
	}
	if (fdt_read_u32(blob, node, "cpu_on", &fn) == 0)
		psci_cpu_on_fn = fn;
	psci_found = true;
}

int psci_cpu_on(u32 mpidr, unsigned long entry, u32 context)
{
	if (!psci_found)
		return PSCI_RET_NOT_SUPPORTED;
	return psci_call(psci_cpu_on_fn, mpidr, entry, context);
}

const char *psci_method(void)
{
	return !psci_found ? "none" : psci_smc ? "smc" : "hvc";
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
