/*
 * ARM short-descriptor page-table entries for the generic walker
 * (mm/pgtable.c, <asm-generic/pgtable.h>): a first-level table of 4096
 * entries, each empty, a 1 MiB section (16 MiB supersection) or a
 * second-level table of 256 4 KiB pages. A leaf-table page holds four
 * such tables, for the four entries of an aligned 4 MiB span.
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include <kernel/mmu.h>
#include <kernel/types.h>

/* First-level descriptors. */
#define L1_TYPE_MASK	3u
#define L1_FAULT	0u
#define L1_TABLE	1u
#define L1_SECTION_BIT	2u	/* 0b1x: section; bit 0 is then PXN */
#define SECT_B		(1u << 2)
#define SECT_C		(1u << 3)
#define SECT_XN		(1u << 4)
#define SECT_AP0	(1u << 10)	/* AP[1:0] = 01: PL1 only */
#define SECT_TEX1	(1u << 12)
#define SECT_AP2	(1u << 15)	/* read-only */
#define SECT_S		(1u << 16)
#define SECT_SUPER	(1u << 18)
#define SECTION_SHIFT	20
#define SECTION_SIZE	(1UL << SECTION_SHIFT)
#define SECTION_MASK	0xfff00000u
#define SUPER_MASK	0xff000000u
#define L1_ENTRIES	4096
#define L1_TABLE_ADDR	0xfffffc00u

/* Second-level descriptors. */
#define L2_XN		(1u << 0)
#define L2_SMALL	(1u << 1)
#define L2_LARGE	1u
#define L2_TYPE_MASK	3u
#define L2_B		(1u << 2)
#define L2_C		(1u << 3)
#define L2_AP0		(1u << 4)
#define L2_TEX1		(1u << 6)
#define L2_AP2		(1u << 9)
#define L2_S		(1u << 10)
#define L2_ENTRIES	256
#define L2_TABLE_SIZE	(L2_ENTRIES * 4)
#define L2_PER_PAGE	(PAGE_SIZE / L2_TABLE_SIZE)
#define LARGE_MASK	0xffff0000u

#define PTRS_PER_PTE	L2_ENTRIES
#define PGD_LARGE_NAME	"1 MiB section"

#include <asm-generic/pgtable.h>

static inline unsigned int l1_index(unsigned long virt)
{
	return virt >> SECTION_SHIFT;
}

/* Small-page bits for map flags: RAM normal WBWA shareable, devices XN. */
static inline u32 small_page_bits(unsigned int flags)
{
	u32 bits = L2_SMALL | L2_AP0;

	if (flags & MAP_DEVICE)
		bits |= L2_B | L2_XN;
	else
		bits |= L2_TEX1 | L2_C | L2_B | L2_S;
	if (!(flags & MAP_WRITE))
		bits |= L2_AP2;
	if (!(flags & MAP_EXEC))
		bits |= L2_XN;
	return bits;
}

static inline u32 mk_pte(phys_addr_t phys, unsigned int flags)
{
	return (u32)phys | small_page_bits(flags);
}

/* A small page (0b1x) or a 64 KiB large page (0b01). */
static inline bool pte_present(u32 pte)
{
	return pte & L2_TYPE_MASK;
}

static inline phys_addr_t pte_phys(u32 pte, unsigned long virt)
{
	if (pte & L2_SMALL)
		return (pte & PAGE_MASK) | (virt & ~PAGE_MASK);
	return (pte & LARGE_MASK) | (virt & ~LARGE_MASK);
}

/*
 * The table walker sees the new entries (Cortex-A15 walks coherently
 * with the data cache: a DSB is enough), then so does what follows.
 */
static inline void ptes_written(void)
{
	__asm__ __volatile__("dsb ish" : : : "memory");
	__asm__ __volatile__("isb" : : : "memory");
}

static inline enum pgd_kind pgd_kind(u32 l1)
{
	if (l1 & L1_SECTION_BIT)
		return PGD_LARGE;
	return (l1 & L1_TYPE_MASK) == L1_TABLE ? PGD_TABLE : PGD_NONE;
}

static inline u32 *pgd_table(u32 l1)
{
	return __va(l1 & L1_TABLE_ADDR);
}

static inline phys_addr_t pgd_large_phys(u32 l1, unsigned long virt)
{
	if (l1 & SECT_SUPER)
		return (l1 & SUPER_MASK) | (virt & ~SUPER_MASK);
	return (l1 & SECTION_MASK) | (virt & ~SECTION_MASK);
}

#endif
