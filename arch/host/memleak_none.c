/*
 * The host library's side of the one call the slab allocator makes into
 * the leak collector in every host build (memleak_slab_released(),
 * <kernel/memleak.h>): a pointer, NULL unless the program links the
 * collector, whose host shim (arch/host/memleak.c) sets it.
 *
 * Locking: none; set once, before main().
 */
#include <kernel/memleak.h>

void (*host_memleak_slab_released)(const void *base);
