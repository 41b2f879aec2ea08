/*
 * ARM SMP on QEMU virt: the CPUs come from the device tree's /cpus
 * nodes (reg: the MPIDR affinity), each secondary is started with PSCI
 * CPU_ON at secondary_entry (boot/arm/start.S), and IPIs are GIC SGIs
 * (IPI n is SGI n).
 */
#include <kernel/errno.h>
#include <kernel/fdt.h>
#include <kernel/kernel.h>
#include <kernel/mmu.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/thread.h>
#include <asm/arm.h>
#include <asm/cacheflush.h>
#include <asm/gic.h>
#include <asm/irq.h>

#define MPIDR_AFFINITY_MASK 0x00ffffffu

static u32 cpu_mpidr[NR_CPUS];

/*
 * Read by secondary_entry with its caches off, so written back to
 * memory before each CPU_ON: its stack pointer and first thread.
 */
unsigned long secondary_sp[NR_CPUS];
struct thread *secondary_thread[NR_CPUS];

void secondary_entry(void);
void arm_secondary_start(void);

static u32 read_mpidr(void)
{
	u32 v;

	__asm__ __volatile__("mrc p15, 0, %0, c0, c0, 5" : "=r"(v));
	return v & MPIDR_AFFINITY_MASK;
}

unsigned long arch_cpu_hwid(unsigned int cpu)
{
	return cpu < NR_CPUS ? cpu_mpidr[cpu] : ~0ul;
}

static void add_cpu_node(const void *blob, int node, int address_cells)
{
	const char *method = fdt_getprop_string(blob, node, "enable-method");
	struct fdt_reg reg;
	int cpu;

	if (fdt_get_reg(blob, node, &reg, 1) < 1 || address_cells > 1) {
		printk("smp: %s has no usable reg, left out\n",
		       fdt_get_name(blob, node));
		return;
	}
	if (reg.base == cpu_mpidr[0])
		return;
	if (!method || strcmp(method, "psci") != 0) {
		printk("smp: %s starts by \"%s\", not PSCI: left out\n",
		       fdt_get_name(blob, node), method ? method : "(none)");
		return;
	}
	cpu = smp_add_possible_cpu();
	if (cpu >= 0)
		cpu_mpidr[cpu] = (u32)reg.base;
}

void arm_smp_enumerate(const void *blob)
{
	int cpus = fdt_path_offset(blob, "/cpus");
	int node, depth = 0, address_cells;

	cpu_mpidr[0] = read_mpidr();
	if (cpus < 0)
		return;
	address_cells = fdt_address_cells(blob, cpus);
	for (node = fdt_next_node(blob, cpus, &depth); node >= 0;
	     node = fdt_next_node(blob, node, &depth)) {
		const char *type;

		type = fdt_getprop_string(blob, node, "device_type");
		if (depth == 1 && type && strcmp(type, "cpu") == 0)
			add_cpu_node(blob, node, address_cells);
	}
}

void arch_send_ipi(unsigned int cpu, enum ipi_type ipi)
{
	if (cpu < NR_CPUS && ipi < NR_IPI_TYPES)
		gic_send_sgi(cpu, arch_ipi_irq(ipi));
}

/* The new CPU's first C code, on its idle thread's stack, caches off. */
void arm_secondary_start(void)
{
	mmu_init_secondary();
	gic_cpu_init();
	generic_timer_cpu_start();
	smp_secondary_start();
}

int arch_boot_cpu(unsigned int cpu, struct thread *idle)
{
	int err;

	if (cpu == 0 || !cpu_possible(cpu))
		return -EINVAL;
	secondary_sp[cpu] = ALIGN_DOWN(idle->ctx.sp, STACK_ALIGN);
	secondary_thread[cpu] = idle;
	dcache_clean_range(&secondary_sp[cpu], sizeof(secondary_sp[cpu]));
	dcache_clean_range(&secondary_thread[cpu],
			   sizeof(secondary_thread[cpu]));
	/*
	 * The new CPU writes its first frames on this stack straight to
	 * memory: no dirty line of ours may be written back over them.
	 */
	dcache_flush_range(idle->stack, idle->stack_size);
	err = psci_cpu_on(cpu_mpidr[cpu], __pa(secondary_entry), cpu);
	if (err) {
		printk("smp: PSCI (%s) CPU_ON of CPU %u (MPIDR %#x) failed: "
		       "%d\n", psci_method(), cpu, cpu_mpidr[cpu], err);
		return -ENODEV;
	}
	return 0;
}
