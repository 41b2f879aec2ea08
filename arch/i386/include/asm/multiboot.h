/* The parts of the Multiboot v1 information structure the kernel reads. */
#ifndef ASM_MULTIBOOT_H
#define ASM_MULTIBOOT_H

#include <kernel/types.h>

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2badb002

#define MB_INFO_MEMORY (1 << 0)
#define MB_INFO_CMDLINE (1 << 2)
#define MB_INFO_MODS (1 << 3)
#define MB_INFO_MMAP (1 << 6)
#define MB_INFO_LOADER_NAME (1 << 9)

struct multiboot_info {
	u32 flags;
	u32 mem_lower;		/* KiB below 1 MiB */
	u32 mem_upper;		/* KiB above 1 MiB */
	u32 boot_device;
	u32 cmdline;
	u32 mods_count;
	u32 mods_addr;
	u32 syms[4];
	u32 mmap_length;
	u32 mmap_addr;
	u32 drives_length;
	u32 drives_addr;
	u32 config_table;
	u32 boot_loader_name;
} __attribute__((packed));

struct multiboot_mmap_entry {
	u32 size;		/* of the rest of the entry */
	u64 addr;
	u64 len;
	u32 type;
} __attribute__((packed));

#define MB_MEMORY_AVAILABLE 1

struct multiboot_module {
	u32 mod_start;
	u32 mod_end;
	u32 string;
	u32 reserved;
} __attribute__((packed));

struct boot_info;

/*
 * How multiboot_read() reaches the loader's structures and hands out
 * RAM. The kernel maps physical memory 1:1 and adds to boot_info; the
 * host tests and the fuzzer map a buffer and record the ranges.
 */
struct multiboot_env {
	/* The bytes at physical [addr, addr + len), or NULL if unreadable. */
	const void *(*map)(void *ctx, u32 addr, u32 len);
	/* One usable RAM range, below 4 GiB and never empty. */
	void (*add_ram)(void *ctx, u64 base, u64 size);
	void *ctx;
};

/*
 * Reads the information structure at info_addr: RAM through
 * env->add_ram(), the command line and the boot archive (first module)
 * into bi. Trusts no length or address in it. Returns 0, or -EFAULT
 * when the structure itself cannot be read.
 */
int multiboot_read(const struct multiboot_env *env, u32 info_addr,
		   struct boot_info *bi);

#endif
