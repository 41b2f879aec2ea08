/* The console: serialises printk and shell output onto the arch UART. */
#include <kernel/console.h>
#include <kernel/arch.h>

void console_putc(char c)
{
	if (c == '\n')
		arch_console_putc('\r');
	arch_console_putc(c);
}

void console_write(const char *s, size_t len)
{
	unsigned long flags = arch_irq_save();

	while (len--)
		console_putc(*s++);
	arch_irq_restore(flags);
}

int console_getc(void)
{
	int c;

	while ((c = arch_console_getc()) < 0)
		arch_cpu_relax();
	return c;
}
