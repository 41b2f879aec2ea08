/*
 * Self-tests of the i386 page tables as the CPU sees them: the control
 * registers, and the entries read back through CR3 (not through
 * mmu.c's own variables), so a table that is built right but never
 * loaded fails here.
 */
#include <kernel/kernel.h>
#include <kernel/ktest.h>
#include <kernel/mm.h>
#include <kernel/mmu.h>

#define P	(1u << 0)
#define RW	(1u << 1)
#define PWT	(1u << 3)
#define PCD	(1u << 4)
#define PS	(1u << 7)
#define G	(1u << 8)
/* Accessed and dirty: the CPU sets them as it goes, so they are masked. */
#define AD	(3u << 5)

static u32 read_cr(int n)
{
	u32 v = 0;

	if (n == 0)
		__asm__ __volatile__("mov %%cr0, %0" : "=r"(v));
	else if (n == 3)
		__asm__ __volatile__("mov %%cr3, %0" : "=r"(v));
	else if (n == 4)
		__asm__ __volatile__("mov %%cr4, %0" : "=r"(v));
	return v;
}

static u32 pde(unsigned long virt)
{
	return ((const u32 *)__va(read_cr(3) & PAGE_MASK))[virt >> 22] & ~AD;
}

/* The PTE for virt; 0 when its directory entry is not a table. */
static u32 pte(unsigned long virt)
{
	u32 dir = pde(virt);

	if (!(dir & P) || (dir & PS))
		return 0;
	return ((const u32 *)__va(dir & PAGE_MASK))[(virt >> 12) & 1023] & ~AD;
}

static void test_control_registers(struct ktest *t)
{
	KEXPECT(t, read_cr(0) & (1u << 31));	/* PG */
	KEXPECT(t, read_cr(0) & (1u << 16));	/* WP */
	KEXPECT(t, IS_ALIGNED(read_cr(3), PAGE_SIZE));
}

static void test_low_memory(struct ktest *t)
{
	KEXPECT(t, (pde(0) & (P | PS)) == P);
	KEXPECT_EQ(t, pte(0), 0);
	KEXPECT_EQ(t, pte(0x1000), 0x1000 | P | RW | G);
	KEXPECT_EQ(t, pte(0xb8000) & (PCD | PWT), PCD | PWT);
	KEXPECT_EQ(t, pte(0x100000), 0x100000 | P | RW | G);
}

/* 4 KiB pages above 4 MiB too: each has a dirty bit of its own. */
static void test_linear_map(struct ktest *t)
{
	unsigned long last = (max_pfn - 1) << PAGE_SHIFT;

	KEXPECT_EQ(t, pde(0x400000) & (P | RW | PS), P | RW);
	KEXPECT_EQ(t, pte(0x400000), 0x400000 | P | RW | G);
	KEXPECT_EQ(t, pte(last), last | P | RW | G);
	KEXPECT(t, virt_to_phys_walk(0x400000 + 0x12345) == 0x412345);
	KEXPECT_EQ(t, pde(LOWMEM_LIMIT), 0);
}

static void test_apic_pages(struct ktest *t)
{
	u32 flags = P | RW | PCD | PWT | G;

	KEXPECT_EQ(t, pte(0xfec00000), 0xfec00000 | flags);
	KEXPECT_EQ(t, pte(0xfee00000), 0xfee00000 | flags);
	KEXPECT_EQ(t, pte(0xfed00000), 0);
	KEXPECT(t, virt_to_phys_walk(0xfee00020) == 0xfee00020);
}

static const struct ktest_case mmu_cases[] = {
	KTEST_CASE(test_control_registers),
	KTEST_CASE(test_low_memory),
	KTEST_CASE(test_linear_map),
	KTEST_CASE(test_apic_pages),
	{ 0 },
};
KTEST_SUITE("mmu", mmu_cases);
