/*
 * i386 module relocations. gcc's -fno-pie code uses three kinds: 32-bit
 * absolute addresses, and 32-bit PC-relative ones for calls and jumps
 * (PLT32 on newer toolchains, with the same meaning for a module, which
 * has no PLT). REL tables: the addend is the word in place.
 */
#include <kernel/module.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/printk.h>

#define R_386_NONE 0
#define R_386_32 1
#define R_386_PC32 2
#define R_386_PLT32 4

const unsigned int module_arch_machine = EM_386;

/* rel +/-2 GiB reaches every address: nothing extra is ever needed. */
unsigned long module_arch_extra(const struct elf_file *ef,
				unsigned int rel_idx)
{
	(void)ef, (void)rel_idx;
	return 0;
}

int module_arch_relocate(const char *modname, u32 type, u8 *loc, u32 sym,
			 s32 addend, struct module_arch_space *extra)
{
	u32 a = module_get32(loc) + (u32)addend;

	(void)extra;
	switch (type) {
	case R_386_NONE:
		return 0;
	case R_386_32:
		module_put32(loc, sym + a);
		return 0;
	case R_386_PC32:
	case R_386_PLT32:
		module_put32(loc, sym + a - (u32)(uintptr_t)loc);
		return 0;
	}
	printk("insmod: %s: unknown relocation type %u (R_386_*) at %p\n",
	       modname, type, loc);
	return -ENOEXEC;
}

/* x86 keeps instruction fetch coherent with stores by itself. */
void module_arch_sync_code(void *start, unsigned long len)
{
	(void)start, (void)len;
}
