/*
 * What the leak collector is told about a module (docs/modules.md,
 * step 5; docs/memleak.md). The core area is one tracked block: never
 * a leak (min_count 0), and scanned only where pointers to the
 * module's allocations live: its struct module and its writable
 * sections (.data, .bss). The init area is ignored (its code and
 * constants hold no allocations). The module's container_of() records
 * (.init.memleak_offsets) become aliases before its init allocates, and
 * go when it is removed.
 *
 * Locking: module_mutex, held by every caller (module.c); the
 * collector takes its own locks inside the calls.
 */
#include "module_internal.h"
#include <kernel/errno.h>
#include <kernel/memleak.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/slab.h>

/* The module's globals (.data, .bss): roots while it lives. */
static void scan_writable_sections(const struct load_info *info)
{
	const struct elf_file *ef = &info->img.ef;
	const struct module *mod = info->mod;
	u32 core = (u32)(uintptr_t)mod->core.base;

	for (unsigned int i = 1; i < ef->shnum; i++) {
		const struct elf32_shdr *sh = elf_section(ef, i);
		u32 a = module_section_addr(&info->img, i);

		if (a && (sh->sh_flags & SHF_WRITE) && sh->sh_size &&
		    a - core < mod->core.size)
			memleak_scan_area(mod->core.base, a - core,
					  sh->sh_size);
	}
}

static void register_core(struct load_info *info)
{
	struct module *mod = info->mod;
	u8 *core = mod->core.base;

	/* Pages are not tracked by themselves: the collector must know them. */
	memleak_alloc(core, PAGE_SIZE << mod->core.order, 1);
	mod->core.tracked = true;
	/* Only struct module, inside the area, points to it: never a leak. */
	memleak_not_leak(core);
	/* struct module holds the loader's allocations for this module. */
	memleak_scan_area(core, info->img.tail_off, sizeof(*mod));
	scan_writable_sections(info);
}

static void register_init(struct module *mod)
{
	if (!mod->init.base)
		return;
	/* Tracked so that it can be ignored, as the seed does. */
	memleak_alloc(mod->init.base, PAGE_SIZE << mod->init.order, 1);
	mod->init.tracked = true;
	/* Init code and constants hold no allocations: not scanned. */
	memleak_ignore(mod->init.base);
}

#ifdef CONFIG_DEBUG_MEMLEAK
/* The module's container_of() records, as aliases of its blocks. */
static int register_aliases(struct load_info *info)
{
	struct module *mod = info->mod;
	u32 size = 0;
	u32 addr = module_loaded_section(info, ".init.memleak_offsets", &size);

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
	return 0;
}
#else
static int register_aliases(struct load_info *info)
{
	(void)info;
	return 0;
}
#endif

int module_memleak_register(struct load_info *info)
{
	register_core(info);
	register_init(info->mod);
	return register_aliases(info);
}

void module_memleak_unregister(struct module *mod)
{
#ifdef CONFIG_DEBUG_MEMLEAK
	if (mod->nr_aliases)
		memleak_remove_aliases(mod->aliases,
				       mod->aliases + mod->nr_aliases);
#endif
	mod->nr_aliases = 0;
}
