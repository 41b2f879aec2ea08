/*
 * Reads the Multiboot v1 information structure. Only pure parsing: all
 * memory goes through env->map(), so that the host tests and the fuzzer
 * build it too (arch/i386/multiboot.c does the kernel's side).
 */
#include <kernel/bootinfo.h>
#include <kernel/errno.h>
#include <asm/multiboot.h>

/* RAM above 4 GiB is out of reach without PAE. */
#define ADDR_LIMIT 0x100000000ULL

static void add_ram_below_4g(const struct multiboot_env *env, u64 base, u64 len)
{
	if (base >= ADDR_LIMIT)
		return;
	/* Not base + len > ADDR_LIMIT: a huge len wraps that sum around. */
	if (len > ADDR_LIMIT - base)
		len = ADDR_LIMIT - base;
	if (len)
		env->add_ram(env->ctx, base, len);
}

/*
 * An entry is its size field plus size bytes: 20, or more when the
 * loader appends fields. An entry shorter than that, or a map running
 * past 4 GiB, is broken, and nothing after it can be trusted to start
 * where it claims: reading stops there.
 */
static void read_mmap(const struct multiboot_env *env,
		      const struct multiboot_info *mbi)
{
	const struct multiboot_mmap_entry *e;
	u32 pos = mbi->mmap_addr, left = mbi->mmap_length;
	u64 step;

	if (left && left - 1 > ~pos)
		return;
	while (left >= sizeof(*e)) {
		e = env->map(env->ctx, pos, sizeof(*e));
		if (!e || e->size < sizeof(*e) - sizeof(e->size))
			return;
		if (e->type == MB_MEMORY_AVAILABLE)
			add_ram_below_4g(env, e->addr, e->len);
		step = (u64)e->size + sizeof(e->size);
		if (step >= left)
			return;
		pos += step;
		left -= step;
	}
}

static void read_modules(const struct multiboot_env *env,
			 const struct multiboot_info *mbi, struct boot_info *bi)
{
	const struct multiboot_module *mod;

	if (mbi->mods_count == 0)
		return;
	mod = env->map(env->ctx, mbi->mods_addr, sizeof(*mod));
	/* A module ending before it starts cannot be the archive. */
	if (!mod || mod->mod_end < mod->mod_start)
		return;
	/* The first module is the boot archive. */
	bi->initrd_start = mod->mod_start;
	bi->initrd_end = mod->mod_end;
}

/* Copies the command line a byte at a time: its length is unknown. */
static void read_cmdline(const struct multiboot_env *env, u32 addr,
			 struct boot_info *bi)
{
	size_t i;

	for (i = 0; i < sizeof(bi->cmdline) - 1; i++) {
		const char *c = env->map(env->ctx, addr + i, 1);

		if (!c || !*c)
			break;
		bi->cmdline[i] = *c;
	}
	bi->cmdline[i] = '\0';
}

int multiboot_read(const struct multiboot_env *env, u32 info_addr,
		   struct boot_info *bi)
{
	const struct multiboot_info *mbi =
		env->map(env->ctx, info_addr, sizeof(*mbi));

	if (!mbi)
		return -EFAULT;
	bi->loader = "multiboot";
	if (mbi->flags & MB_INFO_CMDLINE)
		read_cmdline(env, mbi->cmdline, bi);
	if (mbi->flags & MB_INFO_MMAP)
		read_mmap(env, mbi);
	else if (mbi->flags & MB_INFO_MEMORY)
		add_ram_below_4g(env, 0x100000, (u64)mbi->mem_upper * 1024);
	if (mbi->flags & MB_INFO_MODS)
		read_modules(env, mbi, bi);
	return 0;
}
