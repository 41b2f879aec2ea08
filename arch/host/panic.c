/*
 * panic() on the host: the message goes to stderr (a test that panics
 * is broken, whatever it captures) and the program aborts, so ASan and
 * cmocka show where. Its own file, so that tests defining their own
 * printk do not pull in a second one.
 */
#include <kernel/printk.h>

#include <stdlib.h>
#include <unistd.h>

void panic(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len >= (int)sizeof(buf))
		len = sizeof(buf) - 1;
	if (write(2, "panic: ", 7) < 0 || write(2, buf, len) < 0 ||
	    write(2, "\n", 1) < 0)
		abort();
	abort();
}
