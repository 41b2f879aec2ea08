/*
 * mm_init(): from the boot loader's memory map to kmalloc, in layers:
 * memblock learns the RAM and what boot already uses, the page array
 * and the buddy allocator take every free page, then the slab caches
 * and kmalloc start. Also the 'meminfo' command.
 */
#include <kernel/mm.h>
#include <kernel/memblock.h>
#include <kernel/slab.h>
#include <kernel/bootinfo.h>
#include <kernel/cmdline.h>
#include <kernel/init.h>
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/printk.h>
#include <kernel/shell.h>

#define KIB(pages) ((pages) * (PAGE_SIZE / 1024))

/* RAM from boot_info, less what lies above LOWMEM_LIMIT (no struct page there). */
static void __init add_boot_ram(void)
{
	for (int i = 0; i < boot_info.nr_ram; i++) {
		phys_addr_t base = boot_info.ram[i].base;
		phys_addr_t end = base + boot_info.ram[i].size;

		if (end > LOWMEM_LIMIT) {
			phys_addr_t from = max(base, (phys_addr_t)LOWMEM_LIMIT);

			printk("mm: ignoring RAM %llx-%llx above the low memory limit %lx\n",
			       from, end - 1, LOWMEM_LIMIT);
			end = from;
		}
		if (end > base)
			memblock_add(base, end - base);
	}
}

/*
 * What boot already uses: page 0 (a NULL pointer is never a valid
 * allocation), the kernel image, everything in RAM below it (i386: the
 * BIOS data, the Multiboot information and the first MiB; ARM: the
 * device tree QEMU puts at the start of RAM), and the initrd.
 */
static void __init reserve_boot_memory(void)
{
	phys_addr_t kstart = __pa(__kernel_start), kend = __pa(__kernel_end);
	phys_addr_t ram = memblock_memory.regions[0].base;

	memblock_reserve(0, PAGE_SIZE);
	memblock_reserve(kstart, kend - kstart);
	if (kstart > ram)
		memblock_reserve(ram, kstart - ram);
	if (boot_info.initrd_end > boot_info.initrd_start)
		memblock_reserve(boot_info.initrd_start,
				 boot_info.initrd_end - boot_info.initrd_start);
}

void __init mm_init(void)
{
	memblock_init();
	add_boot_ram();
	if (memblock_memory.cnt == 0)
		panic("mm: the boot loader reported no usable RAM");
	reserve_boot_memory();
	if (cmdline_has(boot_info.cmdline, "memblock_debug"))
		memblock_dump();
	page_alloc_init();
	kmem_cache_init();
	kmalloc_init();
	/* The collector's caches, and the replay of what it saw until now. */
	memleak_init();
	printk("mm: %lu KiB RAM, %lu KiB free, %lu KiB kept by boot\n",
	       KIB(page_state(NR_RAM_PAGES)), KIB(nr_free_pages()),
	       KIB(page_state(NR_BOOT_PAGES)));
}

static void print_line(const char *name, unsigned long pages)
{
	printk("%-14s %8lu KiB\n", name, KIB(pages));
}

static int cmd_meminfo(int argc, char **argv)
{
	unsigned long total = page_state(NR_RAM_PAGES);
	long other = (long)total - (long)nr_free_pages();

	(void)argv;
	if (argc != 1) {
		printk("usage: meminfo\n");
		return 1;
	}
	for (int i = NR_SLAB_PAGES; i <= NR_BOOT_PAGES; i++)
		other -= (long)page_state(i);
	print_line("MemTotal:", total);
	print_line("MemFree:", nr_free_pages());
	print_line("Slab:", page_state(NR_SLAB_PAGES));
	print_line("KmallocLarge:", page_state(NR_KMALLOC_LARGE_PAGES));
	print_line("Vmalloc:", page_state(NR_VMALLOC_PAGES));
	print_line("PageTables:", page_state(NR_PAGETABLE_PAGES));
	print_line("BootReserved:", page_state(NR_BOOT_PAGES));
	print_line("OtherPages:", other > 0 ? (unsigned long)other : 0);
	/* Not part of the sum above: these pages are counted in MemFree. */
	print_line("InitFreed:", initmem_freed_pages());
	printk("%-14s %8lu\n", "MmErrors:", mm_errors());
	return 0;
}
SHELL_COMMAND("meminfo", cmd_meminfo, "meminfo",
	      "memory use in KiB: free, slab, kmalloc, vmalloc, page tables");
