/*
 * PL011 UART: the ARM console. Output is polled; input arrives by
 * interrupt (SPI 1, interrupt 33) into the console's ring once the
 * driver initcall has run, and is polled before that.
 */
#include <kernel/arch.h>
#include <kernel/initcall.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/serial.h>
#include <kernel/types.h>
#include <asm/arm.h>
#include <asm/irq.h>

#define UART_BASE CONFIG_PL011_BASE
#define UART_DR 0x00
#define UART_FR 0x18
#define UART_LCRH 0x2c
#define UART_CR 0x30
#define UART_IMSC 0x38
#define UART_MIS 0x40
#define UART_ICR 0x44

#define DR_OVERRUN (1 << 11)
#define FR_RXFE (1 << 4)
#define FR_TXFF (1 << 5)
#define LCRH_WLEN_8 (3 << 5)
#define CR_UARTEN (1 << 0)
#define CR_TXE (1 << 8)
#define CR_RXE (1 << 9)
/* Receive (FIFO level) and receive timeout interrupts. */
#define INT_RX ((1 << 4) | (1 << 6))

static inline u32 uart_read(u32 reg)
{
	return *(volatile u32 *)(UART_BASE + reg);
}

static inline void uart_write(u32 reg, u32 val)
{
	*(volatile u32 *)(UART_BASE + reg) = val;
}

/*
 * 8 bits, FIFO off. Switching the FIFO on or off empties the receiver,
 * which would lose a byte typed (or piped) before boot; with its one
 * byte of buffer QEMU simply holds further input back.
 */
void pl011_init(void)
{
	uart_write(UART_CR, 0);
	uart_write(UART_IMSC, 0);
	uart_write(UART_LCRH, LCRH_WLEN_8);
	uart_write(UART_CR, CR_UARTEN | CR_TXE | CR_RXE);
}

void arch_console_putc(char c)
{
	while (uart_read(UART_FR) & FR_TXFF)
		arch_cpu_relax();
	uart_write(UART_DR, (unsigned char)c);
}

int arch_console_getc(void)
{
	u32 dr;

	if (uart_read(UART_FR) & FR_RXFE)
		return -1;
	dr = uart_read(UART_DR);
	if (dr & DR_OVERRUN)
		console_rx_lost(1);
	return dr & 0xff;
}

void arch_console_rx_irq(bool on)
{
	uart_write(UART_IMSC, on ? INT_RX : 0);
}

static enum irqreturn uart_interrupt(unsigned int irq, void *data)
{
	(void)irq;
	(void)data;
	if (!(uart_read(UART_MIS) & INT_RX))
		return IRQ_NONE;
	/*
	 * Clear first: a byte arriving while we drain raises the interrupt
	 * again instead of being cleared with the ones we took.
	 */
	uart_write(UART_ICR, INT_RX);
	console_rx_interrupt();
	return IRQ_HANDLED;
}

/*
 * Bytes that arrived during boot wait in the FIFO (QEMU holds the rest
 * back); unmasking the receive interrupt raises it for them at once, and
 * the CPU takes it when interrupts come on at the end of boot.
 */
static int uart_irq_init(void)
{
	int err = request_irq(IRQ_UART0, uart_interrupt, 0, "uart", NULL);

	if (err) {
		printk("uart: no receive interrupt (%d), input stays polled\n",
		       err);
		return err;
	}
	arch_console_rx_irq(true);
	console_rx_ready();
	return 0;
}
device_initcall(uart_irq_init);
