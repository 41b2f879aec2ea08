/* The console: the serial port the shell and printk talk through. */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>

/* Writes one character; '\n' goes out as "\r\n". */
void console_putc(char c);
void console_write(const char *s, size_t len);
/* Waits for the next input byte and returns it. */
int console_getc(void);

#endif
