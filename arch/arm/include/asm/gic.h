/*
 * The GICv2 of QEMU's virt machine and the generic timer, for the ARM
 * arch files only.
 */
#ifndef ASM_GIC_H
#define ASM_GIC_H

#include <kernel/types.h>

#define GIC_DIST_BASE 0x08000000u
#define GIC_CPU_BASE 0x08010000u

/* The distributor (once, boot CPU) and this CPU's interface. */
void gic_init(void);
/* Per CPU (each secondary too): its interface and banked SGI/PPI state. */
void gic_cpu_init(void);
/* Raises SGI sgi (0..15) on CPU cpu (once its gic_cpu_init() ran). */
void gic_send_sgi(unsigned int cpu, unsigned int sgi);
/* From arm_exception(EXC_IRQ): acknowledges, dispatches and ends one. */
void gic_handle_irq(void);

/* The generic timer: registers the clock and starts this CPU's tick. */
void generic_timer_init(void);
/* Per CPU (each secondary too): starts its tick, PPI already routed. */
void generic_timer_cpu_start(void);

#endif
