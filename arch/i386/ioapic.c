/*
 * The I/O APIC: routes device interrupt lines (GSIs) to the boot CPU's
 * local APIC as vectors 0x30 + GSI. One I/O APIC at the usual address
 * is assumed (QEMU's pc machine; the ACPI MADT would list others).
 *
 * ISA IRQs reach the same GSI numbers except IRQ 0 (the PIT), which
 * QEMU, like most PCs, wires to GSI 2 (an "interrupt source override"
 * in its MADT). We do not parse the MADT: the PIT is only polled here,
 * and the one ISA device with an interrupt, COM1 (IRQ 4), is on GSI 4.
 */
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <asm/apic.h>
#include <asm/irq.h>

#define IOREGSEL 0x00
#define IOWIN 0x10
#define IOAPIC_REG_VER 0x01
#define IOAPIC_REG_REDTBL 0x10	/* entry n: 0x10 + 2n (low), + 1 (high) */

#define REDTBL_MASKED (1u << 16)
/* Fixed delivery, physical destination, active high, edge: ISA lines. */
#define REDTBL_ISA 0u

static DEFINE_SPINLOCK(ioapic_lock);
static unsigned int nr_inputs;

static u32 ioapic_read(u32 reg)
{
	volatile u32 *base = (volatile u32 *)IOAPIC_BASE;

	base[IOREGSEL / 4] = reg;
	return base[IOWIN / 4];
}

static void ioapic_write(u32 reg, u32 val)
{
	volatile u32 *base = (volatile u32 *)IOAPIC_BASE;

	base[IOREGSEL / 4] = reg;
	base[IOWIN / 4] = val;
}

unsigned int ioapic_nr_inputs(void)
{
	return nr_inputs;
}

void ioapic_init(void)
{
	u32 ver = ioapic_read(IOAPIC_REG_VER);
	u32 dest = lapic_id() << 24;

	nr_inputs = ((ver >> 16) & 0xff) + 1;
	if (nr_inputs > NR_GSI_IRQS)
		nr_inputs = NR_GSI_IRQS;
	for (unsigned int gsi = 0; gsi < nr_inputs; gsi++) {
		u32 reg = IOAPIC_REG_REDTBL + 2 * gsi;

		ioapic_write(reg + 1, dest);
		ioapic_write(reg, REDTBL_MASKED | REDTBL_ISA |
				  (VECTOR_GSI_BASE + gsi));
	}
}

static void set_masked(unsigned int gsi, bool masked)
{
	u32 reg = IOAPIC_REG_REDTBL + 2 * gsi;
	unsigned long flags = spin_lock_irqsave(&ioapic_lock);
	u32 low = ioapic_read(reg);

	if (masked)
		low |= REDTBL_MASKED;
	else
		low &= ~REDTBL_MASKED;
	ioapic_write(reg, low);
	spin_unlock_irqrestore(&ioapic_lock, flags);
}

void ioapic_mask(unsigned int gsi)
{
	if (gsi < nr_inputs)
		set_masked(gsi, true);
}

void ioapic_unmask(unsigned int gsi)
{
	if (gsi < nr_inputs)
		set_masked(gsi, false);
}

unsigned int isa_irq_to_gsi(unsigned int isa_irq)
{
	return isa_irq == 0 ? 2 : isa_irq;
}
