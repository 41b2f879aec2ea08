/*
 * i386 interrupt setup and dispatch: the IDT gates above the first 48
 * vectors, the boot sequence of the interrupt hardware (PIC off, local
 * APIC, I/O APIC, clock and tick), and the path from trap_handler()
 * to the generic irq layer.
 */
#include <kernel/errno.h>
#include <kernel/initcall.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/time.h>
#include <asm/apic.h>
#include <asm/i386.h>
#include <asm/irq.h>

int arch_irq_unmask(unsigned int irq)
{
	if (irq < NR_GSI_IRQS) {
		if (irq >= ioapic_nr_inputs())
			return -EINVAL;
		ioapic_unmask(irq);
		return 0;
	}
	/* Local APIC sources are switched on where they are set up. */
	return irq_to_vector(irq) < 0 ? -EINVAL : 0;
}

void arch_irq_mask(unsigned int irq)
{
	if (irq < NR_GSI_IRQS)
		ioapic_mask(irq);
}

/* Vectors 32-255, called by trap_handler() with interrupts off. */
void i386_interrupt(struct trap_frame *f)
{
	int irq = vector_to_irq(f->vector);

	irq_enter();
	if (irq >= 0) {
		irq_handle(irq);
		lapic_eoi();
	} else {
		irq_spurious();
		if (f->vector >= VECTOR_PIC_BASE && f->vector < VECTOR_GSI_BASE)
			pic_spurious_eoi(f->vector);
		else if (f->vector != VECTOR_SPURIOUS)
			lapic_eoi();	/* a stray vector still holds the ISR */
	}
	irq_exit();
}

/*
 * Before memory management (the APIC pages are mapped when paging comes
 * on); interrupts stay off in the CPU until irq_boot_enable().
 */
static int i386_irq_time_init(void)
{
	pic_init();
	lapic_cpu_init();
	ioapic_init();
	pit_calibrate();
	tsc_clock_init();
	lapic_timer_cpu_start();
	printk("time: TSC %llu kHz, APIC timer %u kHz, tick %d Hz\n",
	       tsc_hz / 1000, lapic_timer_hz / 1000, HZ);
	return 0;
}
early_initcall(i386_irq_time_init);
