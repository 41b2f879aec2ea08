/* The host shim's own interface, for host unit tests and benchmarks. */
#ifndef ASM_HOST_H
#define ASM_HOST_H

#include <stdbool.h>
#include <stddef.h>

/* The "RAM" of the host build: one mmap'd block, aligned to 4 MiB. */
#define HOST_ARENA_SIZE (64UL << 20)

/*
 * Its size: HOST_ARENA_SIZE unless a program (a benchmark that needs
 * more) sets it before the arena is first mapped. Pages are only
 * backed once touched.
 */
extern unsigned long host_arena_size;

/* The arena, mapped on first use (aborts when mmap fails). */
void *host_arena(void);

/*
 * Backs every page of the arena now, as a kernel finds its RAM: for a
 * benchmark, so that no first touch of a page the collector takes (its
 * tables during a scan) costs the host a page fault inside a measured
 * stretch, which the kernel never pays.
 */
void host_arena_populate(void);

/*
 * size bytes, page-aligned, of the memory mapped right after the arena:
 * no RAM (no struct page, no allocator hands it out), what a kernel's
 * image or a device window is to the leak collector, for tests of blocks
 * outside RAM. HOST_OUTSIDE_RAM_SIZE in all, never given back (aborts
 * when it runs out).
 */
#define HOST_OUTSIDE_RAM_SIZE (16UL << 20)
void *host_outside_ram(size_t size);

/*
 * boot_info.ram = the arena, then mm_init(). May be called again: it
 * starts a fresh allocator over the same arena, and everything the old
 * one handed out (caches included) is gone.
 */
void host_mm_init(void);
/*
 * Host builds of the leak collector: called by memleak_stop_world(), as
 * if another CPU ran just before it was parked (tests set it).
 */
extern void (*host_memleak_on_stop_world)(void);

/*
 * Called after each write to the console (a test sets it): what another
 * CPU could do while the kernel prints, with no lock held. It may print;
 * that does not call it again.
 */
extern void (*host_on_console_write)(void);

/*
 * Set whenever one of the hooks above runs, as another CPU would: the
 * host's written pages (arch/host/written.c) cannot see its stores.
 */
extern bool host_other_cpu_ran;

/*
 * Set by a test whose host_memleak_on_stop_world only stores outside
 * the arena (into the test's roots, which the pause always reads
 * again): then the hook leaves the written pages known.
 */
extern bool host_stop_world_stores_outside_ram;

/*
 * Everything printk'ed (and written to the console) since the last
 * host_log_clear(), NUL-terminated. With HOST_LOG_ECHO set in the
 * environment it also goes to stderr.
 */
const char *host_log(void);
void host_log_clear(void);

#endif
