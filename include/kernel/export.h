/*
 * EXPORT_SYMBOL(sym): makes a kernel (or module) symbol visible to the
 * modules loaded after it. Each export is a (value, name) pair in the
 * __ksymtab section, delimited in the kernel by the linker script and
 * found by name in a module's image by the loader
 * (kernel/module_exports.c): modules link only against what is
 * exported, never the whole symbol table. A no-op in host builds,
 * which load no modules.
 */
#ifndef KERNEL_EXPORT_H
#define KERNEL_EXPORT_H

#include <kernel/compiler.h>

struct kernel_symbol {
	unsigned long value;
	const char *name;
};

#ifdef HOST_BUILD
#define EXPORT_SYMBOL(sym) extern const struct kernel_symbol __ksymtab_##sym
#else
#define EXPORT_SYMBOL(sym)                                              \
	static const struct kernel_symbol __ksymtab_##sym __used        \
		__section("__ksymtab") __aligned(sizeof(void *)) = {     \
			(unsigned long)&sym, #sym                       \
		}
#endif

extern const struct kernel_symbol __start___ksymtab[];
extern const struct kernel_symbol __stop___ksymtab[];

#endif
