/*
 * ARM paging: ARMv7 short-descriptor translation tables through TTBR0
 * (TTBCR.N = 0, so one 16 KiB first-level table covers all 4 GiB), one
 * address space for every CPU, domain 0 as "client" (permissions from
 * the descriptors).
 *
 * The linear map of RAM and the devices use 1 MiB sections in the
 * static first-level table, so paging_init() needs no page allocator.
 * Pages mapped later (vmalloc) go through the generic walker,
 * mm/pgtable.c, over <asm/pgtable.h> and the few functions at the end
 * of this file; they use 256-entry second-level tables of 1 KiB: one page from the page allocator holds four of them and serves
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
 * Locking: the boot map is built before any other CPU runs; later
 * changes hold mm/pgtable.c's pgtable_lock.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/bootinfo.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <asm/cacheflush.h>
#include <asm/pgtable.h>

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

u32 *pgd_entry(unsigned long virt)
{
	return &l1_table[l1_index(virt)];
}

/* Points every empty entry of virt's 4 MiB span at a quarter of page. */
void pgd_install_table(unsigned long virt, phys_addr_t table_page)
{
	u32 *span = &l1_table[ALIGN_DOWN(l1_index(virt), L2_PER_PAGE)];

	for (unsigned int i = 0; i < L2_PER_PAGE; i++)
		if (span[i] == L1_FAULT)
			span[i] = (u32)(table_page + i * L2_TABLE_SIZE) |
				  L1_TABLE;
	/* Invalid entries are never held in the TLB: a DSB is enough. */
	dsb();
}

/*
 * Sends the page's TLB invalidation to every CPU of the inner-shareable
 * domain (TLBIMVAAIS: all ASIDs, our mappings are global).
 */
void flush_tlb_kernel_page(unsigned long virt)
{
	dsb();				/* the walker sees the entry gone */
	cp15_write(0, c8, c3, 3, virt & PAGE_MASK);	/* TLBIMVAAIS */
}

/* The broadcast invalidations are done everywhere before anyone goes on. */
void flush_tlb_kernel_range(unsigned long virt, unsigned long npages)
{
	(void)virt, (void)npages;
	cp15_write(0, c7, c1, 6, 0);	/* BPIALLIS: old targets are stale */
	dsb();
	isb();
}
