/*
 * Self-tests of the ARM translation tables as the CPU sees them: the
 * control registers, first-level entries read back through TTBR0, and
 * virt_to_phys_walk() checked against the MMU's own translation (the
 * ATS1CPR address-translation operation).
 */
#include <kernel/kernel.h>
#include <kernel/arch.h>
#include <kernel/ktest.h>
#include <kernel/vmalloc.h>
#include <kernel/mmu.h>

#define SECTION_ATTRS	0x0001fc1fu	/* S, AP2, TEX, AP, XN, C, B, type */
#define RAM_SECTION	0x0001140eu	/* S, TEX=001, AP=01, C, B, section */
#define DEVICE_SECTION	0x00000416u	/* AP=01, XN, B, section */
#define PAR_FAULT	1u

#define cp15_read(op1, crn, crm, op2) ({                                  \
	u32 __v;                                                          \
	__asm__ __volatile__("mrc p15, " #op1 ", %0, " #crn ", " #crm ", " \
			     #op2 : "=r"(__v));                           \
	__v; })

extern char __text_start[];

static u32 l1_entry(unsigned long virt)
{
	const u32 *l1 = __va(cp15_read(0, c2, c0, 0) & ~0x3fffu);

	return l1[virt >> 20];
}

/* What the MMU itself makes of a privileged read of virt. */
static phys_addr_t hw_translate(unsigned long virt)
{
	unsigned long flags = arch_irq_save();
	u32 par;

	__asm__ __volatile__("mcr p15, 0, %0, c7, c8, 0\n\tisb"	/* ATS1CPR */
			     : : "r"(virt) : "memory");
	par = cp15_read(0, c7, c4, 0);
	arch_irq_restore(flags);
	if (par & PAR_FAULT)
		return PHYS_ADDR_INVALID;
	return (par & PAGE_MASK) | (virt & ~PAGE_MASK);
}

static void test_control_registers(struct ktest *t)
{
	u32 sctlr = cp15_read(0, c1, c0, 0);

	KEXPECT_EQ(t, sctlr & 0x1007, 0x1005);	/* I, C, M on; A off */
	KEXPECT_EQ(t, cp15_read(0, c2, c0, 2), 0);	/* TTBCR.N = 0 */
	KEXPECT_EQ(t, cp15_read(0, c3, c0, 0), 1);	/* DACR: 0 is client */
	KEXPECT_EQ(t, cp15_read(0, c2, c0, 0) & 0x7f, 0x6a);	/* walk attrs */
}

static void test_sections(struct ktest *t)
{
	unsigned long text = (unsigned long)__text_start;

	KEXPECT_EQ(t, l1_entry(0), 0);
	KEXPECT_EQ(t, l1_entry(0x07f00000), 0);
	KEXPECT_EQ(t, l1_entry(0x09000000) & SECTION_ATTRS, DEVICE_SECTION);
	KEXPECT_EQ(t, l1_entry(0x08000000) & SECTION_ATTRS, DEVICE_SECTION);
	KEXPECT_EQ(t, l1_entry(0x0a100000) & SECTION_ATTRS, DEVICE_SECTION);
	KEXPECT_EQ(t, l1_entry(0x0a200000), 0);
	KEXPECT_EQ(t, l1_entry(text) & SECTION_ATTRS, RAM_SECTION);
	KEXPECT_EQ(t, l1_entry(text) >> 20, text >> 20);
}

/* The software walk and the hardware agree, mapped or not. */
static void test_walk_matches_mmu(struct ktest *t)
{
	int on_stack;
	char *v = vmalloc(2 * PAGE_SIZE);
	const unsigned long addrs[] = {
		0, 0x1000, 0x09000000, 0x0a000e00, 0x3ffff000,
		(unsigned long)__text_start + 0x1234,
		(unsigned long)&on_stack, (unsigned long)v + 5,
		(unsigned long)v + PAGE_SIZE + 7,
		(unsigned long)v + 2 * PAGE_SIZE,
		VMALLOC_END - 4, 0xfffff000,
	};

	KEXPECT(t, v != NULL);
	for (unsigned int i = 0; i < ARRAY_SIZE(addrs); i++) {
		phys_addr_t hw = hw_translate(addrs[i]);
		phys_addr_t sw = virt_to_phys_walk(addrs[i]);

		if (hw != sw)
			ktest_fail(t, __FILE__, __LINE__,
				   "walk of 0x%08lx: mmu 0x%llx, walk 0x%llx",
				   addrs[i], hw, sw);
	}
	KEXPECT(t, hw_translate((unsigned long)v + 2 * PAGE_SIZE) ==
		   PHYS_ADDR_INVALID);
	vfree(v);
	KEXPECT(t, hw_translate((unsigned long)v) == PHYS_ADDR_INVALID);
}

static const struct ktest_case mmu_cases[] = {
	KTEST_CASE(test_control_registers),
	KTEST_CASE(test_sections),
	KTEST_CASE(test_walk_matches_mmu),
	{ 0 },
};
KTEST_SUITE("mmu", mmu_cases);
