/*
 * The kernel configuration of the host build, which has no Kconfig:
 * the CONFIG_* values lib/ and mm/ read. Unit tests get every debug
 * check; benchmarks (HOST_BENCH) get none, like a production kernel.
 */
#ifndef ASM_HOST_CONFIG_H
#define ASM_HOST_CONFIG_H

#define CONFIG_NR_CPUS 4
#define CONFIG_DEBUG_KEEP_INIT 1

#ifndef HOST_BENCH
#define CONFIG_PAGE_POISON 1
#define CONFIG_PAGE_POISON_FREE 0xaa
#define CONFIG_PAGE_POISON_ALLOC 0x55
#define CONFIG_SLAB_DEBUG 1
#endif

#endif
