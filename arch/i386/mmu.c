/*
 * i386 paging: two-level tables with 4 KiB pages, one address space for
 * every CPU.
 *
 * The linear map (virtual == physical) uses 4 KiB pages throughout, so
 * that each page of RAM has a dirty bit of its own (arch/i386/written.c
 * reads them for the leak collector). The page directory and the tables
 * of the first 4 MiB (where page 0 must stay unmapped to catch NULL) and
 * of the APIC pages are static; paging_init() runs after mm_init() and
 * takes the linear map's other tables, one per 4 MiB of RAM, from the
 * page allocator. Everything mapped later (vmalloc) gets 4 KiB pages in
 * tables taken from the page allocator too; no table is ever freed (at
 * most 128 of them cover the whole vmalloc window), so unmapping never
 * allocates or frees.
 *
 * One lock, pgtable_lock, guards the page directory and tables; the
 * page allocator is only called with it released. Unmapping flushes
 * the TLB of this CPU and, through a cross call, of every other one.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/bootinfo.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <asm/pgtable.h>

#define CR0_WP		(1u << 16)	/* read-only binds the kernel too */
#define CR0_PG		(1u << 31)
#define CR4_PGE		(1u << 7)
#define CPUID_PGE	(1u << 13)

#define IOAPIC_BASE	0xfec00000UL
#define LAPIC_BASE	0xfee00000UL
#define LEGACY_IO_START	0xa0000UL	/* VGA and BIOS ROM: uncached */
#define LEGACY_IO_END	0x100000UL

static u32 page_dir[PTRS_PER_PTE] __aligned(PAGE_SIZE) __memleak_noscan;
static u32 low_table[PTRS_PER_PTE] __aligned(PAGE_SIZE) __memleak_noscan;
static u32 apic_table[PTRS_PER_PTE] __aligned(PAGE_SIZE) __memleak_noscan;

static u32 cr4_bits;		/* what paging_init() set, for the other CPUs */
static bool mmu_on;

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

/* The first 4 MiB, one page at a time, with page 0 left out. */
static void build_low_table(void)
{
	for (unsigned long i = 1; i < PTRS_PER_PTE; i++) {
		unsigned long addr = i << PAGE_SHIFT;
		unsigned int flags = MAP_KERNEL_RWX;

		if (addr >= LEGACY_IO_START && addr < LEGACY_IO_END)
			flags |= MAP_DEVICE;
		low_table[i] = mk_pte(addr, flags);
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

/* The 4 MiB of RAM at addr, in a table from the page allocator. */
static void map_linear_table(unsigned long addr)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	u32 *table;

	if (!page)
		panic("paging: no memory for the linear map's page tables");
	table = page_address(page);
	for (unsigned long i = 0; i < PTRS_PER_PTE; i++)
		table[i] = mk_pte(addr + (i << PAGE_SHIFT), MAP_KERNEL_RWX);
	page_dir[pgd_index(addr)] = __pa(table) | PTE_PRESENT | PTE_WRITE;
}

/* 4 KiB pages from 4 MiB up; returns where the linear map ends. */
static unsigned long build_linear_map(void)
{
	unsigned long end = lowmem_end();

	build_low_table();
	for (unsigned long addr = PGDIR_SIZE; addr && addr < end;
	     addr += PGDIR_SIZE)
		map_linear_table(addr);
	return end;
}

/* The local APIC and I/O APIC pages, uncached, in a static table. */
static void build_apic_map(void)
{
	const unsigned long pages[] = { IOAPIC_BASE, LAPIC_BASE };

	for (unsigned int i = 0; i < ARRAY_SIZE(pages); i++)
		apic_table[pte_index(pages[i])] =
			mk_pte(pages[i], MAP_KERNEL_RW | MAP_DEVICE);
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
	cr4_bits = (features & CPUID_PGE) ? CR4_PGE : 0;
	end = build_linear_map();
	build_apic_map();
	load_and_enable();
	mmu_on = true;
	printk("paging: linear map 0x%08lx-0x%08lx (4 KiB pages), page 0 "
	       "unmapped, APIC pages uncached, vmalloc 0x%08lx-0x%08lx\n",
	       PAGE_SIZE, end, VMALLOC_START, VMALLOC_END);
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

u32 *pgd_entry(unsigned long virt)
{
	return &page_dir[pgd_index(virt)];
}

void pgd_install_table(unsigned long virt, phys_addr_t table_page)
{
	page_dir[pgd_index(virt)] = (u32)table_page | PTE_PRESENT | PTE_WRITE;
}

void flush_tlb_kernel_page(unsigned long virt)
{
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

static void flush_tlb_all_ipi(void *info)
{
	(void)info;
	flush_tlb_all_local();
}

/*
 * The CPUs a debugger holds (GDB's calls into the kernel) cannot answer
 * a cross call: they are left out, and run nothing until it lets them go.
 */
void flush_tlb_all(void)
{
	flush_tlb_all_local();
	if (!READ_ONCE(smp_debugger_stopped))
		smp_call_function(flush_tlb_all_ipi, NULL, true);
}

/* The shootdown: the other CPUs may still hold the old translations. */
void flush_tlb_kernel_range(unsigned long virt, unsigned long npages)
{
	struct tlb_range range = { virt, npages };

	smp_call_function(flush_tlb_range_ipi, &range, true);
}
