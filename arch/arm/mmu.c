/*
 * ARM paging: ARMv7 short-descriptor translation tables through TTBR0
 * (TTBCR.N = 0, so one 16 KiB first-level table covers all 4 GiB), one
 * address space for every CPU, domain 0 as "client" (permissions from
 * the descriptors).
 *
 * The linear map of RAM and the devices use 1 MiB sections in the
 * static first-level table, so paging_init() needs no page allocator.
 * Pages mapped later (vmalloc) use 256-entry second-level tables of
 * 1 KiB: one page from the page allocator holds four of them and serves
 * the four first-level entries of an aligned 4 MiB span, so that a
 * table page covers 4 MiB as on i386 and no sub-page allocator is
 * needed. Table pages are never freed (128 at most cover the vmalloc
 * window), so unmapping never allocates or frees.
 *
 * RAM is normal memory, write-back write-allocate, shareable (ready
 * for SMP); devices are shareable device memory, execute-never. The
 * table walker reads the tables through the same cacheable attributes
 * (TTBR0 flags), which Cortex-A15 keeps coherent with the data cache:
 * a DSB after writing a descriptor is enough, no cache cleaning.
 *
 * One lock, pgtable_lock, guards the tables; the page allocator is only
 * called with it released.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/bootinfo.h>
#include <kernel/errno.h>
#include <kernel/gfp.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/spinlock.h>
#include <asm/mmu.h>

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

/* Control registers. */
#define SCTLR_M		(1u << 0)
#define SCTLR_A		(1u << 1)
#define SCTLR_C		(1u << 2)
#define SCTLR_Z		(1u << 11)
#define SCTLR_I		(1u << 12)
#define SCTLR_TRE	(1u << 28)
#define SCTLR_AFE	(1u << 29)
#define ACTLR_SMP	(1u << 6)	/* Cortex-A15: take part in coherency */
#define DACR_CLIENT0	1u
/* Table walks: inner and outer write-back write-allocate, inner shareable. */
#define TTBR_IRGN0	(1u << 6)
#define TTBR_NOS	(1u << 5)
#define TTBR_RGN_WBWA	(1u << 3)
#define TTBR_S		(1u << 1)
#define TTBR_FLAGS	(TTBR_IRGN0 | TTBR_NOS | TTBR_RGN_WBWA | TTBR_S)

/* QEMU virt: GIC, UART, RTC, GPIO, virtio-mmio. */
#define DEVICE_START	0x08000000UL
#define DEVICE_END	0x0a200000UL

static u32 l1_table[L1_ENTRIES] __aligned(16384) __memleak_noscan;
static DEFINE_SPINLOCK(pgtable_lock);
static bool mmu_on;

#define cp15_read(op1, crn, crm, op2) ({                                  \
	u32 __v;                                                          \
	__asm__ __volatile__("mrc p15, " #op1 ", %0, " #crn ", " #crm ", " \
			     #op2 : "=r"(__v));                           \
	__v; })
#define cp15_write(op1, crn, crm, op2, v)                                 \
	__asm__ __volatile__("mcr p15, " #op1 ", %0, " #crn ", " #crm ", " \
			     #op2 : : "r"((u32)(v)) : "memory")

static inline void dsb(void)
{
	__asm__ __volatile__("dsb ish" : : : "memory");
}

static inline void isb(void)
{
	__asm__ __volatile__("isb" : : : "memory");
}

static inline unsigned int l1_index(unsigned long virt)
{
	return virt >> SECTION_SHIFT;
}

static inline unsigned int l2_index(unsigned long virt)
{
	return (virt >> PAGE_SHIFT) & (L2_ENTRIES - 1);
}

static inline u32 *l1_entry_table(u32 l1)
{
	return __va(l1 & L1_TABLE_ADDR);
}

/* Section bits for map flags: RAM normal WBWA shareable, devices XN. */
static u32 section_bits(unsigned int flags)
{
	u32 bits = L1_SECTION_BIT | SECT_AP0;

	if (flags & MAP_DEVICE)
		bits |= SECT_B | SECT_XN;
	else
		bits |= SECT_TEX1 | SECT_C | SECT_B | SECT_S;
	if (!(flags & MAP_WRITE))
		bits |= SECT_AP2;
	if (!(flags & MAP_EXEC))
		bits |= SECT_XN;
	return bits;
}

/* Small-page bits for map flags, with the same meaning as above. */
static u32 small_page_bits(unsigned int flags)
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

static void map_sections(unsigned long start, unsigned long end,
			 unsigned int flags)
{
	for (unsigned long addr = start; addr && addr < end;
	     addr += SECTION_SIZE)
		l1_table[l1_index(addr)] = addr | section_bits(flags);
}

/* Every RAM range, rounded out to sections, up to LOWMEM_LIMIT. */
static void build_linear_map(void)
{
	for (int i = 0; i < boot_info.nr_ram; i++) {
		const struct mem_range *r = &boot_info.ram[i];
		phys_addr_t end = r->base + r->size;

		if (r->base >= LOWMEM_LIMIT)
			continue;
		if (end > LOWMEM_LIMIT) {
			printk("paging: RAM above 0x%08lx is not mapped\n",
			       LOWMEM_LIMIT);
			end = LOWMEM_LIMIT;
		}
		map_sections(ALIGN_DOWN((unsigned long)r->base, SECTION_SIZE),
			     ALIGN((unsigned long)end, SECTION_SIZE),
			     MAP_KERNEL_RWX);
		printk("paging: linear map 0x%08llx-0x%08llx "
		       "(1 MiB sections)\n", r->base, end);
	}
}

/*
 * Invalidates (never cleans) the data and unified caches by set/way,
 * levels 0..levels-1. Right only while the caches are off: memory is
 * then the truth and any line is stale, so writing one back could only
 * overwrite newer data. (QEMU has no caches; real Cortex-A15s come out
 * of reset with them invalid, but a boot loader may not.)
 */
static void dcache_invalidate_levels(unsigned int levels)
{
	u32 clidr = cp15_read(1, c0, c0, 1);

	for (unsigned int level = 0; level < levels; level++) {
		u32 type = (clidr >> (3 * level)) & 7;
		u32 ccsidr, line_shift, ways, sets, way_shift;

		if (type < 2)		/* no cache or instruction only */
			continue;
		cp15_write(2, c0, c0, 0, level << 1);	/* CSSELR */
		isb();
		ccsidr = cp15_read(1, c0, c0, 0);
		line_shift = (ccsidr & 7) + 4;
		ways = ((ccsidr >> 3) & 0x3ff) + 1;
		sets = ((ccsidr >> 13) & 0x7fff) + 1;
		way_shift = ways > 1 ? __builtin_clz(ways - 1) : 0;
		for (u32 way = 0; way < ways; way++)
			for (u32 set = 0; set < sets; set++)
				cp15_write(0, c7, c6, 2, (way << way_shift) |
					   (set << line_shift) | (level << 1));
	}
	dsb();
}

/* The cache levels up to the Level of Coherence (CLIDR.LoC). */
static unsigned int cache_levels_to_coherence(void)
{
	return (cp15_read(1, c0, c0, 1) >> 24) & 7;
}

/*
 * Turns the MMU and caches on with l1_table, from a state with both
 * off. Stale cache and TLB contents go first: data cache (the given
 * levels), instruction cache, branch predictor, TLB.
 */
static void mmu_enable(unsigned int dcache_levels)
{
	u32 sctlr = cp15_read(0, c1, c0, 0);
	u32 actlr = cp15_read(0, c1, c0, 1);

	if (sctlr & (SCTLR_M | SCTLR_C))
		panic("paging: MMU or data cache already on at boot");
	dcache_invalidate_levels(dcache_levels);
	cp15_write(0, c7, c5, 0, 0);		/* ICIALLU */
	cp15_write(0, c7, c5, 6, 0);		/* BPIALL */
	cp15_write(0, c8, c7, 0, 0);		/* TLBIALL */
	dsb();
	isb();
	/* Where only the secure world may set the bit, the write is ignored. */
	if (!(actlr & ACTLR_SMP))
		cp15_write(0, c1, c0, 1, actlr | ACTLR_SMP);
	cp15_write(0, c2, c0, 2, 0);		/* TTBCR: N = 0, short format */
	cp15_write(0, c2, c0, 0, __pa(l1_table) | TTBR_FLAGS);
	cp15_write(0, c3, c0, 0, DACR_CLIENT0);
	isb();
	sctlr &= ~(SCTLR_A | SCTLR_TRE | SCTLR_AFE);
	sctlr |= SCTLR_M | SCTLR_C | SCTLR_I | SCTLR_Z;
	cp15_write(0, c1, c0, 0, sctlr);
	isb();
}

void paging_init(void)
{
	if (mmu_on)
		return;
	/* ID_MMFR3.CohWalk: without it, every descriptor write needs a clean. */
	if (((cp15_read(0, c0, c1, 7) >> 20) & 0xf) == 0)
		panic("paging: table walks do not snoop the data cache");
	build_linear_map();
	map_sections(DEVICE_START, DEVICE_END, MAP_KERNEL_RW | MAP_DEVICE);
	dsb();
	mmu_enable(cache_levels_to_coherence());
	mmu_on = true;
	/* Secondary CPUs read mmu_on with their caches still off. */
	cp15_write(0, c7, c10, 1, (unsigned long)&mmu_on);	/* DCCMVAC */
	dsb();
	printk("paging: MMU and caches on; devices 0x%08lx-0x%08lx uncached, "
	       "nothing mapped below them, vmalloc 0x%08lx-0x%08lx\n",
	       DEVICE_START, DEVICE_END, VMALLOC_START, VMALLOC_END);
}

/* The smallest data cache line (CTR.DminLine, in words). */
static unsigned long dcache_line_size(void)
{
	return 4ul << ((cp15_read(0, c0, c0, 1) >> 16) & 0xf);
}

/* Runs op (a cp15 write of one line by address) over [start, start+size). */
#define dcache_range_op(start, size, crm, op2)                            \
	do {                                                              \
		unsigned long __line = dcache_line_size();                \
		unsigned long __a = ALIGN_DOWN((unsigned long)(start), __line); \
		unsigned long __end = (unsigned long)(start) + (size);   \
		for (; __a < __end; __a += __line)                        \
			cp15_write(0, c7, crm, op2, __a);                 \
		dsb();                                                    \
	} while (0)

void dcache_clean_range(const void *start, size_t size)
{
	dcache_range_op(start, size, c10, 1);	/* DCCMVAC */
}

void dcache_flush_range(const void *start, size_t size)
{
	dcache_range_op(start, size, c14, 1);	/* DCCIMVAC */
}

/* The shared L2 stays: the boot CPU has live, maybe dirty, lines in it. */
void mmu_init_secondary(void)
{
	if (!mmu_on)
		panic("mmu_init_secondary() before paging_init()");
	mmu_enable(1);
}

bool paging_enabled(void)
{
	return mmu_on;
}

/* A section of the linear map cannot take small pages. */
static int check_not_section(unsigned long virt, u32 l1)
{
	if (!(l1 & L1_SECTION_BIT))
		return 0;
	printk("map_pages: 0x%08lx is inside a 1 MiB section\n", virt);
	return -EEXIST;
}

/* Points every empty entry of virt's 4 MiB span at a quarter of page. */
static bool install_table_page(unsigned long virt, phys_addr_t page)
{
	u32 *span = &l1_table[ALIGN_DOWN(l1_index(virt), L2_PER_PAGE)];

	if (l1_table[l1_index(virt)] != L1_FAULT)
		return false;
	for (unsigned int i = 0; i < L2_PER_PAGE; i++)
		if (span[i] == L1_FAULT)
			span[i] = (u32)(page + i * L2_TABLE_SIZE) | L1_TABLE;
	/* Invalid entries are never held in the TLB: a DSB is enough. */
	dsb();
	return true;
}

/*
 * Makes sure a second-level table covers virt, allocating a table page
 * with pgtable_lock released. Returns 0, -ENOMEM or -EEXIST (section).
 */
static int ensure_table(unsigned long virt)
{
	u32 l1 = READ_ONCE(l1_table[l1_index(virt)]);
	struct page *page;
	unsigned long flags;
	bool installed;

	if (l1 != L1_FAULT)
		return check_not_section(virt, l1);
	page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);
	if (!page)
		return -ENOMEM;
	flags = spin_lock_irqsave(&pgtable_lock);
	installed = install_table_page(virt, page_to_phys(page));
	spin_unlock_irqrestore(&pgtable_lock, flags);
	if (installed)
		mod_page_state(NR_PAGETABLE_PAGES, 1);
	else
		__free_pages(page, 0);
	return check_not_section(virt, READ_ONCE(l1_table[l1_index(virt)]));
}

/* Fills n entries of one second-level table, all or none; lock held. */
static int fill_ptes(unsigned long virt, phys_addr_t phys, unsigned long n,
		     u32 bits)
{
	u32 *table = l1_entry_table(l1_table[l1_index(virt)]);
	unsigned int first = l2_index(virt);

	for (unsigned long i = 0; i < n; i++) {
		if (table[first + i] != 0) {
			printk("map_pages: 0x%08lx is already mapped\n",
			       virt + i * PAGE_SIZE);
			return -EEXIST;
		}
	}
	for (unsigned long i = 0; i < n; i++)
		table[first + i] = (u32)(phys + i * PAGE_SIZE) | bits;
	dsb();
	isb();
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
		unsigned long n = min(npages - done, L2_ENTRIES - l2_index(v));
		unsigned long irq;

		err = ensure_table(v);
		if (err)
			break;
		irq = spin_lock_irqsave(&pgtable_lock);
		err = fill_ptes(v, phys + done * PAGE_SIZE, n,
				small_page_bits(flags));
		spin_unlock_irqrestore(&pgtable_lock, irq);
		if (!err)
			done += n;
	}
	if (err && done)
		unmap_pages(virt, done);
	return err;
}

/*
 * Clears the entry of one page and sends its TLB invalidation to every
 * CPU of the inner-shareable domain (TLBIMVAAIS: all ASIDs, our
 * mappings are global); lock held.
 */
static void unmap_one(unsigned long virt)
{
	u32 l1 = l1_table[l1_index(virt)];
	u32 *pte;

	if ((l1 & L1_TYPE_MASK) != L1_TABLE) {
		printk("unmap_pages: 0x%08lx is not in a page table\n", virt);
		return;
	}
	pte = &l1_entry_table(l1)[l2_index(virt)];
	if (*pte == 0) {
		printk("unmap_pages: 0x%08lx was not mapped\n", virt);
		return;
	}
	*pte = 0;
	dsb();				/* the walker sees the entry gone */
	cp15_write(0, c8, c3, 3, virt & PAGE_MASK);	/* TLBIMVAAIS */
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
	cp15_write(0, c7, c1, 6, 0);	/* BPIALLIS: old targets are stale */
	/* The invalidations are done everywhere before anyone goes on. */
	dsb();
	isb();
	spin_unlock_irqrestore(&pgtable_lock, flags);
}

static phys_addr_t walk_l2(u32 l1, unsigned long virt)
{
	u32 pte = READ_ONCE(l1_entry_table(l1)[l2_index(virt)]);

	if (pte & L2_SMALL)
		return (pte & PAGE_MASK) | (virt & ~PAGE_MASK);
	if ((pte & 3) == L2_LARGE)
		return (pte & LARGE_MASK) | (virt & ~LARGE_MASK);
	return PHYS_ADDR_INVALID;
}

phys_addr_t virt_to_phys_walk(unsigned long virt)
{
	u32 l1 = READ_ONCE(l1_table[l1_index(virt)]);

	if (l1 & L1_SECTION_BIT) {
		if (l1 & SECT_SUPER)
			return (l1 & SUPER_MASK) | (virt & ~SUPER_MASK);
		return (l1 & SECTION_MASK) | (virt & ~SECTION_MASK);
	}
	if ((l1 & L1_TYPE_MASK) == L1_TABLE)
		return walk_l2(l1, virt);
	return PHYS_ADDR_INVALID;
}
