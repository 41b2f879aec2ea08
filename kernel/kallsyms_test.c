/*
 * Self-tests of the kernel's source-file table (kallsyms_lookup_file(),
 * written by tools/kallsyms.py from the image's debug information): the
 * files of functions in this file, in C elsewhere and in assembly, and
 * none for addresses outside the kernel's text. Lookups take no lock.
 */
#include <kernel/arch.h>
#include <kernel/ktest.h>
#include <kernel/kallsyms.h>
#include <kernel/slab.h>
#include <kernel/printk.h>
#include <kernel/string.h>

/* The kernel's .kallsyms section (linker/sections.ld). */
extern const char __start_kallsyms[], __stop_kallsyms[];

/* A function of this file that stays one (no inlining, no clone). */
__attribute__((noipa)) static int kf_local_function(int x)
{
	return x + 1;
}

/* True when the function at addr comes from the file want. */
static bool from_file(unsigned long addr, const char *want)
{
	const char *file = kallsyms_lookup_file(addr);

	if (file && strcmp(file, want) == 0)
		return true;
	printk("        # %08lx is from %s, expected %s\n", addr,
	       file ? file : "no file", want);
	return false;
}

static void test_files_of_functions(struct ktest *t)
{
	unsigned long local = (unsigned long)kf_local_function;

	KEXPECT(t, kf_local_function(1) == 2);
	KEXPECT(t, from_file(local, "kernel/kallsyms_test.c"));
	KEXPECT(t, from_file(local + 1, "kernel/kallsyms_test.c"));
	KEXPECT(t, from_file((unsigned long)kallsyms_lookup_file,
			     "kernel/kallsyms.c"));
	KEXPECT(t, from_file((unsigned long)kmalloc, "mm/kmalloc.c"));
	KEXPECT(t, from_file(kallsyms_lookup_name("_start"),
			     ARCH_ENTRY_FILE));
}

static void test_no_file_outside_text(struct ktest *t)
{
	static int not_code;

	KEXPECT(t, kallsyms_lookup_file(0x10) == NULL);
	KEXPECT(t, kallsyms_lookup_file((unsigned long)&not_code) == NULL);
	KEXPECT(t, kallsyms_lookup_file(~0ul) == NULL);
}

/* One entry per text symbol, and a known file for nearly all. */
static void test_table_matches_text(struct ktest *t)
{
	struct kallsyms_table text;
	struct kallsyms_files files;
	unsigned int known = 0;
	const char *err = kallsyms_builtin(&text);

	KEXPECT(t, err == NULL);
	if (err)
		return;
	err = kallsyms_files_init(&files, &text, __start_kallsyms,
				  __stop_kallsyms - __start_kallsyms);
	KEXPECT(t, err == NULL);
	if (err)
		return;
	KEXPECT_EQ(t, files.count, text.count);
	for (unsigned int i = 0; i < files.count; i++)
		known += kallsyms_files_name(&files, i) != NULL;
	/* Left out: libgcc's helpers and a few objects in code sections. */
	KEXPECT(t, known > files.count * 9 / 10);
	KEXPECT(t, kallsyms_files_name(&files, files.count) == NULL);
}

static const struct ktest_case kallsyms_files_cases[] = {
	KTEST_CASE(test_files_of_functions),
	KTEST_CASE(test_no_file_outside_text),
	KTEST_CASE(test_table_matches_text),
	{ 0 },
};
KTEST_SUITE("kallsyms_files", kallsyms_files_cases);
