/*
 * i386 interrupt numbers and the IDT vectors they arrive on. Numbers
 * 0..47 are I/O APIC inputs (GSIs); the rest are the local APIC's own
 * sources. The legacy 8259 PICs are remapped out of the exception range
 * and masked; only their spurious vectors can still show up.
 *
 *   vector 0x00-0x1f  exceptions
 *          0x20-0x2f  8259 PIC (masked; 0x27 and 0x2f may be spurious)
 *          0x30-0x5f  irq 0..47: I/O APIC GSIs
 *          0xef       IRQ_LAPIC_TIMER (the tick, one per CPU)
 *          0xf0-0xfc  IRQ_IPI_BASE..: inter-processor interrupts (SMP;
 *                     IPI_STOP goes as an NMI instead)
 *          0xfe       IRQ_LAPIC_ERROR
 *          0xff       local APIC spurious vector (no handler, no EOI)
 */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#define NR_IRQS 64
#define NR_GSI_IRQS 48
#define IRQ_LAPIC_TIMER 48
#define IRQ_IPI_BASE 49
#define NR_IPIS 13
#define IRQ_LAPIC_ERROR 62

#define VECTOR_PIC_BASE 0x20
#define VECTOR_GSI_BASE 0x30
#define VECTOR_LAPIC_TIMER 0xef
#define VECTOR_IPI_BASE 0xf0
#define VECTOR_LAPIC_ERROR 0xfe
#define VECTOR_SPURIOUS 0xff

/* The interrupt line of an IPI type (<kernel/smp.h>). */
static inline unsigned int arch_ipi_irq(unsigned int ipi)
{
	return IRQ_IPI_BASE + ipi;
}

/* The IDT vector of an interrupt number, or -1 when there is none. */
static inline int irq_to_vector(unsigned int irq)
{
	if (irq < NR_GSI_IRQS)
		return VECTOR_GSI_BASE + irq;
	if (irq == IRQ_LAPIC_TIMER)
		return VECTOR_LAPIC_TIMER;
	if (irq >= IRQ_IPI_BASE && irq < IRQ_IPI_BASE + NR_IPIS)
		return VECTOR_IPI_BASE + (irq - IRQ_IPI_BASE);
	if (irq == IRQ_LAPIC_ERROR)
		return VECTOR_LAPIC_ERROR;
	return -1;
}

/* The interrupt number of a vector, or -1 (exceptions, PIC, spurious). */
static inline int vector_to_irq(unsigned int vector)
{
	if (vector >= VECTOR_GSI_BASE && vector < VECTOR_GSI_BASE + NR_GSI_IRQS)
		return vector - VECTOR_GSI_BASE;
	if (vector == VECTOR_LAPIC_TIMER)
		return IRQ_LAPIC_TIMER;
	if (vector >= VECTOR_IPI_BASE && vector < VECTOR_IPI_BASE + NR_IPIS)
		return IRQ_IPI_BASE + (vector - VECTOR_IPI_BASE);
	if (vector == VECTOR_LAPIC_ERROR)
		return IRQ_LAPIC_ERROR;
	return -1;
}

#endif
