/* The kernel command line: "key", "key=value" and key="quoted value". */
#ifndef KERNEL_CMDLINE_H
#define KERNEL_CMDLINE_H

#include <stddef.h>
#include <stdbool.h>

/*
 * Looks key up in cmdline. Returns 1 when it is present (val gets its
 * value without quotes, or "" for a bare key), 0 when it is absent, and
 * -1 when the value does not fit in size bytes or a quote is unclosed.
 */
int cmdline_get(const char *cmdline, const char *key, char *val, size_t size);

/* True when key appears, bare or with a value. */
bool cmdline_has(const char *cmdline, const char *key);

#endif
