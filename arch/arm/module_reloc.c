/*
 * ARM module relocations (ARM state, REL tables: the addend is encoded
 * in the instruction or word being patched). gcc for Cortex-A15 emits
 * absolute words, PC-relative words, BL/B (CALL, JUMP24) and MOVW/MOVT
 * pairs for addresses. A BL reaches +/-32 MiB only; modules live in
 * page-allocator memory, which may be further from the kernel than
 * that, so a branch out of reach goes through a veneer (ldr pc, =target)
 * in the same area as the branch (core or init: the two may be far apart),
 * one per distinct target.
 *
 * Pure computation on a buffer: the kernel links this file through
 * module_arch_reloc (module_reloc_sync.c), the host fuzzer next to the
 * i386 one. No state, no locking.
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

static bool arm_describe(u32 type, struct module_reloc_type *t)
{
	/* Data words (packed ones too), or ARM-state instructions. */
	*t = (struct module_reloc_type){ .size = 4, .align = 4 };
	switch (type) {
	case R_ARM_NONE:
	case R_ARM_V4BX:
		t->size = 0;
		return true;
	case R_ARM_ABS32:
	case R_ARM_REL32:
		t->align = 1;
		return true;
	case R_ARM_CALL:
	case R_ARM_JUMP24:
		t->branch = true;
		return true;
	case R_ARM_MOVW_ABS_NC:
	case R_ARM_MOVT_ABS:
		return true;
	}
	return false;
}

/* One possible veneer per branch relocation; duplicates share one. */
static u32 arm_extra(const struct elf_file *ef, unsigned int rel_idx)
{
	u32 n = 0;
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

/*
 * The address of the veneer that jumps to target, made on first use;
 * 0 when the space is full.
 */
static u32 veneer(struct module_arch_space *extra, u32 target)
{
	u8 *v;

	for (u32 off = 0; off < extra->used; off += VENEER_SIZE)
		if (module_get32(extra->base + off + 4) == target)
			return extra->addr + off;
	if (extra->size - extra->used < VENEER_SIZE)
		return 0;
	v = extra->base + extra->used;
	module_put32(v, VENEER_LDR_PC);
	module_put32(v + 4, target);
	extra->used += VENEER_SIZE;
	return extra->addr + extra->used - VENEER_SIZE;
}

static bool in_reach(s32 offset)
{
	return offset >= -0x2000000 && offset < 0x2000000;
}

/* Is insn what a relocation of type patches? (BLX: Thumb, refused) */
static bool is_patchable(u32 type, u32 insn)
{
	bool cond = (insn >> 28) != 0xf;

	switch (type) {
	case R_ARM_CALL:	/* bl */
		return cond && (insn & 0x0f000000) == 0x0b000000;
	case R_ARM_JUMP24:	/* b or bl */
		return cond && (insn & 0x0e000000) == 0x0a000000;
	case R_ARM_MOVW_ABS_NC:
		return (insn & 0x0ff00000) == 0x03000000;
	case R_ARM_MOVT_ABS:
		return (insn & 0x0ff00000) == 0x03400000;
	}
	return true;
}

static int branch(const struct module_reloc *r, struct module_arch_space *extra)
{
	u32 insn = module_get32(r->loc), v;
	/* The addend includes the -8 of the pipeline: target = S + A + 8. */
	u32 addend = (u32)sign_extend((insn & 0x00ffffff) << 2, 26);
	u32 target = r->sym + addend + 8;
	s32 offset = (s32)(target - r->place - 8);

	if (target & 3) {
		printk("insmod: %s: branch at 0x%08x to Thumb or misaligned "
		       "code 0x%08x\n", r->modname, r->place, target);
		return -ENOEXEC;
	}
	if (!in_reach(offset)) {
		v = extra ? veneer(extra, target) : 0;
		if (!v) {
			printk("insmod: %s: no room for a branch veneer\n",
			       r->modname);
			return -ENOEXEC;
		}
		offset = (s32)(v - r->place - 8);
		/* The veneers sit in loc's own area, so this cannot happen. */
		if (!in_reach(offset)) {
			printk("insmod: %s: branch veneer at 0x%08x out of "
			       "reach of 0x%08x\n", r->modname, v, r->place);
			return -ENOEXEC;
		}
	}
	insn = (insn & 0xff000000) | (((u32)offset >> 2) & 0x00ffffff);
	module_put32(r->loc, insn);
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

static s32 arm_addend(u32 type, const u8 *loc)
{
	u32 word = module_get32(loc);

	switch (type) {
	case R_ARM_ABS32:
	case R_ARM_REL32:
		return (s32)word;
	case R_ARM_CALL:
	case R_ARM_JUMP24:
		return sign_extend((word & 0x00ffffff) << 2, 26);
	case R_ARM_MOVW_ABS_NC:
	case R_ARM_MOVT_ABS:
		return sign_extend(mov_imm(word), 16);
	}
	return 0;
}

static int arm_relocate(const struct module_reloc *r,
			struct module_arch_space *extra)
{
	u32 word = module_get32(r->loc), sym = r->sym;

	if (r->addend) {
		printk("insmod: %s: RELA addend on ARM, which uses REL\n",
		       r->modname);
		return -ENOEXEC;
	}
	if (!is_patchable(r->type, word)) {
		printk("insmod: %s: relocation type %u at 0x%08x: 0x%08x is "
		       "not an instruction it patches\n", r->modname, r->type,
		       r->place, word);
		return -ENOEXEC;
	}
	switch (r->type) {
	case R_ARM_NONE:
	case R_ARM_V4BX:	/* bx lr for ARMv4: nothing to do on ARMv7 */
		return 0;
	case R_ARM_ABS32:
		module_put32(r->loc, sym + word);
		return 0;
	case R_ARM_REL32:
		module_put32(r->loc, sym + word - r->place);
		return 0;
	case R_ARM_CALL:
	case R_ARM_JUMP24:
		return branch(r, extra);
	case R_ARM_MOVW_ABS_NC:
		module_put32(r->loc, set_mov_imm(word, sym +
				  (u32)sign_extend(mov_imm(word), 16)));
		return 0;
	case R_ARM_MOVT_ABS:
		module_put32(r->loc, set_mov_imm(word, (sym +
				  (u32)sign_extend(mov_imm(word), 16)) >> 16));
		return 0;
	}
	return -ENOENT;
}

const struct module_reloc_ops module_reloc_arm = {
	.machine = EM_ARM,
	.type_prefix = "R_ARM",
	.func_align = 4,
	.describe = arm_describe,
	.addend = arm_addend,
	.extra = arm_extra,
	.relocate = arm_relocate,
};

