/* printk of the host build: formats with lib/printf.c into the console log. */
#include <kernel/printk.h>
#include <kernel/console.h>

#define PRINTK_BUF_SIZE 1024

int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_BUF_SIZE];
	int len = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (len >= (int)sizeof(buf))
		len = sizeof(buf) - 1;
	console_write(buf, len);
	return len;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vprintk(fmt, ap);
	va_end(ap);
	return len;
}
