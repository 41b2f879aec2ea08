/*
 * The page-table helpers each architecture gives mm/pgtable.c, the
 * generic walker. Its <asm/pgtable.h> includes this header, which
 * declares what arch/ARCH/mmu.c implements (where the static top-level
 * table is), and defines (the first two before including this one) the
 * entry formats as static inlines:
 *
 *   PTRS_PER_PTE             entries of a leaf table (4 KiB pages each)
 *   PGD_LARGE_NAME           what a large top-level mapping is called
 *   mk_pte(phys, flags)      a leaf entry for map_pages() flags
 *   pte_present(pte)         whether a leaf entry maps a page
 *   pte_phys(pte, virt)      the physical address virt maps to
 *   ptes_written()           barriers after leaf entries are written
 *   pgd_kind(pgd)            what a top-level entry holds (below)
 *   pgd_table(pgd)           the leaf table of a PGD_TABLE entry
 *   pgd_large_phys(pgd, virt) the physical address in a large mapping
 *
 * Tables have two levels of 32-bit entries.
 */
#ifndef ASM_GENERIC_PGTABLE_H
#define ASM_GENERIC_PGTABLE_H

#include <kernel/types.h>
#include <asm/page.h>

enum pgd_kind {
	PGD_NONE,	/* nothing mapped there */
	PGD_TABLE,	/* points to a leaf table */
	PGD_LARGE,	/* a large page of the linear map */
};

/* virt's entry in its leaf table. */
static inline unsigned int pte_index(unsigned long virt)
{
	return (virt >> PAGE_SHIFT) & (PTRS_PER_PTE - 1);
}

/* The top-level entry that covers virt. */
u32 *pgd_entry(unsigned long virt);

/*
 * Points the empty top-level entry of virt at the leaf table(s) of the
 * zeroed page table_page; pgtable_lock held.
 */
void pgd_install_table(unsigned long virt, phys_addr_t table_page);

/* After one leaf entry is cleared; pgtable_lock held. */
void flush_tlb_kernel_page(unsigned long virt);

/*
 * After unmapping npages from virt, pgtable_lock released: on return no
 * CPU holds a translation of them any more.
 */
void flush_tlb_kernel_range(unsigned long virt, unsigned long npages);

#endif
