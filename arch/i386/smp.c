/*
 * i386 SMP: the CPUs come from the ACPI MADT, each secondary is started
 * with INIT-SIPI-SIPI through its local APIC into the real-mode
 * trampoline (trampoline.S), and IPIs are fixed-vector local APIC
 * messages, except IPI_STOP, which is an NMI so that it also stops a
 * CPU spinning with interrupts off.
 */
#include <kernel/errno.h>
#include <kernel/initcall.h>
#include <kernel/irq.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/thread.h>
#include <kernel/time.h>
#include <asm/acpi.h>
#include <asm/apic.h>
#include <asm/i386.h>
#include <asm/irq.h>
#include <kernel/mmu.h>
#include <asm/trampoline.h>

#define LAPIC_ICR_LOW 0x300
#define LAPIC_ICR_HIGH 0x310
#define ICR_FIXED 0x000u
#define ICR_NMI 0x400u
#define ICR_INIT 0x500u
#define ICR_STARTUP 0x600u
#define ICR_BUSY (1u << 12)	/* delivery status: not accepted yet */
#define ICR_ASSERT (1u << 14)
#define ICR_LEVEL (1u << 15)

/* Intel's MP start-up sequence: INIT, 10 ms, SIPI, 200 us, SIPI. */
#define INIT_DELAY_US 10000
#define SIPI_DELAY_US 200
#define ICR_TIMEOUT_US 100000

static u32 apic_ids[NR_CPUS];

/* Set before the NMI goes out, so the NMI handler knows it is a stop. */
static bool stop_requested;

unsigned long arch_cpu_hwid(unsigned int cpu)
{
	return cpu < NR_CPUS ? apic_ids[cpu] : ~0ul;
}

static u32 boot_apic_id(void)
{
	u32 a, b, c, d;

	cpuid(1, &a, &b, &c, &d);
	return b >> 24;		/* the initial APIC ID */
}

static void add_cpu(u32 apic_id)
{
	int cpu;

	if (apic_id == apic_ids[0])
		return;
	cpu = smp_add_possible_cpu();
	if (cpu >= 0)
		apic_ids[cpu] = apic_id;
}

/* Early, before mm_init(): the per-CPU areas need the count. */
static int i386_smp_enumerate(void)
{
	int n;

	apic_ids[0] = boot_apic_id();
	n = acpi_for_each_cpu(add_cpu);
	if (n < 0)
		printk("smp: no ACPI MADT, only the boot CPU is used\n");
	else
		printk("smp: %d CPU%s in the ACPI MADT, boot CPU APIC ID %u\n",
		       n, n == 1 ? "" : "s", apic_ids[0]);
	return 0;
}
early_initcall(i386_smp_enumerate);

static bool icr_wait_idle(void)
{
	for (unsigned int us = 0; us < ICR_TIMEOUT_US; us++) {
		if (!(lapic_read(LAPIC_ICR_LOW) & ICR_BUSY))
			return true;
		udelay(1);
	}
	return false;
}

/*
 * One message from this CPU's APIC. Interrupts stay off across the two
 * register writes: a handler sending its own IPI in between would leave
 * this one with the wrong destination.
 */
static bool icr_send(u32 apic_id, u32 low)
{
	unsigned long flags = irq_save();
	bool ok = icr_wait_idle();

	if (ok) {
		lapic_write(LAPIC_ICR_HIGH, apic_id << 24);
		lapic_write(LAPIC_ICR_LOW, low);
	}
	irq_restore(flags);
	return ok;
}

void arch_send_ipi(unsigned int cpu, enum ipi_type ipi)
{
	u32 low;

	if (cpu >= NR_CPUS || ipi >= NR_IPI_TYPES)
		return;
	if (ipi == IPI_STOP) {
		WRITE_ONCE(stop_requested, true);
		low = ICR_NMI;
	} else {
		low = ICR_FIXED | (u32)irq_to_vector(arch_ipi_irq(ipi));
	}
	if (!icr_send(apic_ids[cpu], low))
		printk("smp: IPI %d to CPU %u not accepted by the APIC\n", ipi,
		       cpu);
}

/* trap_handler(): an NMI is our stop request, or a hardware oddity. */
void i386_nmi(void)
{
	if (READ_ONCE(stop_requested))
		smp_stop_this_cpu();
	printk("warning: NMI on CPU %u (not a stop request), ignored\n",
	       smp_processor_id());
}

static struct trampoline_args *tramp_args(void)
{
	return (struct trampoline_args *)(TRAMPOLINE_ADDR +
					  (trampoline_args - trampoline_start));
}

/* The new CPU's first C code, on its idle thread's stack, paging off. */
static void secondary_start(unsigned int cpu)
{
	gdt_init(cpu);
	idt_load();
	mmu_init_secondary();
	lapic_cpu_init();
	lapic_timer_cpu_start();
	smp_secondary_start();
}

int arch_boot_cpu(unsigned int cpu, struct thread *idle)
{
	struct trampoline_args *args = tramp_args();
	u32 id = apic_ids[cpu];

	if (cpu == 0 || !cpu_possible(cpu))
		return -EINVAL;
	memcpy((void *)TRAMPOLINE_ADDR, trampoline_start,
	       trampoline_end - trampoline_start);
	gdt_prepare_cpu(cpu, idle);
	args->stack = ALIGN_DOWN(idle->ctx.sp, STACK_ALIGN);
	args->entry = (u32)secondary_start;
	args->cpu = cpu;
	args->alive = 0;
	if (!icr_send(id, ICR_INIT | ICR_ASSERT | ICR_LEVEL) ||
	    !icr_send(id, ICR_INIT | ICR_LEVEL))
		goto stuck;
	udelay(INIT_DELAY_US);
	for (int i = 0; i < 2 && !READ_ONCE(args->alive); i++) {
		if (!icr_send(id, ICR_STARTUP | TRAMPOLINE_VECTOR))
			goto stuck;
		udelay(SIPI_DELAY_US);
	}
	return 0;
stuck:
	printk("smp: CPU %u (APIC ID %u): the APIC does not deliver "
	       "INIT/SIPI\n", cpu, id);
	return -ENODEV;
}
