/*
 * What the kernel side of the module loader shares between its files
 * (docs/modules.md). The loader is split by concern:
 *
 *   module.c          load and unload: the areas' pages, the list, the
 *                     order of the steps, undoing a failed load; lsmod
 *   module_layout.c   steps 1-2 on the image: checks, layout, copy  } host-
 *   module_symbols.c  steps 3-4: symbol values, relocations         } built
 *   module_exports.c  the exports a module resolves against (and the
 *                     users that makes), its own exports, its entry points
 *   module_kallsyms.c the kallsyms tables of a module's functions
 *   module_params.c   "name=value" parameters from insmod
 *   module_memleak.c  what the leak collector is told about a module
 *   module_ghosts.c   removed modules' symbols, for old traces
 *   module_archive.c  the boot archive the images come from
 *   module_cmd.c      the shell commands insmod, rmmod, lsmod
 *
 * Locking: module_mutex (module.c) is held around every function
 * declared here and around every use of the list modules.
 */
#ifndef KERNEL_MODULE_INTERNAL_H
#define KERNEL_MODULE_INTERNAL_H

#include <kernel/module.h>
#include <kernel/list.h>
#include <kernel/mutex.h>
#include <kernel/string.h>

/* What one load needs only while it runs. */
struct load_info {
	struct module_image img;	/* name: the module's once checked */
	const char *name;
	struct module *mod;
};

/* Serializes loads, removals and listings (module.c). */
extern struct mutex module_mutex;
/* Every module whose init has started, in load order (GDB: modules). */
extern struct list_head modules;

/* A section of the module as laid out: its address and size, or 0. */
static inline u32 module_loaded_section(const struct load_info *info,
					const char *name, u32 *size)
{
	int idx = elf_find_section(&info->img.ef, name);

	if (idx <= 0 || !module_section_addr(&info->img, idx))
		return 0;
	*size = elf_section(&info->img.ef, idx)->sh_size;
	return module_section_addr(&info->img, idx);
}

/*
 * Is p a string inside the module's core area? Names in its __ksymtab
 * and .module_params are pointers the relocations just wrote.
 */
static inline bool module_core_string(const struct module *mod, const char *p)
{
	const char *base = mod->core.base;

	return p >= base && p < base + mod->core.size &&
	       memchr(p, '\0', base + mod->core.size - p);
}

/* module_exports.c */
int module_lookup_export(void *info, const char *name, u32 *value);
int module_find_exports(struct load_info *info);
u32 module_function(const struct load_info *info, const char *name);

/* module_kallsyms.c */
int module_build_ksyms(struct load_info *info, struct module_ksyms *k,
		       const struct module_area *area);
void module_free_ksyms(const struct module *mod, struct module_ksyms *k);

/* module_params.c */
int module_set_params(struct load_info *info, int argc, char **argv);

/* module_memleak.c: built with the collector only. */
#ifdef CONFIG_DEBUG_MEMLEAK
int module_memleak_register(struct load_info *info);
void module_memleak_unregister(struct module *mod);
#else
static inline int module_memleak_register(struct load_info *info)
{
	(void)info;
	return 0;
}

static inline void module_memleak_unregister(struct module *mod)
{
	(void)mod;
}
#endif

#endif
