/* Turns the device tree QEMU passes into the arch-neutral boot_info. */
#include <kernel/kernel.h>
#include <kernel/bootinfo.h>
#include <kernel/fdt.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <asm/arm.h>

/* The blob sits below the kernel, which is linked 1 MiB above it. */
#define FDT_MAX_SIZE 0x100000

static const void *find_blob(const void *hint)
{
	if (hint && fdt_totalsize(hint))
		return hint;
	return (const void *)CONFIG_FDT_SEARCH_ADDR;
}

static void parse_memory(const void *blob)
{
	struct fdt_reg regs[BOOT_MAX_RAM_RANGES];
	int node;

	fdt_for_each_memory_node(blob, node) {
		int n = fdt_get_reg(blob, node, regs, ARRAY_SIZE(regs));

		if (n < 0) {
			printk("devtree: bad reg in %s: %s\n",
			       fdt_get_name(blob, node), fdt_strerror(n));
			continue;
		}
		for (int i = 0; i < n && i < (int)ARRAY_SIZE(regs); i++)
			boot_add_ram(regs[i].base, regs[i].size);
	}
}

static void parse_chosen(const void *blob)
{
	int chosen = fdt_path_offset(blob, "/chosen");
	const char *bootargs;
	u64 start, end;

	if (chosen < 0)
		return;
	bootargs = fdt_getprop_string(blob, chosen, "bootargs");
	if (bootargs)
		strlcpy(boot_info.cmdline, bootargs, sizeof(boot_info.cmdline));
	if (fdt_read_u64(blob, chosen, "linux,initrd-start", &start) == 0 &&
	    fdt_read_u64(blob, chosen, "linux,initrd-end", &end) == 0 &&
	    end > start) {
		boot_info.initrd_start = start;
		boot_info.initrd_end = end;
	}
}

void devtree_parse(const void *hint)
{
	const void *blob = find_blob(hint);
	int err = fdt_check(blob, FDT_MAX_SIZE);

	if (err)
		panic("no usable device tree at %p: %s", blob,
		      fdt_strerror(err));
	boot_info.loader = "fdt";
	parse_memory(blob);
	parse_chosen(blob);
	psci_init(blob);
	arm_smp_enumerate(blob);
	if (boot_info.nr_ram == 0)
		panic("the device tree describes no memory");
}
