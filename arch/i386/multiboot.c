/* Turns the Multiboot information into the arch-neutral boot_info. */
#include <kernel/bootinfo.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <asm/multiboot.h>
#include <asm/i386.h>

/* RAM above 4 GiB is out of reach without PAE. */
#define ADDR_LIMIT 0x100000000ULL

static void add_ram_below_4g(u64 base, u64 len)
{
	if (base >= ADDR_LIMIT)
		return;
	if (base + len > ADDR_LIMIT)
		len = ADDR_LIMIT - base;
	boot_add_ram(base, len);
}

static void parse_mmap(const struct multiboot_info *mbi)
{
	u32 pos = mbi->mmap_addr;
	u32 end = mbi->mmap_addr + mbi->mmap_length;

	while (pos + sizeof(struct multiboot_mmap_entry) <= end) {
		const struct multiboot_mmap_entry *e = (const void *)pos;

		if (e->type == MB_MEMORY_AVAILABLE)
			add_ram_below_4g(e->addr, e->len);
		pos += e->size + sizeof(e->size);
	}
}

static void parse_modules(const struct multiboot_info *mbi)
{
	const struct multiboot_module *mod = (const void *)mbi->mods_addr;

	if (mbi->mods_count == 0)
		return;
	/* The first module is the boot archive. */
	boot_info.initrd_start = mod->mod_start;
	boot_info.initrd_end = mod->mod_end;
}

void multiboot_parse(u32 magic, u32 info_addr)
{
	const struct multiboot_info *mbi = (const void *)info_addr;

	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		panic("not started by a Multiboot loader (eax=%08x)", magic);
	boot_info.loader = "multiboot";
	if (mbi->flags & MB_INFO_CMDLINE)
		strlcpy(boot_info.cmdline, (const char *)mbi->cmdline,
			sizeof(boot_info.cmdline));
	if (mbi->flags & MB_INFO_MMAP)
		parse_mmap(mbi);
	else if (mbi->flags & MB_INFO_MEMORY)
		boot_add_ram(0x100000, (u64)mbi->mem_upper * 1024);
	if (mbi->flags & MB_INFO_MODS)
		parse_modules(mbi);
	if (boot_info.nr_ram == 0)
		panic("the boot loader reported no usable memory");
}
