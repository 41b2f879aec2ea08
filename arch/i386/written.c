/*
 * Written pages (<kernel/written.h>) from the page tables' dirty bits:
 * the CPU sets a PTE's D bit on the first write through it, and every
 * page of RAM has a PTE of its own in the linear map (mmu.c). Tracking
 * starts by clearing those bits and flushing every CPU's TLB (a cached
 * translation would let a write through without setting the bit again);
 * the bits are read back as they are in memory, where the CPU sets them
 * before the write it makes. A write through another mapping (a vmalloc
 * area's) sets that mapping's bit: such memory is read through its own
 * addresses, outside RAM, which the caller counts as written anyway.
 *
 * Under GDB's calls the other CPUs are held stopped: their TLBs are not
 * flushed (flush_tlb_all()), and they write nothing while the scan runs.
 *
 * Locking: one tracker at a time, as <kernel/written.h> says: the bits
 * are the same for everyone, and a second caller clearing them would
 * erase writes the first must see. The scan and 'selftest written' may
 * run together (memleak scan=1), so the claim is a flag taken with an
 * atomic exchange, and a second caller is told "cannot". The dirty bits
 * are read and cleared only here. Clearing races only with the CPUs
 * setting bits, for writes made before the flush: those were there to be
 * read.
 */
#include <kernel/written.h>
#include <kernel/bitops.h>
#include <kernel/kernel.h>
#include <kernel/mm.h>
#include <asm/pgtable.h>

/* The linear map's table covering the 4 MiB at addr; NULL: none. */
static u32 *linear_table(unsigned long addr)
{
	u32 pde = *pgd_entry(addr);

	return pgd_kind(pde) == PGD_TABLE ? pgd_table(pde) : NULL;
}

/* The pfns of RAM from pfn on that share its table: up to where it ends. */
static unsigned long table_end(unsigned long pfn)
{
	return min(max_pfn, ALIGN(pfn + 1, PTRS_PER_PTE));
}

/* Set from arch_track_written_pages() to arch_untrack_written_pages(). */
static bool tracking;

bool arch_track_written_pages(void)
{
	if (__atomic_exchange_n(&tracking, true, __ATOMIC_ACQUIRE))
		return false;	/* another tracker's bits: not to be cleared */
	for (unsigned long pfn = min_pfn, end; pfn < max_pfn; pfn = end) {
		u32 *table = linear_table(pfn << PAGE_SHIFT);

		end = table_end(pfn);
		for (; table && pfn < end; pfn++)
			table[pfn % PTRS_PER_PTE] &= ~PTE_DIRTY;
	}
	flush_tlb_all();
	return true;
}

bool arch_written_pages(unsigned long *bits)
{
	for (unsigned long pfn = min_pfn, end; pfn < max_pfn; pfn = end) {
		const u32 *table = linear_table(pfn << PAGE_SHIFT);

		end = table_end(pfn);
		for (; pfn < end; pfn++)
			if (!table || (table[pfn % PTRS_PER_PTE] & PTE_DIRTY))
				set_bit(pfn - min_pfn, bits);
	}
	return true;
}

/* The dirty bits mean nothing to anyone else: they may stay as they are. */
void arch_untrack_written_pages(void)
{
	__atomic_store_n(&tracking, false, __ATOMIC_RELEASE);
}
