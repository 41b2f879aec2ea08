/*
 * Initcalls: functions run once at boot, in levels, registered where they
 * are defined. Each level is its own linker section; the linker script
 * lays them out in level order and kernel/init.c calls them in turn.
 */
#ifndef KERNEL_INITCALL_H
#define KERNEL_INITCALL_H

#include <kernel/compiler.h>

typedef int (*initcall_t)(void);

struct initcall {
	initcall_t fn;
	const char *name;
};

/* Levels, in the order they run. */
#define INITCALL_EARLY 0	/* before memory management */
#define INITCALL_CORE 1		/* page allocator, slab */
#define INITCALL_SUBSYS 2	/* threads, timers, collector */
#define INITCALL_DEVICE 3	/* drivers */
#define INITCALL_LATE 4		/* everything that needs all of the above */

#define __define_initcall(fn, level)                                      \
	static const struct initcall __initcall_##fn __used               \
		__section(".initcall" #level ".init") __aligned(sizeof(void *)) = \
		{ fn, #fn }

#define early_initcall(fn) __define_initcall(fn, 0)
#define core_initcall(fn) __define_initcall(fn, 1)
#define subsys_initcall(fn) __define_initcall(fn, 2)
#define device_initcall(fn) __define_initcall(fn, 3)
#define late_initcall(fn) __define_initcall(fn, 4)

/* Runs every initcall of one level; a failing one is reported, not fatal. */
void do_initcalls(int level);

#endif
