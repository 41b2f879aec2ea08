/*
 * The contract between generic code and an architecture. Everything
 * declared here is implemented under arch/<arch>/; generic code includes
 * this header and never an arch file directly. Small inline pieces
 * (interrupt flags, barriers) come from the arch's <asm/arch.h>.
 */
#ifndef KERNEL_ARCH_H
#define KERNEL_ARCH_H

#include <kernel/compiler.h>
#include <asm/arch.h>

/*
 * <asm/arch.h> provides, as static inline functions:
 *   unsigned long arch_irq_save(void);      disable IRQs, return old state
 *   void arch_irq_restore(unsigned long);   put the old state back
 *   void arch_cpu_relax(void);              pause inside a spin loop
 *   void arch_wait_for_interrupt(void);     sleep until an interrupt
 * and the constants
 *   ARCH_NAME          "i386", "arm" (the version banner's)
 *   ARCH_ENTRY_FILE    the source of the boot entry code, _start
 *                      ("boot/i386/multiboot.S"); the host has none
 *   ARCH_ASM_TAIL_CALL(sym)  the assembly text of a branch to sym that
 *                      does not come back, for top-level __asm__ in
 *                      generic code (samples/modules/modtest.c)
 */

/* Console UART: polled output and non-blocking input (-1: nothing). */
void arch_console_putc(char c);
int arch_console_getc(void);

/* Powers the machine off; QEMU exits with status 0. */
void arch_poweroff(void) __noreturn;
/* Resets the machine. */
void arch_reboot(void) __noreturn;
/*
 * Ends QEMU through its test device with a status the test harness can
 * tell from a crash: code 0 means success. Used in test mode only.
 */
void arch_test_exit(int code) __noreturn;
/* Stops this CPU for good with interrupts off. */
void arch_halt(void) __noreturn;

#endif
