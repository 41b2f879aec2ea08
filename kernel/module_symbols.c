/*
 * Symbol resolution and relocation of a laid-out module image
 * (docs/modules.md, steps 3 and 4). Undefined symbols come from the
 * caller's lookup (the kernel's and live modules' exports, or the
 * fuzzer's fake table); the relocations go through the image's arch
 * (arch/<arch>/module_reloc.c) into the areas' bytes, computed for the
 * addresses the module will run at.
 *
 * module_check_image() has checked every entry applied here, so this
 * file only computes. No hardware, no allocation, no locking of its own:
 * the kernel calls it under module_mutex, the fuzzer on the host.
 */
#include <kernel/module.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/printk.h>

static int resolve_undefined(struct module_image *img, unsigned int i,
			     int (*lookup)(void *, const char *, u32 *),
			     void *arg)
{
	const struct elf32_sym *sym = &img->ef.syms[i];
	const char *name = elf_symbol_name(&img->ef, sym);
	int err = lookup(arg, name, &img->sym_value[i]);

	if (err != -ENOENT)
		return err;
	if (ELF32_ST_BIND(sym->st_info) == STB_WEAK)
		return 0;
	printk("insmod: %s: undefined symbol '%s' (not exported by the "
	       "kernel or a loaded module)\n", img->name, name);
	return -ENOENT;
}

int module_resolve_symbols(struct module_image *img,
			   int (*lookup)(void *arg, const char *name,
					 u32 *value),
			   void *arg)
{
	const struct elf_file *ef = &img->ef;
	int err = 0;

	for (unsigned int i = 1; i < ef->nsyms; i++) {
		const struct elf32_sym *sym = &ef->syms[i];
		int e;

		if (sym->st_shndx == SHN_ABS) {
			img->sym_value[i] = sym->st_value;
			continue;
		}
		if (sym->st_shndx != SHN_UNDEF) {
			/* 0 in a section not loaded: never relocated. */
			if (module_section_addr(img, sym->st_shndx))
				img->sym_value[i] = sym->st_value +
					module_section_addr(img, sym->st_shndx);
			continue;
		}
		e = resolve_undefined(img, i, lookup, arg);
		if (e && e != -ENOENT)
			return e;
		if (e)
			err = e;
	}
	return err;
}

static int apply_table(struct module_image *img, unsigned int idx,
		       struct module_arch_space *extra)
{
	const struct elf_file *ef = &img->ef;
	unsigned int target = elf_section(ef, idx)->sh_info;
	const struct module_place *a = &img->area[img->sec_area[target]];
	u32 start = img->sec_off[target];
	struct elf_reloc r;
	int err;

	for (unsigned int i = 0; i < elf_reloc_count(ef, idx); i++) {
		struct module_reloc mr;

		elf_reloc_get(ef, idx, i, &r);
		mr = (struct module_reloc){
			.modname = img->name,
			.type = r.type,
			.loc = a->base + start + r.offset,
			.place = a->addr + start + r.offset,
			.sym = img->sym_value[r.sym],
			.addend = r.addend,
		};
		err = img->arch->relocate(&mr, extra);
		if (err == -ENOENT) {
			/* describe() let it through: the arch's own mistake. */
			printk("insmod: %s: unknown relocation type %u (%s_*) "
			       "at 0x%08x\n", img->name, r.type,
			       img->arch->type_prefix, mr.place);
			return -ENOEXEC;
		}
		if (err)
			return err;
	}
	return 0;
}

int module_relocate(struct module_image *img)
{
	const struct elf_file *ef = &img->ef;
	struct module_arch_space extra[MODULE_AREAS];
	int err;

	for (unsigned int a = MODULE_AREA_CORE; a < MODULE_AREAS; a++) {
		const struct module_place *p = &img->area[a];

		extra[a] = (struct module_arch_space){ 0 };
		if (!p->base)
			continue;	/* an empty area: nothing to relocate */
		extra[a].base = p->base + p->extra_off;
		extra[a].addr = p->addr + p->extra_off;
		extra[a].size = p->extra_size;
	}
	for (unsigned int i = 1; i < ef->shnum; i++) {
		const struct elf32_shdr *sh = elf_section(ef, i);

		/* Tables of debug and dropped sections are not applied. */
		if (sh->sh_type != SHT_REL || !img->sec_area[sh->sh_info])
			continue;
		err = apply_table(img, i, &extra[img->sec_area[sh->sh_info]]);
		if (err)
			return err;
	}
	return 0;
}
