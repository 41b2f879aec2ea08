/*
 * The module loader (docs/modules.md). A module is an ELF relocatable
 * object from the boot archive. Loading it:
 *
 *   1. check the whole file (lib/elf.c, then module_layout.c) and read
 *      its name (.modinfo);
 *   2. lay its allocated sections out in two areas of whole pages: the
 *      core (code, data, branch veneers, then struct module itself) and
 *      the init area (.init* sections, freed once init has run unless
 *      CONFIG_DEBUG_KEEP_INIT keeps it for readable backtraces);
 *   3. resolve undefined symbols against the kernel's exports
 *      (__ksymtab) and those of loaded modules, which then count a user
 *      (module_symbols.c);
 *   4. apply the relocations (module_symbols.c, through
 *      arch/<arch>/module_reloc.c);
 *   5. tell the leak collector (the core is not a leak and its struct
 *      module and writable sections are scanned as roots, the init area
 *      is ignored, the module's container_of() aliases are added) and
 *      kallsyms (the module's functions), set the parameters, run init.
 *
 * Steps 1 to 4 are pure computation on the image (module_layout.c and
 * module_symbols.c, which the fuzzer runs on the host); this file holds
 * the memory, the lists and what the rest of the kernel is told. Any
 * failure undoes all of it: nothing stays allocated, registered or
 * listed. module_mutex serializes loads, removals and listings.
 */
#include <kernel/module.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/memleak.h>
#include <kernel/mm.h>
#include <kernel/mutex.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/slab.h>
#include <kernel/string.h>

static LIST_HEAD(modules);
DEFINE_MUTEX(module_mutex);

/* What one load needs only while it runs. */
struct load_info {
	struct module_image img;	/* name: the module's once checked */
	const char *name;
	struct module *mod;
};

/* ------------------------------------------------------------------ */
/* Finding modules and symbols                                         */

static struct module *find_module(const char *name)
{
	struct module *mod;

	list_for_each_entry(mod, &modules, list)
		if (strcmp(mod->name, name) == 0)
			return mod;
	return NULL;
}

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

/* The names stay, as a ghost's, for traces into the module's code. */
static void free_ksyms(const struct module *mod, struct module_ksyms *k)
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
/* Step 3: symbols                                                     */

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

/* Exports of the kernel and of live modules, for module_resolve_symbols(). */
static int lookup_export(void *arg, const char *name, u32 *value)
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

/* ------------------------------------------------------------------ */
/* Step 5: what the module provides                                    */

/* Address of a defined global function of the module, or 0. */
static u32 module_function(const struct load_info *info, const char *name)
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

/* A section of the module as laid out: its address and size, or 0. */
static u32 loaded_section(const struct load_info *info, const char *name,
			  u32 *size)
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
static bool core_string(const struct module *mod, const char *p)
{
	const char *base = mod->core.base;

	return p >= base && p < base + mod->core.size &&
	       memchr(p, '\0', base + mod->core.size - p);
}

/* Its exports: no name the kernel or a loaded module already exports. */
static int find_exports(struct load_info *info)
{
	struct module *mod = info->mod, *owner;
	u32 size = 0, addr = loaded_section(info, "__ksymtab", &size);

	if (!addr)
		return 0;
	if (addr % sizeof(void *) || size % sizeof(struct kernel_symbol)) {
		printk("insmod: %s: malformed __ksymtab\n", info->name);
		return -ENOEXEC;
	}
	mod->syms = (const struct kernel_symbol *)(uintptr_t)addr;
	mod->nsyms = size / sizeof(struct kernel_symbol);
	for (unsigned int i = 0; i < mod->nsyms; i++) {
		if (!core_string(mod, mod->syms[i].name)) {
			printk("insmod: %s: export %u has no name\n", info->name,
			       i);
			return -ENOEXEC;
		}
		if (find_export(mod->syms[i].name, &owner)) {
			printk("insmod: %s: exports '%s', which %s already "
			       "exports\n", info->name, mod->syms[i].name,
			       owner ? owner->name : "the kernel");
			return -EEXIST;
		}
	}
	return 0;
}

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

/* The sorted symbol indices of one area, without overlaps; returns n. */
static unsigned int sort_ksyms(const struct load_info *info, u32 *idx,
			       const struct module_area *area)
{
	const struct elf_file *ef = &info->img.ef;
	unsigned int n = 0, kept = 0;

	for (unsigned int i = 1; i < ef->nsyms; i++) {
		unsigned int j = n;

		if (!ksym_wanted(info, i, area))
			continue;
		n++;
		while (j > 0 && info->img.sym_value[idx[j - 1]] >
					info->img.sym_value[i]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = i;
	}
	for (unsigned int i = 0; i < n; i++) {
		const struct elf32_sym *s = &ef->syms[idx[i]];
		const struct elf32_sym *prev = kept ? &ef->syms[idx[kept - 1]] :
						      NULL;
		u32 v = info->img.sym_value[idx[i]];
		u32 prev_v = kept ? info->img.sym_value[idx[kept - 1]] : 0;

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

/* The kallsyms table of the functions in one of the module's areas. */
static int build_ksyms(struct load_info *info, struct module_ksyms *k,
		       const struct module_area *area)
{
	const struct elf_file *ef = &info->img.ef;
	struct kallsyms_table *t = &k->table;
	unsigned int n;
	u32 *idx, pos = 0;
	const char *why;

	/* A removed module's names must not stand for this one's code. */
	module_ghosts_evict(area->base, area->size);
	idx = kmalloc(ef->nsyms * sizeof(u32), GFP_KERNEL);
	if (!idx)
		return -ENOMEM;
	n = sort_ksyms(info, idx, area);
	if (n == 0) {
		kfree(idx);
		return 0;
	}
	for (unsigned int i = 0; i < n; i++)
		pos += strlen(elf_symbol_name(ef, &ef->syms[idx[i]])) + 1;
	k->arrays = kmalloc(3 * n * sizeof(u32), GFP_KERNEL);
	k->strings = kmalloc(pos, GFP_KERNEL);
	if (!k->arrays || !k->strings) {
		kfree(idx);
		return -ENOMEM;
	}
	t->owner = info->mod->name;
	t->count = n;
	t->addrs = k->arrays;
	t->sizes = k->arrays + n;
	t->names = k->arrays + 2 * n;
	t->strings = k->strings;
	t->strings_size = pos;
	for (unsigned int i = 0, p = 0; i < n; i++) {
		const char *name = elf_symbol_name(ef, &ef->syms[idx[i]]);

		k->arrays[i] = info->img.sym_value[idx[i]];
		k->arrays[n + i] = ef->syms[idx[i]].st_size;
		k->arrays[2 * n + i] = p;
		memcpy(k->strings + p, name, strlen(name) + 1);
		p += strlen(name) + 1;
	}
	kfree(idx);
	why = kallsyms_table_check(t);
	if (why) {
		printk("insmod: %s: no symbols for backtraces: %s\n",
		       info->name, why);
		return 0;
	}
	kallsyms_add_table(t);
	k->added = true;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Parameters                                                          */

static const struct module_param *find_param(const struct load_info *info,
					     const char *name, size_t len)
{
	u32 size = 0, addr = loaded_section(info, ".module_params", &size);
	const struct module_param *p = (const void *)(uintptr_t)addr;

	if (addr % sizeof(void *))
		return NULL;
	for (unsigned int i = 0; i < size / sizeof(*p); i++)
		if (core_string(info->mod, p[i].name) &&
		    strlen(p[i].name) == len && !strncmp(p[i].name, name, len))
			return &p[i];
	return NULL;
}

static int parse_bool(const char *v, bool *out)
{
	if (!*v || !strcmp(v, "1") || !strcmp(v, "y")) {
		*out = true;
		return 0;
	}
	if (!strcmp(v, "0") || !strcmp(v, "n")) {
		*out = false;
		return 0;
	}
	return -EINVAL;
}

/* One "name=value": charp values are copied to *strings as it goes. */
static int set_param(struct load_info *info, const char *arg, char **strings)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const char *v = eq ? eq + 1 : "";
	const struct module_param *p = find_param(info, arg, len);
	long l;
	unsigned long ul;
	bool b;

	if (!p) {
		printk("insmod: %s: unknown parameter '%.*s'\n", info->name,
		       (int)len, arg);
		return -EINVAL;
	}
	if ((u8 *)p->ptr < (u8 *)info->mod->core.base ||
	    (u8 *)p->ptr + sizeof(long) > (u8 *)info->mod->core.base +
						info->mod->core.size) {
		printk("insmod: %s: parameter '%s' is not in the module\n",
		       info->name, p->name);
		return -ENOEXEC;
	}
	switch (p->type) {
	case MODULE_PARAM_int:
		if (kstrtol(v, 0, &l) || l != (int)l)
			goto bad;
		*(int *)p->ptr = l;
		return 0;
	case MODULE_PARAM_uint:
		if (kstrtoul(v, 0, &ul) || ul != (unsigned int)ul)
			goto bad;
		*(unsigned int *)p->ptr = ul;
		return 0;
	case MODULE_PARAM_bool:
		if (parse_bool(v, &b))
			goto bad;
		*(bool *)p->ptr = b;
		return 0;
	case MODULE_PARAM_charp:
		*(char **)p->ptr = *strings;
		*strings += strlen(v) + 1;
		memcpy(*(char **)p->ptr, v, strlen(v) + 1);
		return 0;
	}
bad:
	printk("insmod: %s: bad value '%s' for parameter '%.*s'\n", info->name,
	       v, (int)len, arg);
	return -EINVAL;
}

static int set_params(struct load_info *info, int argc, char **argv)
{
	size_t total = 0;
	char *strings;
	int err;

	for (int i = 0; i < argc; i++)
		total += strlen(argv[i]) + 1;
	if (!total)
		return 0;
	strings = info->mod->param_strings = kmalloc(total, GFP_KERNEL);
	if (!strings)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		err = set_param(info, argv[i], &strings);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The leak collector                                                  */

/*
 * The core area is one tracked block: never a leak (min_count 0), and
 * scanned only where pointers to the module's allocations live: its
 * struct module and its writable sections (.data, .bss). The init area
 * is ignored (its code and constants hold no allocations). The module's
 * container_of() records become aliases before its init allocates.
 */
static int memleak_register(struct load_info *info)
{
	const struct elf_file *ef = &info->img.ef;
	struct module *mod = info->mod;
	u8 *core = mod->core.base;
	u32 size = 0, addr;

	/* Pages are not tracked by themselves: the collector must know them. */
	memleak_alloc(core, PAGE_SIZE << mod->core.order, 1);
	mod->core.tracked = true;
	/* Only struct module, inside the area, points to it: never a leak. */
	memleak_not_leak(core);
	/* struct module holds the loader's allocations for this module. */
	memleak_scan_area(core, info->img.tail_off, sizeof(*mod));
	for (unsigned int i = 1; i < ef->shnum; i++) {
		const struct elf32_shdr *sh = elf_section(ef, i);
		u32 a = module_section_addr(&info->img, i);

		/* The module's globals (.data, .bss): roots while it lives. */
		if (a && (sh->sh_flags & SHF_WRITE) && sh->sh_size &&
		    a - (u32)(uintptr_t)core < mod->core.size)
			memleak_scan_area(core, a - (u32)(uintptr_t)core,
					  sh->sh_size);
	}
	if (mod->init.base) {
		/* Tracked so that it can be ignored, as the seed does. */
		memleak_alloc(mod->init.base, PAGE_SIZE << mod->init.order, 1);
		mod->init.tracked = true;
		/* Init code and constants hold no allocations: not scanned. */
		memleak_ignore(mod->init.base);
	}
#ifdef CONFIG_DEBUG_MEMLEAK
	addr = loaded_section(info, ".init.memleak_offsets", &size);
	if (!addr || !size)
		return 0;
	if (addr % sizeof(long) || size % sizeof(struct memleak_offset)) {
		printk("insmod: %s: malformed .init.memleak_offsets\n",
		       info->name);
		return -ENOEXEC;
	}
	/* A copy: the records go with the init area, unload needs them. */
	mod->aliases = kmalloc(size, GFP_KERNEL);
	if (!mod->aliases)
		return -ENOMEM;
	memcpy(mod->aliases, (void *)(uintptr_t)addr, size);
	mod->nr_aliases = size / sizeof(struct memleak_offset);
	if (memleak_insert_aliases(mod->aliases,
				   mod->aliases + mod->nr_aliases)) {
		mod->nr_aliases = 0;
		return -ENOMEM;
	}
#else
	(void)addr, (void)size;
#endif
	return 0;
}

static void memleak_unregister(struct module *mod)
{
#ifdef CONFIG_DEBUG_MEMLEAK
	if (mod->nr_aliases)
		memleak_remove_aliases(mod->aliases,
				       mod->aliases + mod->nr_aliases);
#endif
	mod->nr_aliases = 0;
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
	free_ksyms(mod, &mod->ksyms_init);
	free_ksyms(mod, &mod->ksyms_core);
	memleak_unregister(mod);
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
	free_ksyms(mod, &mod->ksyms_init);
	free_area(&mod->init);
}

static int prepare(struct load_info *info, int argc, char **argv)
{
	struct module *mod = info->mod;
	int err;

	err = module_resolve_symbols(&info->img, lookup_export, info);
	if (!err)
		err = module_relocate(&info->img);
	if (!err)
		err = find_exports(info);
	if (!err)
		err = set_params(info, argc, argv);
	if (!err)
		err = memleak_register(info);
	if (!err)
		err = build_ksyms(info, &mod->ksyms_core, &mod->core);
	if (!err)
		err = build_ksyms(info, &mod->ksyms_init, &mod->init);
	if (err == -ENOMEM)
		printk("insmod: %s: out of memory\n", info->name);
	mod->init_fn = (int (*)(void))(uintptr_t)module_function(info,
								 "init_module");
	mod->exit_fn = (void (*)(void))(uintptr_t)module_function(info,
								  "cleanup_module");
	return err;
}

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

int module_load(const char *name, int argc, char **argv)
{
	struct load_info info = { 0 };
	struct module_image *img = &info.img;
	const void *data;
	size_t size;
	int err;

	err = module_archive_find(name, &data, &size);
	if (err)
		return err;
	err = elf_parse(&img->ef, data, size, module_arch_reloc->machine);
	if (err) {
		printk("insmod: %s: %s\n", name, elf_strerror(err));
		return -ENOEXEC;
	}
	img->name = name;
	img->arch = module_arch_reloc;
	img->sec_area = kcalloc(img->ef.shnum, 1, GFP_KERNEL);
	img->sec_off = kcalloc(img->ef.shnum, sizeof(u32), GFP_KERNEL);
	img->sym_value = kcalloc(img->ef.nsyms, sizeof(u32), GFP_KERNEL);
	if (img->sec_area && img->sec_off && img->sym_value) {
		mutex_lock(&module_mutex);
		err = load_image(&info, argc, argv);
		mutex_unlock(&module_mutex);
	} else {
		printk("insmod: %s: out of memory\n", name);
		err = -ENOMEM;
	}
	kfree(img->sec_area);
	kfree(img->sec_off);
	kfree(img->sym_value);
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

int module_unload(const char *name)
{
	struct module *mod;
	int err = 0;

	mutex_lock(&module_mutex);
	mod = find_module(name);
	if (!mod) {
		printk("rmmod: no module '%s' is loaded (lsmod lists them)\n",
		       name);
		err = -ENOENT;
	} else if (mod->refcount) {
		printk("rmmod: %s is in use by", name);
		print_users(mod);
		printk("\n");
		err = -EBUSY;
	} else if (mod->init_fn && !mod->exit_fn) {
		printk("rmmod: %s has no exit function: it cannot be removed\n",
		       name);
		err = -EBUSY;
	}
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
