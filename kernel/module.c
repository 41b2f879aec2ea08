/*
 * The module loader's lifecycle (docs/modules.md): load and unload. A
 * module is an ELF relocatable object from the boot archive. Loading it:
 *
 *   1. check the whole file (lib/elf.c, then module_layout.c) and read
 *      its name (.modinfo);
 *   2. lay its allocated sections out in two areas of whole pages: the
 *      core (code, data, branch veneers, then struct module itself) and
 *      the init area (.init* sections, freed once init has run unless
 *      CONFIG_DEBUG_KEEP_INIT keeps it for readable backtraces);
 *   3. resolve undefined symbols against the kernel's exports
 *      (__ksymtab) and those of loaded modules, which then count a user
 *      (module_symbols.c over module_exports.c);
 *   4. apply the relocations (module_symbols.c, through
 *      arch/<arch>/module_reloc.c);
 *   5. take its exports (module_exports.c), set the parameters
 *      (module_params.c), tell the leak collector (module_memleak.c) and
 *      kallsyms (module_kallsyms.c), run init.
 *
 * Steps 1 to 4 are pure computation on the image, which the fuzzer runs
 * on the host; module_internal.h lists the files of the others. This
 * file holds the memory, the list and the order of the steps. Any
 * failure undoes all of it: nothing stays allocated, registered or
 * listed.
 *
 * Locking: module_mutex serializes loads, removals and listings; every
 * other file of the loader runs under it.
 */
#include "module_internal.h"
#include <kernel/errno.h>
#include <kernel/memleak.h>
#include <kernel/mm.h>
#include <kernel/mutex.h>
#include <kernel/printk.h>
#include <kernel/slab.h>

LIST_HEAD(modules);
DEFINE_MUTEX(module_mutex);

/* ------------------------------------------------------------------ */
/* Finding modules                                                     */

static struct module *find_module(const char *name)
{
	struct module *mod;

	list_for_each_entry(mod, &modules, list)
		if (strcmp(mod->name, name) == 0)
			return mod;
	return NULL;
}

/* ------------------------------------------------------------------ */
/* Memory of a module                                                  */

static int alloc_area(struct module_area *area, unsigned long size)
{
	area->size = size;
	if (!size)
		return 0;
	area->order = get_order(size);
	area->base = (void *)__get_free_pages(GFP_KERNEL, area->order);
	if (!area->base)
		return -ENOMEM;
	memset(area->base, 0, PAGE_SIZE << area->order);
	return 0;
}

/* Gives an area back, and takes it from the collector first. */
static void free_area(struct module_area *area)
{
	if (!area->base)
		return;
	if (area->tracked)
		memleak_free(area->base);
	free_pages((unsigned long)area->base, area->order);
	area->base = NULL;
	area->size = 0;
}

/* ------------------------------------------------------------------ */
/* Step 1: the file and its name                                       */

static int check_file(struct load_info *info)
{
	int err = module_check_image(&info->img);

	if (err)
		return err;
	info->name = info->img.name;
	if (find_module(info->name)) {
		printk("insmod: module '%s' is already loaded\n", info->name);
		return -EEXIST;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Step 2: layout                                                      */

/* The image's area a, allocated: bytes and address are the same here. */
static void set_place(struct module_place *p, const struct module_area *a)
{
	p->base = a->base;
	p->addr = (u32)(uintptr_t)a->base;
}

/* Allocates both areas and copies the sections into place. */
static int move_module(struct load_info *info)
{
	struct module_image *img = &info->img;
	struct module_area core = { 0 }, init = { 0 };
	struct module *mod;

	if (alloc_area(&core, img->area[MODULE_AREA_CORE].size))
		goto nomem;
	if (alloc_area(&init, img->area[MODULE_AREA_INIT].size)) {
		free_area(&core);
		goto nomem;
	}
	mod = info->mod = (struct module *)((u8 *)core.base + img->tail_off);
	mod->core = core;
	mod->init = init;
	strlcpy(mod->name, info->name, sizeof(mod->name));
	mod->state = MODULE_LOADING;
	INIT_LIST_HEAD(&mod->list);
	set_place(&img->area[MODULE_AREA_CORE], &core);
	set_place(&img->area[MODULE_AREA_INIT], &init);
	module_copy_sections(img);
	return 0;
nomem:
	printk("insmod: %s: out of memory for %u + %u bytes\n", info->name,
	       img->area[MODULE_AREA_CORE].size,
	       img->area[MODULE_AREA_INIT].size);
	return -ENOMEM;
}

/* ------------------------------------------------------------------ */
/* Loading and unloading                                               */

/*
 * Undoes whatever part of a load happened, in reverse: the module is
 * off the list, its tables and aliases are gone, the modules it used
 * lose a user, and the core area (holding mod itself) goes last.
 */
static void free_module(struct module *mod)
{
	struct module_area core = mod->core;

	list_del(&mod->list);
	module_free_ksyms(mod, &mod->ksyms_init);
	module_free_ksyms(mod, &mod->ksyms_core);
	module_memleak_unregister(mod);
	for (unsigned int i = 0; i < mod->nuses; i++)
		mod->uses[i]->refcount--;
	kfree(mod->uses);
	kfree(mod->aliases);
	kfree(mod->param_strings);
	free_area(&mod->init);
	free_area(&core);
}

static void free_init(struct module *mod)
{
	module_free_ksyms(mod, &mod->ksyms_init);
	free_area(&mod->init);
}

/* Steps 3 to 5 short of init, on the module in place: 0 or an error. */
static int prepare(struct load_info *info, int argc, char **argv)
{
	struct module *mod = info->mod;
	int err;

	err = module_resolve_symbols(&info->img, module_lookup_export,
				     info);
	if (!err)
		err = module_relocate(&info->img);
	if (!err)
		err = module_find_exports(info);
	if (!err)
		err = module_set_params(info, argc, argv);
	if (!err)
		err = module_memleak_register(info);
	if (!err)
		err = module_build_ksyms(info, &mod->ksyms_core, &mod->core);
	if (!err)
		err = module_build_ksyms(info, &mod->ksyms_init, &mod->init);
	if (err == -ENOMEM)
		printk("insmod: %s: out of memory\n", info->name);
	mod->init_fn = (int (*)(void))(uintptr_t)module_function(info,
								 "init_module");
	mod->exit_fn = (void (*)(void))(uintptr_t)module_function(info,
								  "cleanup_module");
	return err;
}

/* Lists the module, runs its init and frees the init area after it. */
static int run_init(struct module *mod)
{
	int ret;

	module_arch_sync_code(mod->core.base, mod->core.size);
	module_arch_sync_code(mod->init.base, mod->init.size);
	list_add_tail(&mod->list, &modules);
	ret = mod->init_fn ? mod->init_fn() : 0;
	if (ret) {
		printk("insmod: %s: its init failed with error %d\n", mod->name,
		       ret);
		return ret < 0 ? ret : -EINVAL;
	}
	mod->state = MODULE_LIVE;
	if (!IS_ENABLED(CONFIG_DEBUG_KEEP_INIT))
		free_init(mod);
	return 0;
}

/* Every step on a parsed image, module_mutex held: 0 or an error. */
static int load_image(struct load_info *info, int argc, char **argv)
{
	int err;

	err = check_file(info);
	if (!err)
		err = module_layout(&info->img, sizeof(struct module));
	if (!err)
		err = move_module(info);
	if (err)
		return err;
	err = prepare(info, argc, argv);
	if (!err)
		err = run_init(info->mod);
	if (err) {
		free_module(info->mod);
		return err;
	}
	printk("insmod: %s: loaded at 0x%08lx (%lu bytes, init %lu at 0x%08lx)\n",
	       info->mod->name, (unsigned long)info->mod->core.base,
	       info->mod->core.size, info->mod->init.size,
	       (unsigned long)info->mod->init.base);
	return 0;
}

/* Parses the image and gives it the zeroed arrays the steps fill. */
static int open_image(struct module_image *img, const char *name,
		      const void *data, size_t size)
{
	int err = elf_parse(&img->ef, data, size, module_arch_reloc->machine);

	if (err) {
		printk("insmod: %s: %s\n", name, elf_strerror(err));
		return -ENOEXEC;
	}
	img->name = name;
	img->arch = module_arch_reloc;
	img->sec_area = kcalloc(img->ef.shnum, 1, GFP_KERNEL);
	img->sec_off = kcalloc(img->ef.shnum, sizeof(u32), GFP_KERNEL);
	img->sym_value = kcalloc(img->ef.nsyms, sizeof(u32), GFP_KERNEL);
	if (img->sec_area && img->sec_off && img->sym_value)
		return 0;
	printk("insmod: %s: out of memory\n", name);
	return -ENOMEM;
}

static void close_image(struct module_image *img)
{
	kfree(img->sec_area);
	kfree(img->sec_off);
	kfree(img->sym_value);
}

int module_load(const char *name, int argc, char **argv)
{
	struct load_info info = { 0 };
	const void *data;
	size_t size;
	int err;

	err = module_archive_find(name, &data, &size);
	if (err)
		return err;
	err = open_image(&info.img, name, data, size);
	if (!err) {
		mutex_lock(&module_mutex);
		err = load_image(&info, argc, argv);
		mutex_unlock(&module_mutex);
	}
	close_image(&info.img);
	return err;
}

/* Prints the modules that use mod (the reason it cannot go). */
static void print_users(const struct module *mod)
{
	struct module *m;

	list_for_each_entry(m, &modules, list)
		for (unsigned int i = 0; i < m->nuses; i++)
			if (m->uses[i] == mod)
				printk(" %s", m->name);
}

/* Why module name cannot go (printed): -ENOENT, -EBUSY, or 0. */
static int check_unload(const char *name, struct module *mod)
{
	if (!mod) {
		printk("rmmod: no module '%s' is loaded (lsmod lists them)\n",
		       name);
		return -ENOENT;
	}
	if (mod->refcount) {
		printk("rmmod: %s is in use by", name);
		print_users(mod);
		printk("\n");
		return -EBUSY;
	}
	if (mod->init_fn && !mod->exit_fn) {
		printk("rmmod: %s has no exit function: it cannot be removed\n",
		       name);
		return -EBUSY;
	}
	return 0;
}

int module_unload(const char *name)
{
	struct module *mod;
	int err;

	mutex_lock(&module_mutex);
	mod = find_module(name);
	err = check_unload(name, mod);
	if (err) {
		mutex_unlock(&module_mutex);
		return err;
	}
	mod->state = MODULE_UNLOADING;
	if (mod->exit_fn)
		mod->exit_fn();
	printk("rmmod: %s: removed\n", mod->name);
	free_module(mod);
	mutex_unlock(&module_mutex);
	return 0;
}

static const char *state_name(enum module_state s)
{
	switch (s) {
	case MODULE_LOADING:
		return "loading";
	case MODULE_LIVE:
		return "live";
	case MODULE_UNLOADING:
		return "unloading";
	}
	return "?";
}

/* The lsmod table: one line per loaded module. */
void module_print_list(void)
{
	struct module *mod;

	mutex_lock(&module_mutex);
	printk("%-20s %8s %5s %-10s %s\n", "Module", "Size", "Used", "State",
	       "Used by");
	list_for_each_entry(mod, &modules, list) {
		printk("%-20s %8lu %5u %-10s", mod->name,
		       mod->core.size + mod->init.size, mod->refcount,
		       state_name(mod->state));
		print_users(mod);
		printk("\n");
	}
	mutex_unlock(&module_mutex);
}
