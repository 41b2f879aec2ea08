/*
 * The kallsyms tables of a module (docs/modules.md, step 5): one per
 * area (core, init), of the functions with a size that lie in it,
 * sorted by address, without overlaps, an alias never standing for the
 * function it aliases (init_module, cleanup_module). Backtraces and the
 * leak collector's reports then name "func+0x44/0x158 [module]". When
 * the module goes, the tables pass to a ghost (module_ghosts.c) so that
 * older traces keep their names.
 *
 * Locking: module_mutex, held by every caller (module.c), serializes
 * kallsyms_add_table() and kallsyms_del_table(); lookups take no lock.
 */
#include "module_internal.h"
#include <kernel/errno.h>
#include <kernel/kallsyms.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/slab.h>

/* Which name of two at one address kallsyms shows: not the aliases. */
static bool better_name(const char *a, const char *b)
{
	bool a_alias = !strcmp(a, "init_module") || !strcmp(a, "cleanup_module");
	bool b_alias = !strcmp(b, "init_module") || !strcmp(b, "cleanup_module");

	return !a_alias && b_alias;
}

/* Is symbol i a function of this module inside the given area? */
static bool ksym_wanted(const struct load_info *info, unsigned int i,
			const struct module_area *area)
{
	const struct elf32_sym *s = &info->img.ef.syms[i];
	u32 v = info->img.sym_value[i], base = (u32)(uintptr_t)area->base;

	return ELF32_ST_TYPE(s->st_info) == STT_FUNC && s->st_size &&
	       s->st_shndx != SHN_UNDEF && s->st_shndx < info->img.ef.shnum &&
	       area->base && v >= base && v - base < area->size;
}

/* The symbol indices of the area's functions by address; returns n. */
static unsigned int sort_by_address(const struct load_info *info, u32 *idx,
				    const struct module_area *area)
{
	const u32 *value = info->img.sym_value;
	unsigned int n = 0;

	for (unsigned int i = 1; i < info->img.ef.nsyms; i++) {
		unsigned int j = n;

		if (!ksym_wanted(info, i, area))
			continue;
		n++;
		while (j > 0 && value[idx[j - 1]] > value[i]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = i;
	}
	return n;
}

/* Keeps one name per address and no overlaps; returns how many stay. */
static unsigned int drop_overlaps(const struct load_info *info, u32 *idx,
				  unsigned int n)
{
	const struct elf_file *ef = &info->img.ef;
	const u32 *value = info->img.sym_value;
	unsigned int kept = 0;

	for (unsigned int i = 0; i < n; i++) {
		const struct elf32_sym *s = &ef->syms[idx[i]];
		const struct elf32_sym *prev = kept ? &ef->syms[idx[kept - 1]] :
						      NULL;
		u32 v = value[idx[i]];
		u32 prev_v = kept ? value[idx[kept - 1]] : 0;

		if (prev && v == prev_v) {
			if (better_name(elf_symbol_name(ef, s),
					elf_symbol_name(ef, prev)))
				idx[kept - 1] = idx[i];
			continue;
		}
		if (prev && v < prev_v + prev->st_size)
			continue;	/* overlaps the previous one */
		idx[kept++] = idx[i];
	}
	return kept;
}

/* Allocates k's arrays for n functions whose names take len bytes. */
static int alloc_table(struct module_ksyms *k, unsigned int n, u32 len)
{
	k->arrays = kmalloc(3 * n * sizeof(u32), GFP_KERNEL);
	k->strings = kmalloc(len, GFP_KERNEL);
	if (!k->arrays || !k->strings)
		return -ENOMEM;
	k->table.count = n;
	k->table.addrs = k->arrays;
	k->table.sizes = k->arrays + n;
	k->table.names = k->arrays + 2 * n;
	k->table.strings = k->strings;
	k->table.strings_size = len;
	return 0;
}

/* Writes the n functions of idx into k's table. */
static void fill_table(const struct load_info *info, struct module_ksyms *k,
		       const u32 *idx, unsigned int n)
{
	const struct elf_file *ef = &info->img.ef;

	k->table.owner = info->mod->name;
	for (unsigned int i = 0, p = 0; i < n; i++) {
		const char *name = elf_symbol_name(ef, &ef->syms[idx[i]]);

		k->arrays[i] = info->img.sym_value[idx[i]];
		k->arrays[n + i] = ef->syms[idx[i]].st_size;
		k->arrays[2 * n + i] = p;
		memcpy(k->strings + p, name, strlen(name) + 1);
		p += strlen(name) + 1;
	}
}

/* Builds the table of idx's n functions and adds it to kallsyms. */
static int add_table(struct load_info *info, struct module_ksyms *k,
		     const u32 *idx, unsigned int n)
{
	const struct elf_file *ef = &info->img.ef;
	const char *why;
	u32 len = 0;

	for (unsigned int i = 0; i < n; i++)
		len += strlen(elf_symbol_name(ef, &ef->syms[idx[i]])) + 1;
	if (alloc_table(k, n, len))
		return -ENOMEM;
	fill_table(info, k, idx, n);
	why = kallsyms_table_check(&k->table);
	if (why) {
		printk("insmod: %s: no symbols for backtraces: %s\n",
		       info->name, why);
		return 0;
	}
	if (!module_ghost_reserve(k))
		printk("insmod: %s: out of memory: its names go with it at "
		       "rmmod\n", info->name);
	kallsyms_add_table(&k->table);
	k->added = true;
	return 0;
}

/* The kallsyms table of the functions in one of the module's areas. */
int module_build_ksyms(struct load_info *info, struct module_ksyms *k,
		       const struct module_area *area)
{
	unsigned int n;
	u32 *idx;
	int err = 0;

	/* A removed module's names must not stand for this one's code. */
	module_ghosts_evict(area->base, area->size);
	idx = kmalloc(info->img.ef.nsyms * sizeof(u32), GFP_KERNEL);
	if (!idx)
		return -ENOMEM;
	n = drop_overlaps(info, idx, sort_by_address(info, idx, area));
	if (n)
		err = add_table(info, k, idx, n);
	kfree(idx);
	return err;
}

/* The names stay, as a ghost's, for traces into the module's code. */
void module_free_ksyms(const struct module *mod, struct module_ksyms *k)
{
	module_ghost_keep(mod->name, k);
	if (k->added)
		kallsyms_del_table(&k->table, yield);
	k->added = false;
	kfree(k->arrays);
	kfree(k->strings);
	k->arrays = NULL;
	k->strings = NULL;
}
