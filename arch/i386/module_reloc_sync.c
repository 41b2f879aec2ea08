/*
 * What only the kernel needs of the i386 module relocations: which
 * table it uses, and making new code visible (nothing to do). The
 * relocations themselves are in module_reloc.c, which the host builds.
 */
#include <kernel/module.h>

const struct module_reloc_ops *const module_arch_reloc = &module_reloc_i386;

/* x86 keeps instruction fetch coherent with stores by itself. */
void module_arch_sync_code(void *start, unsigned long len)
{
	(void)start, (void)len;
}
