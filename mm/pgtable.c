/*
 * The page-table walker every architecture shares: map_pages(),
 * unmap_pages() and virt_to_phys_walk() over two-level tables, through
 * the small helpers of <kernel/pgtable.h> (the entry formats, where the
 * top-level table is, TLB maintenance).
 *
 *   top level (static, the arch's)      leaf tables (page allocator)
 *   [ none | large page | table ] ----> [ pte pte pte ... PTRS_PER_PTE ]
 *
 * Only the linear map, built at boot, uses large pages; everything
 * mapped here gets 4 KiB pages in leaf tables that are never freed (at
 * most 128 cover the vmalloc window), so unmapping never allocates or
 * frees.
 *
 * Locking: pgtable_lock guards the tables; the page allocator is only
 * called with it released, and the other CPUs' TLBs are flushed after.
 */
#include <kernel/kernel.h>
#include <kernel/errno.h>
#include <kernel/gfp.h>
#include <kernel/mm.h>
#include <kernel/mmu.h>
#include <kernel/pgtable.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>

static DEFINE_SPINLOCK(pgtable_lock);

/* A large page of the linear map cannot take 4 KiB mappings. */
static int check_not_large(unsigned long virt, u32 pgd)
{
	if (pgd_kind(pgd) != PGD_LARGE)
		return 0;
	printk("map_pages: 0x%08lx is inside a %s of the linear map\n", virt,
	       PGD_LARGE_NAME);
	return -EEXIST;
}

/*
 * Makes sure a leaf table covers virt, allocating one with pgtable_lock
 * released. Returns 0, -ENOMEM, or -EEXIST when a large page is there.
 */
static int ensure_table(unsigned long virt)
{
	u32 *pgd = pgd_entry(virt);
	struct page *page;
	bool installed = false;
	unsigned long flags;

	if (pgd_kind(READ_ONCE(*pgd)) != PGD_NONE)
		return check_not_large(virt, READ_ONCE(*pgd));
	page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
	if (!page)
		return -ENOMEM;
	flags = spin_lock_irqsave(&pgtable_lock);
	if (pgd_kind(*pgd) == PGD_NONE) {
		pgd_install_table(virt, page_to_phys(page));
		installed = true;
	}
	spin_unlock_irqrestore(&pgtable_lock, flags);
	if (installed)
		mod_page_state(NR_PAGETABLE_PAGES, 1);
	else
		__free_pages(page, 0);
	return check_not_large(virt, READ_ONCE(*pgd));
}

/* Fills n entries of one leaf table, all or none; pgtable_lock held. */
static int fill_ptes(unsigned long virt, phys_addr_t phys, unsigned long n,
		     unsigned int flags)
{
	u32 *table = pgd_table(*pgd_entry(virt));
	unsigned int first = pte_index(virt);

	for (unsigned long i = 0; i < n; i++) {
		if (pte_present(table[first + i])) {
			printk("map_pages: 0x%08lx is already mapped\n",
			       virt + i * PAGE_SIZE);
			return -EEXIST;
		}
	}
	for (unsigned long i = 0; i < n; i++)
		table[first + i] = mk_pte(phys + i * PAGE_SIZE, flags);
	/* Not-present entries are never cached in a TLB: no flush. */
	ptes_written();
	return 0;
}

static int check_map_args(unsigned long virt, phys_addr_t phys,
			  unsigned long npages, unsigned int flags)
{
	unsigned long last = virt + (npages - 1) * PAGE_SIZE;

	if (!IS_ALIGNED(virt, PAGE_SIZE) || !IS_ALIGNED(phys, PAGE_SIZE) ||
	    npages == 0 || npages > (~0UL >> PAGE_SHIFT) ||
	    (flags & ~MAP_FLAGS_ALL) || last < virt ||
	    phys + (phys_addr_t)npages * PAGE_SIZE > (1ULL << 32)) {
		printk("map_pages: bad arguments virt 0x%08lx phys 0x%08llx "
		       "npages %lu flags %#x\n", virt, phys, npages, flags);
		return -EINVAL;
	}
	return 0;
}

int map_pages(unsigned long virt, phys_addr_t phys, unsigned long npages,
	      unsigned int flags)
{
	unsigned long done = 0;
	int err = check_map_args(virt, phys, npages, flags);

	while (!err && done < npages) {
		unsigned long v = virt + done * PAGE_SIZE;
		unsigned long n = min(npages - done,
				      PTRS_PER_PTE - pte_index(v));
		unsigned long irq;

		err = ensure_table(v);
		if (err)
			break;
		irq = spin_lock_irqsave(&pgtable_lock);
		err = fill_ptes(v, phys + done * PAGE_SIZE, n, flags);
		spin_unlock_irqrestore(&pgtable_lock, irq);
		if (!err)
			done += n;
	}
	if (err && done)
		unmap_pages(virt, done);
	return err;
}

/* Clears the entry of one page; pgtable_lock held. */
static void unmap_one(unsigned long virt)
{
	u32 pgd = *pgd_entry(virt);
	u32 *pte;

	if (pgd_kind(pgd) != PGD_TABLE) {
		printk("unmap_pages: 0x%08lx is not in a page table\n", virt);
		return;
	}
	pte = &pgd_table(pgd)[pte_index(virt)];
	if (!pte_present(*pte)) {
		printk("unmap_pages: 0x%08lx was not mapped\n", virt);
		return;
	}
	*pte = 0;
	flush_tlb_kernel_page(virt);
}

void unmap_pages(unsigned long virt, unsigned long npages)
{
	unsigned long flags;

	if (!IS_ALIGNED(virt, PAGE_SIZE)) {
		printk("unmap_pages: 0x%08lx is not page aligned\n", virt);
		return;
	}
	flags = spin_lock_irqsave(&pgtable_lock);
	for (unsigned long i = 0; i < npages; i++)
		unmap_one(virt + i * PAGE_SIZE);
	spin_unlock_irqrestore(&pgtable_lock, flags);
	/*
	 * Every CPU must have dropped the old translations before the
	 * caller frees the pages. Outside the lock, so that a CPU spinning
	 * on it is not waited for.
	 */
	flush_tlb_kernel_range(virt, npages);
}

phys_addr_t virt_to_phys_walk(unsigned long virt)
{
	u32 pgd = READ_ONCE(*pgd_entry(virt));
	u32 pte;

	switch (pgd_kind(pgd)) {
	case PGD_LARGE:
		return pgd_large_phys(pgd, virt);
	case PGD_TABLE:
		pte = READ_ONCE(pgd_table(pgd)[pte_index(virt)]);
		return pte_present(pte) ? pte_phys(pte, virt) :
					  PHYS_ADDR_INVALID;
	default:
		return PHYS_ADDR_INVALID;
	}
}
