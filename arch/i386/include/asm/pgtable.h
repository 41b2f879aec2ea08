/*
 * i386 page-table entries for the generic walker (mm/pgtable.c,
 * <asm-generic/pgtable.h>): a page directory of 1024 entries, each
 * empty, a 4 MiB page (PSE) or a table of 1024 4 KiB pages.
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include <kernel/mmu.h>
#include <kernel/types.h>

#define PTE_PRESENT	(1u << 0)
#define PTE_WRITE	(1u << 1)
#define PTE_PWT		(1u << 3)
#define PTE_PCD		(1u << 4)
#define PTE_DIRTY	(1u << 6)	/* set by the CPU on a write */
#define PDE_LARGE	(1u << 7)	/* PS: a 4 MiB page */
#define PTE_GLOBAL	(1u << 8)
#define PTE_ADDR_MASK	0xfffff000u
#define PDE_LARGE_MASK	0xffc00000u

#define PGDIR_SHIFT	22
#define PGDIR_SIZE	(1UL << PGDIR_SHIFT)
#define PTRS_PER_PTE	1024
#define PGD_LARGE_NAME	"4 MiB page"

#include <asm-generic/pgtable.h>

/*
 * Every CPU's TLB, this one's and, through a cross call, the others'
 * (but those a debugger holds stopped).
 */
void flush_tlb_all(void);

static inline unsigned int pgd_index(unsigned long virt)
{
	return virt >> PGDIR_SHIFT;
}

/*
 * An entry for map_pages() flags: present, global (every kernel page
 * is), writable or not, uncached for devices (no no-execute bit here).
 */
static inline u32 mk_pte(phys_addr_t phys, unsigned int flags)
{
	return (u32)phys | PTE_PRESENT | PTE_GLOBAL |
	       (flags & MAP_WRITE ? PTE_WRITE : 0) |
	       (flags & MAP_DEVICE ? PTE_PCD | PTE_PWT : 0);
}

static inline bool pte_present(u32 pte)
{
	return pte & PTE_PRESENT;
}

static inline phys_addr_t pte_phys(u32 pte, unsigned long virt)
{
	return (pte & PTE_ADDR_MASK) | (virt & (PAGE_SIZE - 1));
}

/* The MMU reads the tables as they are in memory: nothing to do. */
static inline void ptes_written(void)
{
}

static inline enum pgd_kind pgd_kind(u32 pde)
{
	if (!(pde & PTE_PRESENT))
		return PGD_NONE;
	return pde & PDE_LARGE ? PGD_LARGE : PGD_TABLE;
}

static inline u32 *pgd_table(u32 pde)
{
	return __va(pde & PTE_ADDR_MASK);
}

static inline phys_addr_t pgd_large_phys(u32 pde, unsigned long virt)
{
	return (pde & PDE_LARGE_MASK) | (virt & (PGDIR_SIZE - 1));
}

#endif
