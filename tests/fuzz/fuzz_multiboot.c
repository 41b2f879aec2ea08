/*
 * libFuzzer target for the Multiboot information reader
 * (arch/i386/multiboot_info.c). The input is physical memory at BASE,
 * with the information structure at its start. Its cmdline, mods_addr
 * and mmap_addr fields are offsets into the input when their top byte
 * is 0 (so that the memory map and the module list come from the fuzz
 * bytes too), raw addresses otherwise. Every map() hands out a fresh
 * copy of exactly the bytes asked for, so that ASan catches a read past
 * what the reader mapped; each RAM range must lie below 4 GiB and no
 * loop may run away (libFuzzer's -timeout catches one that does).
 */
#include <kernel/bootinfo.h>
#include <kernel/string.h>
#include <asm/multiboot.h>
#include <stdlib.h>

#define BASE 0x100000u
#define LIMIT_4G 0x100000000ULL
/* A map read more often than this has lost its way. */
#define MAX_MAPS 100000

struct memory {
	const u8 *data;
	size_t size;
	void **copies;
	size_t nr_copies, max_copies;
};

static void fail_if(bool cond)
{
	if (cond)
		abort();
}

static const void *map(void *ctx, u32 addr, u32 len)
{
	struct memory *m = ctx;
	size_t off = (size_t)addr - BASE;
	void *copy;

	if (addr < BASE || off > m->size || len > m->size - off)
		return NULL;
	fail_if(m->nr_copies == MAX_MAPS);
	if (m->nr_copies == m->max_copies) {
		m->max_copies = m->max_copies ? 2 * m->max_copies : 64;
		m->copies = realloc(m->copies,
				    m->max_copies * sizeof(*m->copies));
	}
	copy = malloc(len ? len : 1);
	memcpy(copy, m->data + off, len);
	m->copies[m->nr_copies++] = copy;
	return copy;
}

static void add_ram(void *ctx, u64 base, u64 size)
{
	(void)ctx;
	fail_if(size == 0 || base >= LIMIT_4G || size > LIMIT_4G - base);
}

/* An offset into the input becomes the address it has at BASE. */
static void relocate(u8 *info, size_t size, size_t field)
{
	u32 v;

	if (size < field + 4)
		return;
	memcpy(&v, info + field, 4);
	if (!(v >> 24)) {
		v += BASE;
		memcpy(info + field, &v, 4);
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 *mem = malloc(size ? size : 1);
	struct memory m = { .data = mem, .size = size };
	struct multiboot_env env = { map, add_ram, &m };
	struct boot_info bi;
	int err;

	memcpy(mem, data, size);
	relocate(mem, size, offsetof(struct multiboot_info, cmdline));
	relocate(mem, size, offsetof(struct multiboot_info, mods_addr));
	relocate(mem, size, offsetof(struct multiboot_info, mmap_addr));
	memset(&bi, 0, sizeof(bi));
	err = multiboot_read(&env, BASE, &bi);
	fail_if(err != 0 && size >= sizeof(struct multiboot_info));
	fail_if(strnlen(bi.cmdline, sizeof(bi.cmdline)) == sizeof(bi.cmdline));
	fail_if(bi.initrd_end < bi.initrd_start);
	for (size_t i = 0; i < m.nr_copies; i++)
		free(m.copies[i]);
	free(m.copies);
	free(mem);
	return 0;
}
