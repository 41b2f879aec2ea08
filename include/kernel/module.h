/*
 * Loadable modules (docs/modules.md). The first half is what a module's
 * source uses: module_init/module_exit, parameters, its description.
 * The second half is the loader's: struct module, the commands' entry
 * points, the steps on an image that build on the host too
 * (kernel/module_layout.c, kernel/module_symbols.c), and the small
 * interface each arch implements for relocations
 * (arch/<arch>/module_reloc.c). The steps keep no state: module_mutex
 * (kernel/module.c) serializes the kernel's loads.
 */
#ifndef KERNEL_MODULE_H
#define KERNEL_MODULE_H

#include <kernel/compiler.h>
#include <kernel/elf.h>
#include <kernel/export.h>
#include <kernel/kallsyms.h>
#include <kernel/list.h>
#include <kernel/types.h>

#define MODULE_NAME_MAX 32

struct memleak_offset;

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
struct module_ghost;
struct module_ksyms {
	struct kallsyms_table table;
	u32 *arrays;		/* addrs, sizes, names: one allocation */
	char *strings;
	bool added;
	/* its ghost, made with the table: a removal allocates nothing */
	struct module_ghost *ghost;
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

/* Removed modules' symbol tables kept for old traces, the newest ones. */
#define MODULE_GHOSTS 8

/*
 * Removed modules' symbols (kernel/module_ghosts.c), module_mutex held:
 * reserve gives a table added to kallsyms its ghost (false when out of
 * memory: its names then go with the module); keep moves k's arrays
 * into that ghost, searchable, marked unloaded (the last few tables
 * only), or frees the ghost when k has no table; evict drops those
 * overlapping [base, base + size), where a new module goes.
 */
bool module_ghost_reserve(struct module_ksyms *k);
void module_ghost_keep(const char *name, struct module_ksyms *k);
void module_ghosts_evict(const void *base, unsigned long size);

/* The boot archive (kernel/module_archive.c): NULL/0 when none. */
const void *module_archive(size_t *size);
/* The image of modules/NAME.ko in the archive: 0 or a negative error. */
int module_archive_find(const char *name, const void **data, size_t *size);

/* ------------------------------------------------------------------ */
/* The loader's steps on an image (kernel/module_layout.c and          */
/* kernel/module_symbols.c). They touch no hardware and allocate       */
/* nothing, so the fuzzer (tests/fuzz/fuzz_module.c) runs them on the  */
/* host, into a buffer, for both arches.                               */

struct module_reloc_ops;

enum module_area_id {
	MODULE_AREA_NONE,	/* a section that is not loaded */
	MODULE_AREA_CORE,
	MODULE_AREA_INIT,
	MODULE_AREAS,
};

/* No area of a module may grow past this (nor sizes overflow on the way). */
#define MODULE_MAX_AREA (32u << 20)

/*
 * One area while it is laid out and filled: its bytes at base, which
 * the module's code will see at addr (the same address in the kernel;
 * a host buffer and a made-up address in the fuzzer).
 */
struct module_place {
	u8 *base;
	u32 addr;
	u32 size;		/* bytes laid out, extra space included */
	u32 extra_off, extra_size;	/* the arch's space (ARM: veneers) */
};

/* A module image on its way in: what each step leaves for the next. */
struct module_image {
	const char *name;	/* in messages: the file's, then the module's */
	struct elf_file ef;	/* checked by elf_parse() */
	const struct module_reloc_ops *arch;
	/* Arrays of ef.shnum and ef.nsyms zeroed entries, from the caller. */
	u8 *sec_area;		/* each section's enum module_area_id */
	u32 *sec_off;		/* and its offset in that area */
	u32 *sym_value;		/* each symbol's final value */
	struct module_place area[MODULE_AREAS];
	u32 tail_off;		/* the caller's room at the end of the core */
};

/*
 * Checks everything in a parsed image that elf_parse() leaves to the
 * loader: section types, flags and places in the file, the symbol
 * table's order and kinds, that each relocation table applies to a
 * loaded section (or a debug one, ignored) and each of its entries to a
 * known type, inside that section, against a loaded or undefined
 * symbol; then the module's name (.modinfo), which becomes img->name.
 * Returns 0, or -ENOEXEC after printing what is wrong.
 */
int module_check_image(struct module_image *img);

/*
 * Places each loaded section in the core or init area (sec_area,
 * sec_off, area[].size), the arch's extra space after each area's
 * sections and tail bytes at the end of the core (tail_off). Returns 0
 * or -ENOEXEC after printing why (too big).
 */
int module_layout(struct module_image *img, u32 tail);

/* Copies the sections into the areas, whose base and addr are now set. */
void module_copy_sections(struct module_image *img);

/* Final address of section idx, or 0 when it is not loaded. */
static inline u32 module_section_addr(const struct module_image *img,
				      unsigned int idx)
{
	unsigned int a = img->sec_area[idx];

	return a ? img->area[a].addr + img->sec_off[idx] : 0;
}

/*
 * The final value of every symbol: undefined ones from lookup(arg,
 * name, &value), which returns 0, -ENOENT (unknown: an error unless the
 * symbol is weak) or another error that stops resolution. Every unknown
 * symbol is reported. Returns 0 or the first error.
 */
int module_resolve_symbols(struct module_image *img,
			   int (*lookup)(void *arg, const char *name,
					 u32 *value),
			   void *arg);

/* Applies the relocation tables of loaded sections: 0 or -ENOEXEC. */
int module_relocate(struct module_image *img);

/* The value of key in an image's .modinfo ("name", "description"), or NULL. */
const char *module_info(const struct elf_file *ef, const char *key);

/* ------------------------------------------------------------------ */
/* What each arch implements (arch/<arch>/module_reloc*.c)             */

/*
 * Where the arch may put what its extra() asked for: size bytes at base
 * (seen at addr) after an area's sections, filled as relocations are
 * applied.
 */
struct module_arch_space {
	u8 *base;
	u32 addr;
	u32 size, used;
};

/* One relocation to apply: S (sym) + A (addend) at P (place). */
struct module_reloc {
	const char *modname;	/* for messages */
	u32 type;
	u8 *loc;		/* the bytes to patch */
	u32 place;		/* their final address */
	u32 sym;		/* the symbol's final value */
	s32 addend;		/* REL: 0, the addend is in place */
};

/* What the loader checks of a relocation type before relocating. */
struct module_reloc_type {
	u32 size;	/* bytes patched; 0: none (R_*_NONE) */
	u32 align;	/* that the offset needs (ARM instructions: 4) */
	bool branch;	/* a call or jump: its symbol must be code */
};

/*
 * An arch's relocations, in arch/<arch>/module_reloc.c: code with no
 * hardware access, so that the fuzzer links those of both arches.
 */
struct module_reloc_ops {
	unsigned int machine;	/* the ELF e_machine of its modules */
	const char *type_prefix;	/* "R_386", in messages */
	u32 func_align;		/* where a function may start (ARM: no Thumb) */
	/* Fills *t for a type the arch applies; false for any other. */
	bool (*describe)(u32 type, struct module_reloc_type *t);
	/* The addend a REL entry of type finds in place at loc. */
	s32 (*addend)(u32 type, const u8 *loc);
	/*
	 * Bytes of extra space the arch may need for relocation table
	 * rel_idx of ef (ARM: branch veneers), in the area of its section.
	 */
	u32 (*extra)(const struct elf_file *ef, unsigned int rel_idx);
	/*
	 * Applies one relocation of a type describe() accepted, with
	 * the extra space of loc's area. Returns 0, -ENOEXEC after
	 * printing what is wrong (a target out of reach, an instruction
	 * that is not of the kind the type patches), or -ENOENT for a
	 * type it does not apply (the loader says so).
	 */
	int (*relocate)(const struct module_reloc *r,
			struct module_arch_space *extra);
};

/* Each arch's, named after it so that a host program links both. */
extern const struct module_reloc_ops module_reloc_i386;
extern const struct module_reloc_ops module_reloc_arm;

/* The kernel's own arch's (arch/<arch>/module_reloc_sync.c). */
extern const struct module_reloc_ops *const module_arch_reloc;

/*
 * One relocation of this arch's type at loc, which is also its final
 * address: what the arches' relocation self-tests apply.
 */
static inline int module_relocate_in_place(u32 type, u8 *loc, u32 sym,
					   s32 addend,
					   struct module_arch_space *extra)
{
	struct module_reloc r = {
		.modname = "test",
		.type = type,
		.loc = loc,
		.place = (u32)(uintptr_t)loc,
		.sym = sym,
		.addend = addend,
	};

	return module_arch_reloc->relocate(&r, extra);
}

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
