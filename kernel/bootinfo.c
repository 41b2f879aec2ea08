/* boot_info: what the boot loader told us, and the 'cmdline' command. */
#include <kernel/bootinfo.h>
#include <kernel/printk.h>
#include <kernel/shell.h>

struct boot_info boot_info;

void boot_add_ram(phys_addr_t base, phys_addr_t size)
{
	if (size == 0)
		return;
	if (boot_info.nr_ram == BOOT_MAX_RAM_RANGES) {
		printk("warning: more than %d RAM ranges, ignoring %llx+%llx\n",
		       BOOT_MAX_RAM_RANGES, (unsigned long long)base,
		       (unsigned long long)size);
		return;
	}
	boot_info.ram[boot_info.nr_ram].base = base;
	boot_info.ram[boot_info.nr_ram].size = size;
	boot_info.nr_ram++;
}

phys_addr_t boot_ram_total(void)
{
	phys_addr_t total = 0;

	for (int i = 0; i < boot_info.nr_ram; i++)
		total += boot_info.ram[i].size;
	return total;
}

static int cmd_cmdline(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("%s\n", boot_info.cmdline);
	return 0;
}
SHELL_COMMAND("cmdline", cmd_cmdline, "cmdline",
	      "print the kernel command line");

static int cmd_bootinfo(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("loader: %s\n", boot_info.loader ? boot_info.loader : "?");
	for (int i = 0; i < boot_info.nr_ram; i++) {
		const struct mem_range *r = &boot_info.ram[i];

		printk("ram: %08llx-%08llx (%llu KiB)\n",
		       (unsigned long long)r->base,
		       (unsigned long long)(r->base + r->size - 1),
		       (unsigned long long)r->size / 1024);
	}
	printk("total: %llu KiB\n", (unsigned long long)boot_ram_total() / 1024);
	if (boot_info.initrd_end > boot_info.initrd_start)
		printk("initrd: %08llx-%08llx\n",
		       (unsigned long long)boot_info.initrd_start,
		       (unsigned long long)boot_info.initrd_end);
	return 0;
}
SHELL_COMMAND("bootinfo", cmd_bootinfo, "bootinfo",
	      "print what the boot loader passed: memory map, initrd");
