/*
 * i386 paging: two-level tables with 4 KiB pages, one address space for
 * every CPU.
 *
 * The linear map (virtual == physical) uses 4 MiB PSE pages above 4 MiB,
 * so paging_init() needs no page allocator: the page directory and the
 * two page tables it does need (the first 4 MiB, where page 0 must stay
 * unmapped to catch NULL, and the APIC pages) are static. Everything
 * mapped later (vmalloc) gets 4 KiB pages in tables taken from the page
 * allocator; those tables are never freed (at most 128 of them cover
 * the whole vmalloc window), so unmapping never allocates or frees.
 *
 * One lock, pgtable_lock, guards the page directory and tables; the
 * page allocator is only called with it released. Unmapping flushes
 * the TLB of this CPU and, through a cross call, of every other one.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/bootinfo.h>
#include <kernel/errno.h>
#include <kernel/gfp.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <asm/mmu.h>

#define PTE_PRESENT	(1u << 0)
#define PTE_WRITE	(1u << 1)
#define PTE_PWT		(1u << 3)
#define PTE_PCD		(1u << 4)
#define PDE_LARGE	(1u << 7)	/* PS: a 4 MiB page */
#define PTE_GLOBAL	(1u << 8)
#define PTE_ADDR_MASK	0xfffff000u
#define PDE_LARGE_MASK	0xffc00000u

#define PGDIR_SHIFT	22
#define PGDIR_SIZE	(1UL << PGDIR_SHIFT)
#define PTRS_PER_TABLE	1024

#define CR0_WP		(1u << 16)	/* read-only binds the kernel too */
#define CR0_PG		(1u << 31)
#define CR4_PSE		(1u << 4)
#define CR4_PGE		(1u << 7)
#define CPUID_PSE	(1u << 3)
#define CPUID_PGE	(1u << 13)

#define IOAPIC_BASE	0xfec00000UL
#define LAPIC_BASE	0xfee00000UL
#define LEGACY_IO_START	0xa0000UL	/* VGA and BIOS ROM: uncached */
#define LEGACY_IO_END	0x100000UL

static u32 page_dir[PTRS_PER_TABLE] __aligned(PAGE_SIZE) __memleak_noscan;
static u32 low_table[PTRS_PER_TABLE] __aligned(PAGE_SIZE) __memleak_noscan;
static u32 apic_table[PTRS_PER_TABLE] __aligned(PAGE_SIZE) __memleak_noscan;

static DEFINE_SPINLOCK(pgtable_lock);
static u32 cr4_bits;		/* what paging_init() set, for the other CPUs */
static bool mmu_on;

static inline unsigned int pgd_index(unsigned long virt)
{
	return virt >> PGDIR_SHIFT;
}

static inline unsigned int pte_index(unsigned long virt)
{
	return (virt >> PAGE_SHIFT) & (PTRS_PER_TABLE - 1);
}

static inline u32 *pde_table(u32 pde)
{
	return __va(pde & PTE_ADDR_MASK);
}

static inline void invlpg(unsigned long virt)
{
	__asm__ __volatile__("invlpg (%0)" : : "r"(virt) : "memory");
}

static void cpuid1_edx(u32 *edx)
{
	u32 eax = 1, ebx, ecx;

	__asm__ __volatile__("cpuid"
			     : "+a"(eax), "=b"(ebx), "=c"(ecx), "=d"(*edx));
}

/* The PTE bits for map_pages() flags; every kernel page is global. */
static u32 pte_bits(unsigned int flags)
{
	u32 bits = PTE_PRESENT | PTE_GLOBAL;

	if (flags & MAP_WRITE)
		bits |= PTE_WRITE;
	if (flags & MAP_DEVICE)
		bits |= PTE_PCD | PTE_PWT;
	return bits;
}

/* The first 4 MiB, one page at a time, with page 0 left out. */
static void build_low_table(void)
{
	for (unsigned long i = 1; i < PTRS_PER_TABLE; i++) {
		unsigned long addr = i << PAGE_SHIFT;
		unsigned int flags = MAP_KERNEL_RWX;

		if (addr >= LEGACY_IO_START && addr < LEGACY_IO_END)
			flags |= MAP_DEVICE;
		low_table[i] = addr | pte_bits(flags);
	}
	page_dir[0] = __pa(low_table) | PTE_PRESENT | PTE_WRITE;
}

/* The end of RAM the linear map must cover, capped at LOWMEM_LIMIT. */
static unsigned long lowmem_end(void)
{
	phys_addr_t end = 0;

	for (int i = 0; i < boot_info.nr_ram; i++) {
		const struct mem_range *r = &boot_info.ram[i];

		end = max(end, r->base + r->size);
	}
	if (end > LOWMEM_LIMIT) {
		printk("paging: RAM above 0x%08lx is not mapped (not used)\n",
		       LOWMEM_LIMIT);
		end = LOWMEM_LIMIT;
	}
	return ALIGN((unsigned long)end, PGDIR_SIZE);
}

/* 4 MiB pages from 4 MiB up; returns where the linear map ends. */
static unsigned long build_linear_map(void)
{
	unsigned long end = lowmem_end();

	build_low_table();
	for (unsigned long addr = PGDIR_SIZE; addr && addr < end;
	     addr += PGDIR_SIZE)
		page_dir[pgd_index(addr)] = addr | PDE_LARGE |
					     pte_bits(MAP_KERNEL_RWX);
	return end;
}

/* The local APIC and I/O APIC pages, uncached, in a static table. */
static void build_apic_map(void)
{
	const unsigned long pages[] = { IOAPIC_BASE, LAPIC_BASE };

	for (unsigned int i = 0; i < ARRAY_SIZE(pages); i++)
		apic_table[pte_index(pages[i])] = pages[i] |
						  pte_bits(MAP_KERNEL_RW |
							   MAP_DEVICE);
	page_dir[pgd_index(IOAPIC_BASE)] = __pa(apic_table) | PTE_PRESENT |
					   PTE_WRITE;
}

/* CR4, CR3, then CR0.PG: thanks to the identity map, execution goes on. */
static void load_and_enable(void)
{
	u32 cr0, cr4;

	__asm__ __volatile__("mov %%cr4, %0" : "=r"(cr4));
	cr4 |= cr4_bits;
	__asm__ __volatile__("mov %0, %%cr4" : : "r"(cr4) : "memory");
	__asm__ __volatile__("mov %0, %%cr3"
			     : : "r"(__pa(page_dir)) : "memory");
	__asm__ __volatile__("mov %%cr0, %0" : "=r"(cr0));
	cr0 |= CR0_PG | CR0_WP;
	__asm__ __volatile__("mov %0, %%cr0" : : "r"(cr0) : "memory");
}

void paging_init(void)
{
	unsigned long end;
	u32 features;

	if (mmu_on)
		return;
	cpuid1_edx(&features);
	if (!(features & CPUID_PSE))
		panic("paging: this CPU has no 4 MiB pages (PSE)");
	cr4_bits = CR4_PSE | ((features & CPUID_PGE) ? CR4_PGE : 0);
	end = build_linear_map();
	build_apic_map();
	load_and_enable();
	mmu_on = true;
	printk("paging: linear map 0x%08lx-0x%08lx (4 MiB pages above "
	       "4 MiB), page 0 unmapped, APIC pages uncached, "
	       "vmalloc 0x%08lx-0x%08lx\n", PAGE_SIZE, end, VMALLOC_START,
	       VMALLOC_END);
}

void mmu_init_secondary(void)
{
	if (!mmu_on)
		panic("mmu_init_secondary() before paging_init()");
	load_and_enable();
}

bool paging_enabled(void)
{
	return mmu_on;
}

/* A 4 MiB page of the linear map cannot take 4 KiB mappings. */
static int check_not_large(unsigned long virt, u32 pde)
{
	if (!(pde & PDE_LARGE))
		return 0;
	printk("map_pages: 0x%08lx is inside a 4 MiB page of the linear map\n",
	       virt);
	return -EEXIST;
}

/*
 * Makes sure a page table covers virt, allocating one with pgtable_lock
 * released. Returns 0, -ENOMEM, or -EEXIST when a 4 MiB page is there.
 */
static int ensure_table(unsigned long virt)
{
	u32 *pde = &page_dir[pgd_index(virt)];
	struct page *page;
	bool installed = false;
	unsigned long flags;

	if (READ_ONCE(*pde) & PTE_PRESENT)
		return check_not_large(virt, READ_ONCE(*pde));
	page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
	if (!page)
		return -ENOMEM;
	flags = spin_lock_irqsave(&pgtable_lock);
	if (!(*pde & PTE_PRESENT)) {
		*pde = (u32)page_to_phys(page) | PTE_PRESENT | PTE_WRITE;
		installed = true;
	}
	spin_unlock_irqrestore(&pgtable_lock, flags);
	if (installed)
		mod_page_state(NR_PAGETABLE_PAGES, 1);
	else
		__free_pages(page, 0);
	return check_not_large(virt, READ_ONCE(*pde));
}

/* Fills n PTEs of one table, all or none; pgtable_lock is held. */
static int fill_ptes(unsigned long virt, phys_addr_t phys, unsigned long n,
		     u32 bits)
{
	u32 *table = pde_table(page_dir[pgd_index(virt)]);
	unsigned int first = pte_index(virt);

	for (unsigned long i = 0; i < n; i++) {
		if (table[first + i] & PTE_PRESENT) {
			printk("map_pages: 0x%08lx is already mapped\n",
			       virt + i * PAGE_SIZE);
			return -EEXIST;
		}
	}
	/* Not-present entries are never cached in the TLB: no flush. */
	for (unsigned long i = 0; i < n; i++)
		table[first + i] = (u32)(phys + i * PAGE_SIZE) | bits;
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
				      PTRS_PER_TABLE - pte_index(v));
		unsigned long irq;

		err = ensure_table(v);
		if (err)
			break;
		irq = spin_lock_irqsave(&pgtable_lock);
		err = fill_ptes(v, phys + done * PAGE_SIZE, n, pte_bits(flags));
		spin_unlock_irqrestore(&pgtable_lock, irq);
		if (!err)
			done += n;
	}
	if (err && done)
		unmap_pages(virt, done);
	return err;
}

/* Clears the PTE of one page; pgtable_lock is held. */
static void unmap_one(unsigned long virt)
{
	u32 pde = page_dir[pgd_index(virt)];
	u32 *pte;

	if (!(pde & PTE_PRESENT) || (pde & PDE_LARGE)) {
		printk("unmap_pages: 0x%08lx is not in a page table\n", virt);
		return;
	}
	pte = &pde_table(pde)[pte_index(virt)];
	if (!(*pte & PTE_PRESENT)) {
		printk("unmap_pages: 0x%08lx was not mapped\n", virt);
		return;
	}
	*pte = 0;
	invlpg(virt);
}

struct tlb_range {
	unsigned long start, npages;
};

/* Above this many pages one flush of everything is cheaper. */
#define FLUSH_ALL_PAGES 32

/* Every kernel page is global: only toggling CR4.PGE drops those. */
static void flush_tlb_all_local(void)
{
	u32 cr4;

	__asm__ __volatile__("mov %%cr4, %0" : "=r"(cr4));
	if (cr4 & CR4_PGE) {
		__asm__ __volatile__("mov %0, %%cr4"
				     : : "r"(cr4 & ~CR4_PGE) : "memory");
		__asm__ __volatile__("mov %0, %%cr4" : : "r"(cr4) : "memory");
	} else {
		__asm__ __volatile__("mov %%cr3, %%eax; mov %%eax, %%cr3"
				     : : : "eax", "memory");
	}
}

/* On each other CPU (a cross call), for what unmap_pages() removed. */
static void flush_tlb_range_ipi(void *info)
{
	const struct tlb_range *r = info;

	if (r->npages > FLUSH_ALL_PAGES) {
		flush_tlb_all_local();
		return;
	}
	for (unsigned long i = 0; i < r->npages; i++)
		invlpg(r->start + i * PAGE_SIZE);
}

void unmap_pages(unsigned long virt, unsigned long npages)
{
	struct tlb_range range = { virt, npages };
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
	 * The shootdown: the other CPUs may still hold the old
	 * translations, and the caller frees the pages once this returns.
	 * Outside the lock, so a CPU spinning on it is not waited for.
	 */
	smp_call_function(flush_tlb_range_ipi, &range, true);
}

phys_addr_t virt_to_phys_walk(unsigned long virt)
{
	u32 pde = READ_ONCE(page_dir[pgd_index(virt)]);
	u32 pte;

	if (!(pde & PTE_PRESENT))
		return PHYS_ADDR_INVALID;
	if (pde & PDE_LARGE)
		return (pde & PDE_LARGE_MASK) | (virt & (PGDIR_SIZE - 1));
	pte = READ_ONCE(pde_table(pde)[pte_index(virt)]);
	if (!(pte & PTE_PRESENT))
		return PHYS_ADDR_INVALID;
	return (pte & PTE_ADDR_MASK) | (virt & (PAGE_SIZE - 1));
}
