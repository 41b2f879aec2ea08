/*
 * Turns the Multiboot information into the arch-neutral boot_info: the
 * kernel's side of multiboot_info.c, with physical memory read 1:1.
 */
#include <kernel/bootinfo.h>
#include <kernel/printk.h>
#include <asm/multiboot.h>
#include <asm/i386.h>

/* This early, memory below 4 GiB is mapped 1:1; a range may not wrap. */
static const void *map_identity(void *ctx, u32 addr, u32 len)
{
	(void)ctx;
	if (addr == 0 || (len && len - 1 > ~addr))
		return NULL;
	return (const void *)addr;
}

static void add_ram(void *ctx, u64 base, u64 size)
{
	(void)ctx;
	boot_add_ram(base, size);
}

void multiboot_parse(u32 magic, u32 info_addr)
{
	static const struct multiboot_env env = {
		.map = map_identity,
		.add_ram = add_ram,
	};

	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		panic("not started by a Multiboot loader (eax=%08x)", magic);
	if (multiboot_read(&env, info_addr, &boot_info))
		panic("cannot read the Multiboot information at %08x",
		      info_addr);
	if (boot_info.nr_ram == 0)
		panic("the boot loader reported no usable memory");
}
