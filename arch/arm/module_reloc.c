/*
 * ARM module relocations (ARM state, REL tables: the addend is encoded
 * in the instruction or word being patched). gcc for Cortex-A15 emits
 * absolute words, PC-relative words, BL/B (CALL, JUMP24) and MOVW/MOVT
 * pairs for addresses. A BL reaches +/-32 MiB only; modules live in
 * page-allocator memory, which may be further from the kernel than
 * that, so a branch out of reach goes through a veneer (ldr pc, =target)
 * in the same area as the branch (core or init: the two may be far apart),
 * one per distinct target.
 */
#include <kernel/module.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/printk.h>

#define R_ARM_NONE 0
#define R_ARM_ABS32 2
#define R_ARM_REL32 3
#define R_ARM_CALL 28
#define R_ARM_JUMP24 29
#define R_ARM_V4BX 40
#define R_ARM_MOVW_ABS_NC 43
#define R_ARM_MOVT_ABS 44

#define VENEER_LDR_PC 0xe51ff004u	/* ldr pc, [pc, #-4] */
#define VENEER_SIZE 8

const unsigned int module_arch_machine = EM_ARM;

/* One possible veneer per branch relocation; duplicates share one. */
unsigned long module_arch_extra(const struct elf_file *ef,
				unsigned int rel_idx)
{
	unsigned long n = 0;
	struct elf_reloc r;

	for (unsigned int i = 0; i < elf_reloc_count(ef, rel_idx); i++) {
		elf_reloc_get(ef, rel_idx, i, &r);
		n += r.type == R_ARM_CALL || r.type == R_ARM_JUMP24;
	}
	return n * VENEER_SIZE;
}

static s32 sign_extend(u32 value, unsigned int bits)
{
	u32 m = 1u << (bits - 1);

	return (s32)((value ^ m) - m);
}

/* The veneer that jumps to target, made on first use; NULL when full. */
static u8 *veneer(struct module_arch_space *extra, u32 target)
{
	u8 *v;

	for (unsigned long off = 0; off < extra->used; off += VENEER_SIZE)
		if (module_get32(extra->base + off + 4) == target)
			return extra->base + off;
	if (extra->used + VENEER_SIZE > extra->size)
		return NULL;
	v = extra->base + extra->used;
	module_put32(v, VENEER_LDR_PC);
	module_put32(v + 4, target);
	extra->used += VENEER_SIZE;
	return v;
}

static int branch(const char *modname, u8 *loc, u32 sym,
		  struct module_arch_space *extra)
{
	u32 insn = module_get32(loc);
	/* The addend includes the -8 of the pipeline: target = S + A + 8. */
	u32 target = sym + (u32)sign_extend((insn & 0x00ffffff) << 2, 26) + 8;
	s32 offset = (s32)(target - (u32)(uintptr_t)loc - 8);

	if (target & 3) {
		printk("insmod: %s: branch at %p to Thumb or misaligned code 0x%08x\n",
		       modname, loc, target);
		return -ENOEXEC;
	}
	if (offset < -0x2000000 || offset >= 0x2000000) {
		u8 *v = veneer(extra, target);

		if (!v) {
			printk("insmod: %s: no room for a branch veneer\n",
			       modname);
			return -ENOEXEC;
		}
		offset = (s32)((u32)(uintptr_t)v - (u32)(uintptr_t)loc - 8);
		/* The veneers sit in loc's own area, so this cannot happen. */
		if (offset < -0x2000000 || offset >= 0x2000000) {
			printk("insmod: %s: branch veneer at %p out of reach "
			       "of %p\n", modname, v, loc);
			return -ENOEXEC;
		}
	}
	insn = (insn & 0xff000000) | (((u32)offset >> 2) & 0x00ffffff);
	module_put32(loc, insn);
	return 0;
}

/* MOVW/MOVT: imm16 split into imm4 (bits 19-16) and imm12 (bits 11-0). */
static u32 mov_imm(u32 insn)
{
	return (insn >> 4 & 0xf000) | (insn & 0x0fff);
}

static u32 set_mov_imm(u32 insn, u32 imm)
{
	return (insn & 0xfff0f000) | (imm & 0xf000) << 4 | (imm & 0x0fff);
}

int module_arch_relocate(const char *modname, u32 type, u8 *loc, u32 sym,
			 s32 addend, struct module_arch_space *extra)
{
	u32 word = module_get32(loc);

	if (addend) {
		printk("insmod: %s: RELA addend on ARM, which uses REL\n",
		       modname);
		return -ENOEXEC;
	}
	switch (type) {
	case R_ARM_NONE:
	case R_ARM_V4BX:	/* bx lr for ARMv4: nothing to do on ARMv7 */
		return 0;
	case R_ARM_ABS32:
		module_put32(loc, sym + word);
		return 0;
	case R_ARM_REL32:
		module_put32(loc, sym + word - (u32)(uintptr_t)loc);
		return 0;
	case R_ARM_CALL:
	case R_ARM_JUMP24:
		return branch(modname, loc, sym, extra);
	case R_ARM_MOVW_ABS_NC:
		module_put32(loc, set_mov_imm(word, sym +
				  (u32)sign_extend(mov_imm(word), 16)));
		return 0;
	case R_ARM_MOVT_ABS:
		module_put32(loc, set_mov_imm(word, (sym +
				  (u32)sign_extend(mov_imm(word), 16)) >> 16));
		return 0;
	}
	printk("insmod: %s: unknown relocation type %u (R_ARM_*) at %p\n",
	       modname, type, loc);
	return -ENOEXEC;
}

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
