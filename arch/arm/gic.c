/*
 * The GICv2 interrupt controller: a distributor shared by all CPUs that
 * routes device interrupts (SPIs) to CPU 0, enables lines and sends
 * SGIs (the IPIs), and one CPU interface per CPU (same address, banked)
 * that hands out and ends interrupts. SGIs and PPIs (the timer) are
 * banked per CPU, so enabling one affects only the CPU that does it.
 * The enable registers are write-one-to-set/clear, so masking needs no
 * lock.
 */
#include <kernel/errno.h>
#include <kernel/irq.h>
#include <kernel/smp.h>
#include <asm/gic.h>
#include <asm/irq.h>

#define GICD_CTLR 0x000
#define GICD_TYPER 0x004
#define GICD_ISENABLER 0x100
#define GICD_ICENABLER 0x180
#define GICD_IPRIORITYR 0x400
#define GICD_ITARGETSR 0x800
#define GICD_SGIR 0xf00

#define GICC_CTLR 0x00
#define GICC_PMR 0x04
#define GICC_BPR 0x08
#define GICC_IAR 0x0c
#define GICC_EOIR 0x10

#define GIC_ENABLE 1u
#define GIC_PRIORITY_DEFAULT 0xa0u
#define GIC_PRIORITY_MASK_ALL 0xf0u	/* let every priority above through */
#define GIC_SPURIOUS_FIRST 1020u
#define GIC_IAR_ID_MASK 0x3ffu
#define SGIR_TARGET_SHIFT 16

static unsigned int nr_lines;	/* interrupt IDs the distributor has */
/* Each CPU's own bit in the distributor's target masks. */
static u8 cpu_iface_mask[NR_CPUS];

static inline u32 gicd_read(u32 reg)
{
	return *(volatile u32 *)(GIC_DIST_BASE + reg);
}

static inline void gicd_write(u32 reg, u32 val)
{
	*(volatile u32 *)(GIC_DIST_BASE + reg) = val;
}

static inline void gicd_write8(u32 reg, u8 val)
{
	*(volatile u8 *)(GIC_DIST_BASE + reg) = val;
}

static inline u32 gicc_read(u32 reg)
{
	return *(volatile u32 *)(GIC_CPU_BASE + reg);
}

static inline void gicc_write(u32 reg, u32 val)
{
	*(volatile u32 *)(GIC_CPU_BASE + reg) = val;
}

void gic_cpu_init(void)
{
	/*
	 * ITARGETSR0 is banked: it reads as this CPU's own target bit,
	 * except on a GIC built for one CPU, where it reads as zero.
	 */
	u8 self = gicd_read(GICD_ITARGETSR) & 0xff;

	cpu_iface_mask[smp_processor_id()] = self ? self :
					     1u << smp_processor_id();
	/* SGIs on (for IPIs), PPIs off until their driver asks. */
	gicd_write(GICD_ICENABLER, 0xffff0000u);
	gicd_write(GICD_ISENABLER, 0x0000ffffu);
	for (unsigned int id = 0; id < IRQ_SPI_BASE; id++)
		gicd_write8(GICD_IPRIORITYR + id, GIC_PRIORITY_DEFAULT);
	gicc_write(GICC_PMR, GIC_PRIORITY_MASK_ALL);
	gicc_write(GICC_BPR, 0);
	gicc_write(GICC_CTLR, GIC_ENABLE);
}

void gic_init(void)
{
	/* ITARGETSR0 is banked: it reads as this CPU's own target bit. */
	u8 self = gicd_read(GICD_ITARGETSR) & 0xff;

	nr_lines = ((gicd_read(GICD_TYPER) & 0x1f) + 1) * 32;
	if (nr_lines > NR_IRQS)
		nr_lines = NR_IRQS;
	gicd_write(GICD_CTLR, 0);
	for (unsigned int id = IRQ_SPI_BASE; id < nr_lines; id += 32)
		gicd_write(GICD_ICENABLER + id / 8, 0xffffffffu);
	for (unsigned int id = IRQ_SPI_BASE; id < nr_lines; id++) {
		gicd_write8(GICD_IPRIORITYR + id, GIC_PRIORITY_DEFAULT);
		gicd_write8(GICD_ITARGETSR + id, self);
	}
	gicd_write(GICD_CTLR, GIC_ENABLE);
	gic_cpu_init();
}

int arch_irq_unmask(unsigned int irq)
{
	if (irq >= nr_lines)
		return -EINVAL;
	gicd_write(GICD_ISENABLER + irq / 32 * 4, 1u << (irq % 32));
	return 0;
}

void arch_irq_mask(unsigned int irq)
{
	if (irq < nr_lines)
		gicd_write(GICD_ICENABLER + irq / 32 * 4, 1u << (irq % 32));
}

void gic_send_sgi(unsigned int cpu, unsigned int sgi)
{
	/* What the sender wrote before must be visible to the target. */
	__asm__ __volatile__("dsb ish" : : : "memory");
	gicd_write(GICD_SGIR, (u32)cpu_iface_mask[cpu] << SGIR_TARGET_SHIFT |
				      (sgi & 0xf));
}

/*
 * One interrupt per exception: another pending one raises the IRQ
 * exception again as soon as this returns. The stop SGI skips the
 * interrupt layer, whose line lock another stopping CPU may hold.
 */
void gic_handle_irq(void)
{
	u32 iar = gicc_read(GICC_IAR);
	u32 id = iar & GIC_IAR_ID_MASK;

	if (id == arch_ipi_irq(IPI_STOP)) {
		gicc_write(GICC_EOIR, iar);
		smp_stop_this_cpu();
	}
	irq_enter();
	if (id >= GIC_SPURIOUS_FIRST) {
		irq_spurious();
	} else {
		irq_handle(id);
		gicc_write(GICC_EOIR, iar);
	}
	irq_exit();
}
