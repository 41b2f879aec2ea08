/*
 * The host libc's snprintf under another name, as the reference the
 * printf tests compare against. Compiled WITHOUT host-names.h, so that
 * snprintf here really is the libc one and not kt_snprintf.
 */
#include <stdarg.h>
#include <stdio.h>

int libc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int libc_snprintf(char *buf, size_t size, const char *fmt, ...);

int libc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	return vsnprintf(buf, size, fmt, ap);
}

int libc_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return len;
}
