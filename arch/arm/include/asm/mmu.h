/*
 * ARM page tables: the interface generic code (vmalloc, tests, the
 * collector's GDB helpers) uses to map and walk kernel pages. The i386
 * header declares exactly the same functions and flags.
 */
#ifndef ASM_MMU_H
#define ASM_MMU_H

#include <kernel/types.h>
#include <asm/page.h>

/*
 * map_pages() flags. MAP_KERNEL_RW is ordinary kernel data (normal
 * write-back memory, never executable); MAP_DEVICE is memory-mapped I/O
 * (device memory, never executable); MAP_EXEC allows instruction fetch.
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
 * paging on. Needs no page allocator: the tables it uses are static.
 */
void paging_init(void);

/*
 * Turns the MMU and caches on for a secondary CPU with the tables the
 * boot CPU built in paging_init(). Call it once on each CPU, first
 * thing, with its MMU and caches still off; it invalidates only that
 * CPU's own L1 caches, never the L2 the other CPUs share. Until it
 * returns, the CPU reads memory past the caches: whatever it needs
 * before (its stack, its arguments) must have been cleaned to memory
 * by the CPU that wrote it.
 */
void mmu_init_secondary(void);

/*
 * Maps npages pages at virt (page aligned) to the physical pages from
 * phys on. Page-table pages come from the page allocator. Returns 0, or
 * -ENOMEM when a page table cannot be allocated, -EEXIST when a page in
 * the range is already mapped, -EINVAL for bad arguments; on failure
 * nothing of the range stays mapped.
 */
int map_pages(unsigned long virt, phys_addr_t phys, unsigned long npages,
	      unsigned int flags);

/* Unmaps npages pages from virt and flushes them from the TLB. */
void unmap_pages(unsigned long virt, unsigned long npages);

/* The physical address virt translates to, or PHYS_ADDR_INVALID. */
phys_addr_t virt_to_phys_walk(unsigned long virt);

/*
 * Data cache maintenance to the point of coherency, for what a CPU
 * with its caches still off (a secondary being started) reads or
 * writes: clean writes dirty lines back; flush also drops them, so no
 * stale line can later overwrite what that CPU wrote to memory.
 */
void dcache_clean_range(const void *start, size_t size);
void dcache_flush_range(const void *start, size_t size);

/* True once paging_init() has turned the MMU on. */
bool paging_enabled(void);

#endif
