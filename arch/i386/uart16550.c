/* COM1 16550 UART: the i386 console (polled output, polled input). */
#include <kernel/arch.h>
#include <asm/io.h>
#include <asm/i386.h>

#define COM (CONFIG_UART_16550_BASE)
#define REG_DATA 0
#define REG_IER 1
#define REG_LCR 3
#define REG_MCR 4
#define REG_LSR 5

#define LCR_DLAB 0x80
#define LCR_8N1 0x03
#define LSR_DATA_READY 0x01
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
	outb(COM + REG_MCR, 0x03);	/* DTR, RTS */
}

void arch_console_putc(char c)
{
	while (!(inb(COM + REG_LSR) & LSR_THR_EMPTY))
		arch_cpu_relax();
	outb(COM + REG_DATA, (unsigned char)c);
}

int arch_console_getc(void)
{
	if (!(inb(COM + REG_LSR) & LSR_DATA_READY))
		return -1;
	return inb(COM + REG_DATA);
}
