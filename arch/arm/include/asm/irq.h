/*
 * ARM (QEMU virt, GICv2) interrupt numbers: the GIC's interrupt IDs.
 * 0..15 are SGIs (software, for inter-processor interrupts), 16..31
 * PPIs (one per CPU: the generic timer), 32.. SPIs (devices; SPI n is
 * interrupt 32 + n, as the device tree numbers them).
 */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

/* QEMU's virt GIC has 288 IDs; the devices we drive sit far below 256. */
#define NR_IRQS 256

#define IRQ_SGI_BASE 0
#define NR_SGIS 16
#define IRQ_PPI_BASE 16
#define IRQ_SPI_BASE 32

/* Generic timer PPIs (device tree "arm,armv7-timer": PPI 13, 14, 11, 10). */
#define IRQ_TIMER_SECURE_PHYS (IRQ_PPI_BASE + 13)
#define IRQ_TIMER_PHYS (IRQ_PPI_BASE + 14)	/* the tick: 30 */
#define IRQ_TIMER_VIRT (IRQ_PPI_BASE + 11)	/* 27, unused */
#define IRQ_TIMER_HYP (IRQ_PPI_BASE + 10)

/* The interrupt line of an IPI type (<kernel/smp.h>): SGI n. */
static inline unsigned int arch_ipi_irq(unsigned int ipi)
{
	return IRQ_SGI_BASE + ipi;
}

/* PL011 UART0: SPI 1. */
#define IRQ_UART0 (IRQ_SPI_BASE + 1)

#endif
