/*
 * COM1 16550 UART: the i386 console. Output is polled; input arrives by
 * interrupt (ISA IRQ 4) into the console's ring once the driver
 * initcall has run, and is polled before that.
 */
#include <kernel/arch.h>
#include <kernel/initcall.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/serial.h>
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/i386.h>

#define COM (CONFIG_UART_16550_BASE)
#define COM_ISA_IRQ 4
#define REG_DATA 0
#define REG_IER 1
#define REG_IIR 2
#define REG_LCR 3
#define REG_MCR 4
#define REG_LSR 5

#define IER_RX_DATA 0x01
#define IIR_NO_INTERRUPT 0x01
#define LCR_DLAB 0x80
#define LCR_8N1 0x03
#define MCR_DTR_RTS 0x03
#define MCR_OUT2 0x08		/* gates the interrupt line on PCs */
#define LSR_DATA_READY 0x01
#define LSR_OVERRUN 0x02
#define LSR_THR_EMPTY 0x20

/*
 * 115200 baud, 8N1. The FIFOs stay off: switching them on empties the
 * receiver, which would lose a byte typed (or piped) before boot, and
 * with one byte of buffer QEMU simply holds further input back.
 */
void uart_init(void)
{
	outb(COM + REG_IER, 0x00);
	outb(COM + REG_LCR, LCR_DLAB);
	outb(COM + REG_DATA, 1);	/* divisor low: 115200 / 1 */
	outb(COM + REG_IER, 0);		/* divisor high */
	outb(COM + REG_LCR, LCR_8N1);
	outb(COM + REG_MCR, MCR_DTR_RTS);
}

/* Reading LSR clears its overrun flag, so every reader reports it. */
static u8 read_lsr(void)
{
	u8 lsr = inb(COM + REG_LSR);

	if (lsr & LSR_OVERRUN)
		console_rx_lost(1);
	return lsr;
}

void arch_console_putc(char c)
{
	while (!(read_lsr() & LSR_THR_EMPTY))
		arch_cpu_relax();
	outb(COM + REG_DATA, (unsigned char)c);
}

int arch_console_getc(void)
{
	if (!(read_lsr() & LSR_DATA_READY))
		return -1;
	return inb(COM + REG_DATA);
}

void arch_console_rx_irq(bool on)
{
	outb(COM + REG_IER, on ? IER_RX_DATA : 0);
}

static enum irqreturn uart_interrupt(unsigned int irq, void *data)
{
	(void)irq;
	(void)data;
	if (inb(COM + REG_IIR) & IIR_NO_INTERRUPT)
		return IRQ_NONE;
	console_rx_interrupt();
	return IRQ_HANDLED;
}

/*
 * Bytes that arrived during boot wait in the UART (QEMU holds the rest
 * back); switching the receive interrupt on raises it for them at once,
 * and the CPU takes it when interrupts come on at the end of boot.
 */
static int uart_irq_init(void)
{
	int err = request_irq(isa_irq_to_gsi(COM_ISA_IRQ), uart_interrupt, 0,
			      "uart", NULL);

	if (err) {
		printk("uart: no receive interrupt (%d), input stays polled\n",
		       err);
		return err;
	}
	outb(COM + REG_MCR, MCR_DTR_RTS | MCR_OUT2);
	arch_console_rx_irq(true);
	console_rx_ready();
	return 0;
}
device_initcall(uart_irq_init);
