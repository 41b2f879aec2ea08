/*
 * The receive side of the console UART, between the arch driver and
 * console_getc(): the driver's interrupt handler drains the UART into
 * the console's input ring; when the ring is full the console turns
 * the UART's receive interrupt off, so further bytes wait in the UART
 * (QEMU holds its input back) instead of being dropped, and turns it on
 * again once console_getc() has made room.
 */
#ifndef KERNEL_SERIAL_H
#define KERNEL_SERIAL_H

#include <stdbool.h>

/* Bytes the console's input ring holds. */
#define CONSOLE_RX_SIZE 1024

/*
 * Arch UART driver: its receive interrupt is set up (and on), so from
 * now on console_getc() may wait for it instead of polling.
 */
void console_rx_ready(void);
/* Arch UART driver, from its interrupt handler: drains the UART. */
void console_rx_interrupt(void);
/* Arch UART driver: the UART reported n bytes lost (overrun). */
void console_rx_lost(unsigned int n);

/* Input statistics for the 'console' command and the tests. */
struct console_rx_stats {
	unsigned long received;		/* bytes put in the ring */
	unsigned long lost;		/* overruns the UART reported */
	unsigned long throttled;	/* times the ring filled up */
	unsigned int queued;		/* bytes in the ring now */
};
void console_rx_get_stats(struct console_rx_stats *stats);

/* Implemented by the arch: switches the UART's receive interrupt. */
void arch_console_rx_irq(bool on);

#endif
