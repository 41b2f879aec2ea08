/*
 * Kernel page tables: the contract between generic code (vmalloc, the
 * tests, the collector's GDB helpers) and the MMU. One address space
 * for every CPU: RAM through the linear map the arch builds at boot
 * (sections on ARM, 4 KiB pages on i386), everything mapped later in
 * 4 KiB pages.
 *
 *   paging_init(), mmu_init_secondary()   arch/ARCH/mmu.c: the boot map
 *   map_pages(), unmap_pages(),           mm/pgtable.c: the generic
 *   virt_to_phys_walk()                   walker, over <asm/pgtable.h>
 */
#ifndef KERNEL_MMU_H
#define KERNEL_MMU_H

#include <kernel/types.h>
/* <asm/page.h>: PAGE_SIZE and the arch's memory layout. */
#include <asm/page.h>

/*
 * map_pages() flags. MAP_KERNEL_RW is ordinary kernel data; MAP_DEVICE
 * is memory-mapped I/O (uncached; never executable where the hardware
 * can say so); MAP_EXEC allows instruction fetch (i386 without PAE has
 * no no-execute bit: there it only says what the caller means).
 */
#define MAP_WRITE	(1u << 0)
#define MAP_EXEC	(1u << 1)
#define MAP_DEVICE	(1u << 2)
#define MAP_KERNEL_RO	0u
#define MAP_KERNEL_RW	MAP_WRITE
#define MAP_KERNEL_RWX	(MAP_WRITE | MAP_EXEC)
#define MAP_FLAGS_ALL	(MAP_WRITE | MAP_EXEC | MAP_DEVICE)

/* What virt_to_phys_walk() returns for an address that is not mapped. */
#define PHYS_ADDR_INVALID ((phys_addr_t)-1)

/*
 * Builds the kernel page tables (linear map of RAM, devices) and turns
 * paging on. Runs after mm_init(): i386 takes the linear map's tables
 * from the page allocator (virtual still equals physical then).
 */
void paging_init(void);

/*
 * Turns paging on for a secondary CPU with the tables the boot CPU
 * built in paging_init(). Call it once on each CPU, first thing, before
 * it touches anything outside the identity-mapped RAM (on ARM, with its
 * MMU and caches still off: see arch/arm/mmu.c).
 */
void mmu_init_secondary(void);

/* True once paging_init() has turned the MMU on. */
bool paging_enabled(void);

/*
 * Maps npages pages at virt (page aligned) to the physical pages from
 * phys on. Page-table pages come from the page allocator. Returns 0, or
 * -ENOMEM when a page table cannot be allocated, -EEXIST when a page in
 * the range is already mapped, -EINVAL for bad arguments; on failure
 * nothing of the range stays mapped.
 */
int map_pages(unsigned long virt, phys_addr_t phys, unsigned long npages,
	      unsigned int flags);

/* Unmaps npages pages from virt and flushes them from every CPU's TLB. */
void unmap_pages(unsigned long virt, unsigned long npages);

/* The physical address virt translates to, or PHYS_ADDR_INVALID. */
phys_addr_t virt_to_phys_walk(unsigned long virt);

#endif
