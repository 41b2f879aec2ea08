/*
 * The kernel configuration of the host build, which has no Kconfig:
 * the CONFIG_* values lib/ and mm/ read. Unit tests get every debug
 * check; benchmarks (HOST_BENCH) get none, like a production kernel.
 */
#ifndef ASM_HOST_CONFIG_H
#define ASM_HOST_CONFIG_H

#define CONFIG_NR_CPUS 4
#define CONFIG_DEBUG_KEEP_INIT 1
#define CONFIG_HZ 100

/*
 * The leak collector and the programs that test or measure it are built
 * with HOST_MEMLEAK (tests/host/build.mk); the rest of the host library
 * keeps the allocator hooks compiled out, so the collector tracks only
 * the blocks a program hands to memleak_alloc() (arch/host/memleak.c).
 * The options are the kernel's defaults.
 */
#ifdef HOST_MEMLEAK
#define CONFIG_DEBUG_MEMLEAK 1
#define CONFIG_DEBUG_MEMLEAK_TRACE_LENGTH 8
#define CONFIG_DEBUG_MEMLEAK_PREINIT_POINTERS 512
#define CONFIG_DEBUG_MEMLEAK_SECONDARY_ALIASES 1
#define CONFIG_DEBUG_MEMLEAK_ORPHAN_FREEING 1
#define CONFIG_DEBUG_MEMLEAK_MIN_AGE_MS 1000
#endif

#ifndef HOST_BENCH
#define CONFIG_PAGE_POISON 1
#define CONFIG_PAGE_POISON_FREE 0xaa
#define CONFIG_PAGE_POISON_ALLOC 0x55
#define CONFIG_SLAB_DEBUG 1
#endif

#endif
