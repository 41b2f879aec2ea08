/* PL011 UART: the ARM console (polled output, polled input). */
#include <kernel/arch.h>
#include <kernel/types.h>
#include <asm/arm.h>

#define UART_BASE CONFIG_PL011_BASE
#define UART_DR 0x00
#define UART_FR 0x18
#define UART_LCRH 0x2c
#define UART_CR 0x30
#define UART_IMSC 0x38

#define FR_RXFE (1 << 4)
#define FR_TXFF (1 << 5)
#define LCRH_FEN (1 << 4)
#define LCRH_WLEN_8 (3 << 5)
#define CR_UARTEN (1 << 0)
#define CR_TXE (1 << 8)
#define CR_RXE (1 << 9)

static inline u32 uart_read(u32 reg)
{
	return *(volatile u32 *)(UART_BASE + reg);
}

static inline void uart_write(u32 reg, u32 val)
{
	*(volatile u32 *)(UART_BASE + reg) = val;
}

void pl011_init(void)
{
	uart_write(UART_CR, 0);
	uart_write(UART_IMSC, 0);
	uart_write(UART_LCRH, LCRH_FEN | LCRH_WLEN_8);
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
	if (uart_read(UART_FR) & FR_RXFE)
		return -1;
	return uart_read(UART_DR) & 0xff;
}
