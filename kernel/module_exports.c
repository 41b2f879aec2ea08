/*
 * Symbols between the kernel and its modules (docs/modules.md, steps 3
 * and 5). A module's undefined symbols resolve against the kernel's
 * exports (__ksymtab) and those of live modules; each module it takes
 * one from counts it as a user, so that it cannot be removed first. The
 * module's own __ksymtab becomes its exports once checked: no name the
 * kernel or another module already exports. Its entry points are the
 * global functions named init_module and cleanup_module.
 *
 * Locking: module_mutex, held by every caller (module.c); it keeps the
 * list of modules and their exports still.
 */
#include "module_internal.h"
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/slab.h>

static const struct kernel_symbol *find_in(const struct kernel_symbol *start,
					   const struct kernel_symbol *end,
					   const char *name)
{
	for (const struct kernel_symbol *s = start; s < end; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

/* An export of the kernel (*owner NULL) or of a live module. */
static const struct kernel_symbol *find_export(const char *name,
					       struct module **owner)
{
	const struct kernel_symbol *s;
	struct module *mod;

	*owner = NULL;
	s = find_in(__start___ksymtab, __stop___ksymtab, name);
	if (s)
		return s;
	list_for_each_entry(mod, &modules, list) {
		if (mod->state != MODULE_LIVE)
			continue;
		s = find_in(mod->syms, mod->syms + mod->nsyms, name);
		if (s) {
			*owner = mod;
			return s;
		}
	}
	return NULL;
}

/* mod uses used (once, however many symbols it takes from it). */
static int add_use(struct module *mod, struct module *used)
{
	struct module **uses;

	for (unsigned int i = 0; i < mod->nuses; i++)
		if (mod->uses[i] == used)
			return 0;
	uses = krealloc(mod->uses, (mod->nuses + 1) * sizeof(*uses),
			GFP_KERNEL);
	if (!uses)
		return -ENOMEM;
	mod->uses = uses;
	mod->uses[mod->nuses++] = used;
	used->refcount++;
	return 0;
}

/* The lookup module_resolve_symbols() calls; arg is the load_info. */
int module_lookup_export(void *arg, const char *name, u32 *value)
{
	struct load_info *info = arg;
	const struct kernel_symbol *ks;
	struct module *owner;

	ks = find_export(name, &owner);
	if (!ks)
		return -ENOENT;
	*value = ks->value;
	return owner ? add_use(info->mod, owner) : 0;
}

/* Export i of the module: a name of its own, exported nowhere else. */
static int check_export(const struct load_info *info, unsigned int i)
{
	const struct kernel_symbol *s = &info->mod->syms[i];
	struct module *owner;

	if (!module_core_string(info->mod, s->name)) {
		printk("insmod: %s: export %u has no name\n", info->name, i);
		return -ENOEXEC;
	}
	if (find_export(s->name, &owner)) {
		printk("insmod: %s: exports '%s', which %s already exports\n",
		       info->name, s->name,
		       owner ? owner->name : "the kernel");
		return -EEXIST;
	}
	return 0;
}

/* Its exports: no name the kernel or a loaded module already exports. */
int module_find_exports(struct load_info *info)
{
	struct module *mod = info->mod;
	u32 size = 0, addr = module_loaded_section(info, "__ksymtab", &size);
	int err;

	if (!addr)
		return 0;
	if (addr % sizeof(void *) || size % sizeof(struct kernel_symbol)) {
		printk("insmod: %s: malformed __ksymtab\n", info->name);
		return -ENOEXEC;
	}
	mod->syms = (const struct kernel_symbol *)(uintptr_t)addr;
	mod->nsyms = size / sizeof(struct kernel_symbol);
	for (unsigned int i = 0; i < mod->nsyms; i++) {
		err = check_export(info, i);
		if (err)
			return err;
	}
	return 0;
}

/* Address of a defined global function of the module, or 0. */
u32 module_function(const struct load_info *info, const char *name)
{
	const struct elf_file *ef = &info->img.ef;

	for (unsigned int i = 1; i < ef->nsyms; i++) {
		const struct elf32_sym *s = &ef->syms[i];

		if (ELF32_ST_BIND(s->st_info) == STB_GLOBAL &&
		    ELF32_ST_TYPE(s->st_info) == STT_FUNC &&
		    s->st_shndx != SHN_UNDEF && s->st_shndx < ef->shnum &&
		    strcmp(elf_symbol_name(ef, s), name) == 0)
			return info->img.sym_value[i];
	}
	return 0;
}
