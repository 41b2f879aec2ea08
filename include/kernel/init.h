/* The generic boot sequence entered by every architecture. */
#ifndef KERNEL_INIT_H
#define KERNEL_INIT_H

#include <kernel/types.h>
#include <kernel/compiler.h>

/*
 * Called by the arch code once the console works and boot_info is
 * filled; runs the initcalls, then the autorun commands and the shell.
 */
void kernel_main(void) __noreturn;

/* True when booted with "test": panics then exit QEMU with a failure. */
extern bool test_mode;

#endif
