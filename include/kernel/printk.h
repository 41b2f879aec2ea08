/* Formatted output: the kernel's printf family, printk and panic. */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <stdarg.h>
#include <stddef.h>
#include <kernel/compiler.h>

/*
 * Formats like C's printf with the subset the kernel uses:
 * %d %i %u %x %X %p %s %c %%, %pS (func+0x1c/0x80) and %ps (func),
 * the l, ll and z length modifiers,
 * width, precision (also as '*'), and the flags 0 - + space #.
 * Returns the length the full output would have, as C99 does.
 */
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

/* Writes to the console; returns the number of characters written. */
int vprintk(const char *fmt, va_list ap);
int printk(const char *fmt, ...) __printf(1, 2);

/* Prints the message, stops the other CPUs and this one; never returns. */
void panic(const char *fmt, ...) __printf(1, 2) __noreturn;

#endif
