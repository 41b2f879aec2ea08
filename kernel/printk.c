/*
 * printk: formats into a buffer on the stack and writes it to the
 * console in one console_write(), whose lock keeps the message whole
 * (kernel/console.c). The host build uses this file as it is, with its
 * own console (arch/host/console.c: the tests' log); panic() is
 * kernel/panic.c's, or arch/host/panic.c's there.
 */
#include <kernel/printk.h>
#include <kernel/console.h>
#include <kernel/export.h>

#define PRINTK_BUF_SIZE 512

int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_BUF_SIZE];
	int len = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (len >= (int)sizeof(buf))
		len = sizeof(buf) - 1;
	console_write(buf, len);
	return len;
}
EXPORT_SYMBOL(vprintk);

int printk(const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vprintk(fmt, ap);
	va_end(ap);
	return len;
}
EXPORT_SYMBOL(printk);
