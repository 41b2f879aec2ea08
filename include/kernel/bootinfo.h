/*
 * What the boot loader told us, in one arch-neutral form: filled by the
 * arch code from the Multiboot info (i386) or the device tree (ARM).
 */
#ifndef KERNEL_BOOTINFO_H
#define KERNEL_BOOTINFO_H

#include <kernel/types.h>

#define BOOT_MAX_RAM_RANGES 16
#define BOOT_CMDLINE_SIZE 512

struct mem_range {
	phys_addr_t base;
	phys_addr_t size;
};

struct boot_info {
	const char *loader;		/* "multiboot", "fdt", ... */
	char cmdline[BOOT_CMDLINE_SIZE];
	struct mem_range ram[BOOT_MAX_RAM_RANGES];	/* usable RAM */
	int nr_ram;
	phys_addr_t initrd_start, initrd_end;	/* 0, 0 when none */
};

extern struct boot_info boot_info;

/* Adds a usable RAM range, dropping it with a warning when full. */
void boot_add_ram(phys_addr_t base, phys_addr_t size);

/* Total usable RAM in bytes. */
phys_addr_t boot_ram_total(void);

#endif
