/*
 * libFuzzer target for the whole module loader short of running code:
 * every input is parsed (lib/elf.c), checked and laid out
 * (kernel/module_layout.c), copied into host buffers of exactly the
 * areas' sizes, its symbols resolved against a small fake export table
 * and its relocations applied (kernel/module_symbols.c) with the i386
 * code for EM_386 inputs and the ARM code for EM_ARM ones
 * (arch/<arch>/module_reloc.c). ASan catches any byte read or written
 * outside the file or the areas; the invariants the kernel relies on
 * afterwards (each loaded section inside its area, away from the tail
 * where struct module goes) abort when broken.
 *
 * With FUZZ_MODULE_ECHO set in the environment, the loader's messages
 * and each input's outcome go to stderr (to see why a file is refused:
 * build/fuzz/fuzz_module FILE...).
 */
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/kallsyms.h>
#include <kernel/module.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <stdio.h>
#include <stdlib.h>

/* Where the fake kernel and the module's areas are: far apart on ARM. */
#define FAKE_KERNEL 0x40100000u
#define FAKE_CORE 0x47f00000u
#define FAKE_INIT 0x47e00000u
#define TAIL 64

static volatile unsigned long sink;
static bool echo;

/* The messages are formatted (their %s read names) and dropped. */
int printk(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sink += len;
	if (echo)
		fputs(buf, stderr);
	return len;
}

/* lib/printf.c's %pS, which the loader does not use. */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	(void)addr, (void)size, (void)offset;
	return NULL;
}

static int fake_lookup(void *arg, const char *name, u32 *value)
{
	static const char *const exports[] = {
		"printk", "snprintf", "strlen", "strcmp", "memset", "kmalloc",
		"kmem_cache_create", "kmem_cache_alloc", "kmem_cache_destroy",
		"vmalloc", "modtest_add", "modtest_calls",
	};

	(void)arg;
	for (unsigned int i = 0; i < ARRAY_SIZE(exports); i++) {
		if (strcmp(exports[i], name) == 0) {
			*value = FAKE_KERNEL + 0x40 * i;
			return 0;
		}
	}
	return -ENOENT;
}

/* What the kernel does after relocating relies on these. */
static void check_layout(const struct module_image *img)
{
	const struct elf_file *ef = &img->ef;

	for (unsigned int i = 1; i < ef->shnum; i++) {
		unsigned int a = img->sec_area[i];
		u32 end = img->sec_off[i] + elf_section(ef, i)->sh_size;

		if (a == MODULE_AREA_NONE)
			continue;
		if (a >= MODULE_AREAS || end < img->sec_off[i] ||
		    end > img->area[a].extra_off)
			abort();
		if (a == MODULE_AREA_CORE && end > img->tail_off)
			abort();
	}
	if (img->tail_off + TAIL != img->area[MODULE_AREA_CORE].size)
		abort();
}

static u8 *alloc_area(struct module_place *p, u32 addr)
{
	p->addr = addr;
	p->base = p->size ? calloc(1, p->size) : NULL;
	return p->base;
}

static void load(const u8 *data, size_t size,
		 const struct module_reloc_ops *arch)
{
	struct module_image img = { .name = "fuzz", .arch = arch };
	struct module_place *core = &img.area[MODULE_AREA_CORE];
	struct module_place *init = &img.area[MODULE_AREA_INIT];
	int err = elf_parse(&img.ef, data, size, arch->machine);

	if (err) {
		if (echo && err != -ELF_ERR_MACHINE)
			fprintf(stderr, "%s: %s\n", arch->type_prefix,
				elf_strerror(err));
		return;
	}
	img.sec_area = calloc(img.ef.shnum, 1);
	img.sec_off = calloc(img.ef.shnum, sizeof(u32));
	img.sym_value = calloc(img.ef.nsyms, sizeof(u32));
	err = module_check_image(&img);
	if (!err)
		err = module_layout(&img, TAIL);
	if (err)
		goto out;
	check_layout(&img);
	alloc_area(core, FAKE_CORE);
	alloc_area(init, FAKE_INIT);
	module_copy_sections(&img);
	err = module_resolve_symbols(&img, fake_lookup, NULL);
	if (!err)
		err = module_relocate(&img);
	free(core->base);
	free(init->base);
out:
	if (echo)
		fprintf(stderr, "%s: %s\n", arch->type_prefix,
			err ? "refused" : "loaded");
	free(img.sec_area);
	free(img.sec_off);
	free(img.sym_value);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	/* An exact-size copy: 4-byte aligned, and ASan sees its end. */
	u8 *copy = malloc(size ? size : 1);

	echo = getenv("FUZZ_MODULE_ECHO") != NULL;
	memcpy(copy, data, size);
	load(copy, size, &module_reloc_i386);
	load(copy, size, &module_reloc_arm);
	free(copy);
	return 0;
}
