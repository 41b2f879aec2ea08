/*
 * What only the kernel needs of the ARM module relocations: which table
 * it uses, and the cache maintenance that makes new code visible. The
 * relocations themselves are in module_reloc.c, which the host builds.
 */
#include <kernel/module.h>

const struct module_reloc_ops *const module_arch_reloc = &module_reloc_arm;

/*
 * New code reaches instruction fetch through the point of unification:
 * clean the data cache lines, invalidate the instruction cache lines
 * and the branch predictor, then synchronize.
 */
void module_arch_sync_code(void *start, unsigned long len)
{
	unsigned long addr, end = (unsigned long)start + len;
	u32 ctr, dline, iline;

	if (!len)
		return;
	__asm__ volatile("mrc p15, 0, %0, c0, c0, 1" : "=r"(ctr));
	dline = 4u << (ctr >> 16 & 0xf);
	iline = 4u << (ctr & 0xf);
	addr = (unsigned long)start & ~(dline - 1);
	for (; addr < end; addr += dline)
		__asm__ volatile("mcr p15, 0, %0, c7, c11, 1" : : "r"(addr));
	__asm__ volatile("dsb" : : : "memory");
	addr = (unsigned long)start & ~(iline - 1);
	for (; addr < end; addr += iline)
		__asm__ volatile("mcr p15, 0, %0, c7, c5, 1" : : "r"(addr));
	__asm__ volatile("mcr p15, 0, %0, c7, c5, 6" : : "r"(0));
	__asm__ volatile("dsb\n\tisb" : : : "memory");
}
