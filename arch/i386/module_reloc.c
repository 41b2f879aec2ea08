/*
 * i386 module relocations. gcc's -fno-pie code uses three kinds: 32-bit
 * absolute addresses, and 32-bit PC-relative ones for calls and jumps
 * (PLT32 on newer toolchains, with the same meaning for a module, which
 * has no PLT). REL tables: the addend is the word in place.
 *
 * Pure computation on a buffer: the kernel links this file through
 * module_arch_reloc (module_reloc_sync.c), the host fuzzer next to the
 * ARM one. No state, no locking.
 */
#include <kernel/module.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/printk.h>

#define R_386_NONE 0
#define R_386_32 1
#define R_386_PC32 2
#define R_386_PLT32 4

static bool i386_describe(u32 type, struct module_reloc_type *t)
{
	/* x86 code and packed data: words at any byte. */
	*t = (struct module_reloc_type){ .size = 4, .align = 1 };
	switch (type) {
	case R_386_NONE:
		t->size = 0;
		return true;
	case R_386_32:
		return true;
	case R_386_PC32:
	case R_386_PLT32:
		/* -fno-pie code reaches data by address: only calls, jumps. */
		t->branch = true;
		return true;
	}
	return false;
}

static s32 i386_addend(u32 type, const u8 *loc)
{
	return type == R_386_NONE ? 0 : (s32)module_get32(loc);
}

/* rel +/-2 GiB reaches every address: nothing extra is ever needed. */
static u32 i386_extra(const struct elf_file *ef, unsigned int rel_idx)
{
	(void)ef, (void)rel_idx;
	return 0;
}

static int i386_relocate(const struct module_reloc *r,
			 struct module_arch_space *extra)
{
	u32 a = module_get32(r->loc) + (u32)r->addend;

	(void)extra;
	switch (r->type) {
	case R_386_NONE:
		return 0;
	case R_386_32:
		module_put32(r->loc, r->sym + a);
		return 0;
	case R_386_PC32:
	case R_386_PLT32:
		module_put32(r->loc, r->sym + a - r->place);
		return 0;
	}
	return -ENOENT;
}

const struct module_reloc_ops module_reloc_i386 = {
	.machine = EM_386,
	.type_prefix = "R_386",
	.func_align = 1,
	.describe = i386_describe,
	.addend = i386_addend,
	.extra = i386_extra,
	.relocate = i386_relocate,
};
