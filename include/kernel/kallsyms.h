/*
 * Kernel symbols (kallsyms): the name of the function holding a code
 * address, for backtraces and %pS, and the address of a name. The
 * kernel's own table is built by tools/kallsyms.py during the link
 * (format in docs/backtraces.md); more tables (modules) can be added.
 */
#ifndef KERNEL_KALLSYMS_H
#define KERNEL_KALLSYMS_H

#include <kernel/types.h>

/* Longest name %pS prints; longer ones are cut. */
#define KSYM_NAME_MAX 128

#define KALLSYMS_MAGIC 0x4d59534bu	/* "KSYM" in a little-endian word */
#define KALLSYMS_VERSION 1

/* The header of a table as the build tool writes it. */
struct kallsyms_header {
	u32 magic;
	u32 version;
	u32 count;		/* symbols */
	u32 strings_size;	/* bytes of names, NULs and padding */
	/* then u32 addrs[count], sizes[count], names[count]; char strings[] */
};

/* One table, ready for lookups (pointers into its blob). */
struct kallsyms_table {
	const char *owner;		/* "kernel", later a module's name */
	unsigned int count;
	const u32 *addrs;		/* start addresses, ascending */
	const u32 *sizes;		/* bytes, never 0 */
	const u32 *names;		/* offsets into strings */
	const char *strings;
	u32 strings_size;
	bool unloaded;			/* a removed module's */
	struct kallsyms_table *next;	/* the list of added tables */
};

/*
 * Fills t from a table blob of size bytes, checking in constant time
 * that every array lies inside the blob. Returns NULL, or why the blob
 * cannot be used. The blob must stay where it is.
 */
const char *kallsyms_table_init(struct kallsyms_table *t, const char *owner,
				const void *blob, size_t size);

/*
 * Checks every entry (linear time): addresses ascending without
 * overlap, sizes not 0, names inside the strings. Returns NULL or what
 * is wrong. Lookups in a table that fails this stay memory-safe but
 * may give wrong names.
 */
const char *kallsyms_table_check(const struct kallsyms_table *t);

/*
 * Makes a checked table (a module's) searchable after the kernel's own,
 * and takes it out again: del returns once no lookup can still be
 * reading t, so its memory may then be freed, calling wait() while some
 * run (a lookup may have been preempted on this very CPU: the module
 * loader yields). Callers serialize adds and dels (module_mutex).
 */
void kallsyms_add_table(struct kallsyms_table *t);
void kallsyms_del_table(struct kallsyms_table *t, void (*wait)(void));

/*
 * The kernel's own table, filled into t. Returns NULL, or why there is
 * none (not linked, corrupt).
 */
const char *kallsyms_builtin(struct kallsyms_table *t);

/*
 * The name of the symbol holding addr, with its size and the offset of
 * addr inside it (either pointer may be NULL); NULL when no symbol
 * holds addr.
 */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset);

/* Room for what kallsyms_snprint() prints. */
#define KSYM_PRINT_MAX (KSYM_NAME_MAX + 96)

/*
 * Prints the symbol holding addr into buf as %pS does, "name+0x1c/0x80",
 * followed for a module by " [module]", and " [module] (unloaded)" for
 * a removed one whose symbols are still kept. Returns the length, or 0
 * (buf empty) when no symbol holds addr.
 */
int kallsyms_snprint(char *buf, size_t len, unsigned long addr);

/* The address of the first symbol called name; 0 when there is none. */
unsigned long kallsyms_lookup_name(const char *name);

/*
 * The data objects (.data, .bss, .rodata, the per-CPU template) have a
 * table of their own, in the same format, which tools/kallsyms.py puts
 * after the text table followed by its size and KALLSYMS_DATA_MAGIC
 * (docs/backtraces.md). kallsyms_lookup() and %pS never search it, so
 * a code address (or a stack word) is never named after a variable.
 * kallsyms_data_table_init() fills t from the size bytes of a section
 * that ends so; NULL, or why it cannot.
 */
#define KALLSYMS_DATA_MAGIC 0x4459534bu	/* "KSYD" */
const char *kallsyms_data_table_init(struct kallsyms_table *t,
				     const void *section, size_t size);

/* kallsyms_lookup() of a data address, in the kernel's data table. */
const char *kallsyms_lookup_data(unsigned long addr, unsigned long *size,
				 unsigned long *offset);

/*
 * The source file of each text symbol of the kernel's table: a table
 * of its own that tools/kallsyms.py puts right after the text table
 * (docs/backtraces.md, "Source files"), with one 16-bit index into a
 * list of paths per text symbol.
 */
#define KALLSYMS_FILES_MAGIC 0x4659534bu	/* "KSYF" */
#define KALLSYMS_FILES_VERSION 1
#define KALLSYMS_NO_FILE 0xffffu

struct kallsyms_files_header {
	u32 magic;
	u32 version;
	u32 count;		/* the text table's symbols */
	u32 nr_files;
	u32 strings_size;
	/*
	 * then u16 file_of[count] (padded to 4 bytes), u32 names[nr_files],
	 * char strings[]
	 */
};

struct kallsyms_files {
	unsigned int count, nr_files;
	const u16 *file_of;		/* an index into names per symbol */
	const u32 *names;		/* offsets into strings */
	const char *strings;
	u32 strings_size;
};

/*
 * Fills f from the file table that follows text (initialized from the
 * start of the same section of size bytes), checking in constant time
 * that it lies inside the section and matches text's count. Returns
 * NULL, or why there is no usable file table.
 */
const char *kallsyms_files_init(struct kallsyms_files *f,
				const struct kallsyms_table *text,
				const void *section, size_t size);

/* The path of symbol i's source file; NULL when not known. */
const char *kallsyms_files_name(const struct kallsyms_files *f,
				unsigned int i);

/*
 * The source file, relative to the source tree ("mm/leaktest.c"), of
 * the kernel function holding addr; NULL for an address outside the
 * kernel's text (a module's), or code without debug information.
 */
const char *kallsyms_lookup_file(unsigned long addr);

#endif
