/*
 * Loadable modules (docs/modules.md). The first half is what a module's
 * source uses: module_init/module_exit, parameters, its description.
 * The second half is the loader's: struct module, the commands' entry
 * points, and the small interface each arch implements for relocations
 * (arch/<arch>/module_reloc.c).
 */
#ifndef KERNEL_MODULE_H
#define KERNEL_MODULE_H

#include <kernel/compiler.h>
#include <kernel/export.h>
#include <kernel/kallsyms.h>
#include <kernel/list.h>
#include <kernel/types.h>

#define MODULE_NAME_MAX 32

struct memleak_offset;
struct elf_file;

/* ------------------------------------------------------------------ */
/* For module sources (built with -DMODULE -DKBUILD_MODNAME="name")    */

/* Code only needed at removal; kept with the rest of the module. */
#define __exit __section(".exit.text") __noinline

/*
 * The loader calls the functions named init_module and cleanup_module:
 * these make them aliases of the module's own, after checking types.
 */
#define module_init(fn)                                                  \
	static inline int (*__module_init_check(void))(void) { return fn; } \
	int init_module(void) __attribute__((alias(#fn)))
#define module_exit(fn)                                                   \
	static inline void (*__module_exit_check(void))(void) { return fn; } \
	void cleanup_module(void) __attribute__((alias(#fn)))

/* "key=value" strings in .modinfo, which the loader and lsmod -a read. */
#define __MODULE_INFO(tag, line, text)                                  \
	static const char __concat(__modinfo_##tag, line)[] __used      \
		__section(".modinfo") __aligned(1) = #tag "=" text
#define MODULE_DESCRIPTION(text) __MODULE_INFO(description, __LINE__, text)

#ifdef KBUILD_MODNAME
__MODULE_INFO(name, 0, KBUILD_MODNAME);
#endif

/*
 * module_param(var, type): "insmod NAME var=value" sets var before the
 * module's init runs. Types: int, uint, bool (0/1/y/n), charp (a copy
 * of the string, kept while the module is loaded).
 */
enum module_param_type {
	MODULE_PARAM_int,
	MODULE_PARAM_uint,
	MODULE_PARAM_bool,
	MODULE_PARAM_charp,
};

typedef int __module_param_int;
typedef unsigned int __module_param_uint;
typedef bool __module_param_bool;
typedef char *__module_param_charp;

struct module_param {
	const char *name;
	void *ptr;
	unsigned long type;
};

#define module_param(var, ptype)                                          \
	_Static_assert(__builtin_types_compatible_p(__typeof__(var),      \
						    __module_param_##ptype), \
		       "module_param " #var ": not of type " #ptype);     \
	static const struct module_param __module_param_##var __used      \
		__section(".module_params") __aligned(sizeof(void *)) = { \
			#var, &var, MODULE_PARAM_##ptype                  \
		}

/* ------------------------------------------------------------------ */
/* The loader                                                          */

enum module_state {
	MODULE_LOADING,		/* laid out, its init not finished */
	MODULE_LIVE,
	MODULE_UNLOADING,	/* its exit is running */
};

/*
 * A memory area of a module (core or init): whole pages from the page
 * allocator, in the linear map, which is executable on both arches.
 */
struct module_area {
	void *base;
	unsigned long size;	/* bytes laid out */
	unsigned int order;	/* pages allocated: 1 << order */
	bool tracked;		/* known to the leak collector */
};

/* One symbol table of a module for kallsyms (core or init symbols). */
struct module_ksyms {
	struct kallsyms_table table;
	u32 *arrays;		/* addrs, sizes, names: one allocation */
	char *strings;
	bool added;
};

/*
 * A loaded module. It lives in the module's own core area, after the
 * sections, so that one scan area of the leak collector covers it.
 */
struct module {
	struct list_head list;		/* modules, under module_mutex */
	char name[MODULE_NAME_MAX];
	enum module_state state;
	struct module_area core;	/* code, data, this struct */
	struct module_area init;	/* .init* sections */
	int (*init_fn)(void);
	void (*exit_fn)(void);
	const struct kernel_symbol *syms;	/* its exports, in core */
	unsigned int nsyms;
	unsigned int refcount;		/* modules that use this one */
	struct module **uses;		/* modules this one uses */
	unsigned int nuses;
	struct module_ksyms ksyms_core, ksyms_init;
	struct memleak_offset *aliases;	/* copy of .init.memleak_offsets */
	unsigned int nr_aliases;
	char *param_strings;		/* the charp values it was given */
};

/*
 * Loads the module NAME from the boot archive (modules/NAME.ko) with
 * "key=value" arguments and runs its init. Returns 0 or a negative
 * error; every failure prints why and leaves nothing behind.
 */
int module_load(const char *name, int argc, char **argv);
/* Runs the module's exit and frees it: -ENOENT, -EBUSY (in use) or 0. */
int module_unload(const char *name);
/* Prints the loaded modules (lsmod): name, size, users, state. */
void module_print_list(void);
/* Prints what the boot archive holds (lsmod -a): name, size, description. */
void module_print_archive(void);

/* The value of key in an image's .modinfo ("name", "description"), or NULL. */
const char *module_info(const struct elf_file *ef, const char *key);

/* The boot archive (kernel/module_archive.c): NULL/0 when none. */
const void *module_archive(size_t *size);
/* The image of modules/NAME.ko in the archive: 0 or a negative error. */
int module_archive_find(const char *name, const void **data, size_t *size);

/* ------------------------------------------------------------------ */
/* What each arch implements (arch/<arch>/module_reloc.c)              */

/* The ELF e_machine modules must be built for. */
extern const unsigned int module_arch_machine;

/*
 * Bytes the arch needs in the core area for relocations of section
 * sec_idx of ef (ARM: branch veneers to targets out of reach); called
 * for each relocation table while laying the module out.
 */
unsigned long module_arch_extra(const struct elf_file *ef,
				unsigned int rel_idx);

/*
 * Where the arch may put what module_arch_extra() asked for: size bytes
 * at base in the core area, filled as relocations are applied.
 */
struct module_arch_space {
	u8 *base;
	unsigned long size, used;
};

/*
 * Applies one relocation of the given type at loc (its final address:
 * the copy in the module's area) for the symbol value sym (its final
 * address) plus addend (REL: 0, the addend is in place). Returns 0, or
 * a negative error after printing what is wrong (unknown type, target
 * out of reach).
 */
int module_arch_relocate(const char *modname, u32 type, u8 *loc, u32 sym,
			 s32 addend, struct module_arch_space *extra);

/* Makes code written at [start, start + len) visible to instruction fetch. */
void module_arch_sync_code(void *start, unsigned long len);

/* Little-endian words at any alignment (relocated data may be packed). */
static inline u32 module_get32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline void module_put32(u8 *p, u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

#endif
