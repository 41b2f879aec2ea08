/*
 * The boot archive: the newc cpio the boot loader hands over as the
 * initrd (a Multiboot module on i386, the device tree's initrd range on
 * ARM), with the modules under modules/NAME.ko. It is read in place:
 * memblock keeps its pages out of the page allocator.
 */
#include <kernel/module.h>
#include <kernel/bootinfo.h>
#include <kernel/cpio.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/string.h>

#define MODULE_DIR "modules/"

const void *module_archive(size_t *size)
{
	if (boot_info.initrd_end <= boot_info.initrd_start)
		return NULL;
	*size = boot_info.initrd_end - boot_info.initrd_start;
	return __va(boot_info.initrd_start);
}

int module_archive_find(const char *name, const void **data, size_t *size)
{
	char path[sizeof(MODULE_DIR) + MODULE_NAME_MAX + 3];
	size_t len = strlen(name), asize;
	const void *archive = module_archive(&asize);
	struct cpio_entry e;
	int err;

	if (!archive) {
		printk("insmod: no boot archive (boot with one: tools/run "
		       "--initrd FILE; make run passes build/ARCH/initrd.cpio)\n");
		return -ENOENT;
	}
	if (len > 3 && strcmp(name + len - 3, ".ko") == 0)
		len -= 3;
	if (len == 0 || len >= MODULE_NAME_MAX || memchr(name, '/', len)) {
		printk("insmod: '%s' is not a module name\n", name);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), MODULE_DIR "%.*s.ko", (int)len, name);
	err = cpio_find(archive, asize, path, &e);
	if (err == -CPIO_ERR_NOTFOUND || (!err && !cpio_is_regular(&e))) {
		printk("insmod: no module '%.*s' in the boot archive (lsmod -a "
		       "lists them)\n", (int)len, name);
		return -ENOENT;
	}
	if (err) {
		printk("insmod: boot archive: %s\n", cpio_strerror(err));
		return -EINVAL;
	}
	*data = e.data;
	*size = e.size;
	return 0;
}

/* One line of lsmod -a: what the image says about itself, or why not. */
static void print_image(const struct cpio_entry *e, const char *name,
			size_t len)
{
	struct elf_file ef;
	const char *desc;
	int err = elf_parse(&ef, e->data, e->size, module_arch_reloc->machine);

	if (err) {
		printk("%-20.*s %8u  (%s)\n", (int)len, name, e->size,
		       elf_strerror(err));
		return;
	}
	desc = module_info(&ef, "description");
	printk("%-20.*s %8u  %s\n", (int)len, name, e->size, desc ? desc : "");
}

void module_print_archive(void)
{
	size_t asize, pos = 0, plen = strlen(MODULE_DIR);
	const void *archive = module_archive(&asize);
	struct cpio_entry e;
	int ret, n = 0;

	if (!archive) {
		printk("lsmod: no boot archive\n");
		return;
	}
	printk("%-20s %8s  %s\n", "Module", "Bytes", "Description");
	while ((ret = cpio_next(archive, asize, &pos, &e)) > 0) {
		size_t len = strlen(e.name);

		if (!cpio_is_regular(&e) || strncmp(e.name, MODULE_DIR, plen) ||
		    len < plen + 4 || strcmp(e.name + len - 3, ".ko"))
			continue;
		print_image(&e, e.name + plen, len - plen - 3);
		n++;
	}
	if (ret < 0)
		printk("lsmod: boot archive: %s\n", cpio_strerror(ret));
	printk("%d modules in the boot archive (%zu bytes at %p)\n", n, asize,
	       archive);
}
