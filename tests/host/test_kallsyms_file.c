/*
 * Host tests of the source-file table (kernel/kallsyms.c,
 * kallsyms_files_init()): a section laid out as tools/kallsyms.py
 * writes it, the text table and right after it one file index per
 * symbol, the paths and their strings; a damaged or foreign table is
 * refused, and a bad index gives no file rather than a wild read.
 */
#include <kernel/kallsyms.h>
#include <kernel/string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#define SECTION_WORDS 128

static u32 section[SECTION_WORDS];
static size_t text_size, files_at;

/* Text "alpha" at 0x1000, "beta" at 0x1040, "gamma" at 0x1080. */
static size_t put_text(u32 *at)
{
	/* 20 bytes with the final NUL: padded to words. */
	static const char strings[20] = "alpha\0beta\0gamma";
	struct kallsyms_header *h = (struct kallsyms_header *)at;
	u32 *w = at + sizeof(*h) / sizeof(u32);

	h->magic = KALLSYMS_MAGIC;
	h->version = KALLSYMS_VERSION;
	h->count = 3;
	h->strings_size = sizeof(strings);
	for (u32 i = 0; i < 3; i++) {
		w[i] = 0x1000 + 0x40 * i;
		w[3 + i] = 0x40;
	}
	w[6] = 0;
	w[7] = 6;
	w[8] = 11;
	memcpy(w + 9, strings, h->strings_size);
	return sizeof(*h) + 9 * sizeof(u32) + h->strings_size;
}

/* alpha and gamma from mm/a.c, beta from nothing known. */
static size_t put_files(u32 *at)
{
	static const char strings[] = "mm/a.c\0";
	struct kallsyms_files_header *h = (struct kallsyms_files_header *)at;
	u16 *file_of = (u16 *)(h + 1);
	u32 *names = (u32 *)(file_of + 4);

	h->magic = KALLSYMS_FILES_MAGIC;
	h->version = KALLSYMS_FILES_VERSION;
	h->count = 3;
	h->nr_files = 1;
	h->strings_size = sizeof(strings) - 1;
	file_of[0] = 0;
	file_of[1] = KALLSYMS_NO_FILE;
	file_of[2] = 0;
	file_of[3] = 0;		/* padding */
	names[0] = 0;
	memcpy(names + 1, strings, h->strings_size);
	return sizeof(*h) + 4 * sizeof(u16) + sizeof(u32) + h->strings_size;
}

static size_t make_section(struct kallsyms_table *text)
{
	size_t size;

	memset(section, 0, sizeof(section));
	text_size = put_text(section);
	files_at = text_size / 4;
	size = text_size + put_files(section + files_at);
	assert_null(kallsyms_table_init(text, "test", section, size));
	return size;
}

static void test_files_found(void **state)
{
	struct kallsyms_table text;
	struct kallsyms_files files;
	size_t size = make_section(&text);

	(void)state;
	assert_null(kallsyms_files_init(&files, &text, section, size));
	assert_int_equal(files.count, 3);
	assert_string_equal(kallsyms_files_name(&files, 0), "mm/a.c");
	assert_null(kallsyms_files_name(&files, 1));
	assert_string_equal(kallsyms_files_name(&files, 2), "mm/a.c");
	assert_null(kallsyms_files_name(&files, 3));
	/* More after the table (the data table) changes nothing. */
	assert_null(kallsyms_files_init(&files, &text, section,
					sizeof(section)));
	assert_string_equal(kallsyms_files_name(&files, 2), "mm/a.c");
}

static void test_damaged_tables_refused(void **state)
{
	struct kallsyms_files_header *h;
	struct kallsyms_table text;
	struct kallsyms_files files;
	size_t size = make_section(&text);

	(void)state;
	h = (struct kallsyms_files_header *)(section + files_at);
	/* The first link pass's section: a text table alone. */
	assert_string_equal(kallsyms_files_init(&files, &text, section,
						text_size), "no file table");
	assert_string_equal(kallsyms_files_init(&files, &text, section,
						size - 1),
			    "file table larger than its section");
	h->count = 2;
	assert_string_equal(kallsyms_files_init(&files, &text, section, size),
			    "file table not of this text table");
	make_section(&text);
	h->magic ^= 1;
	assert_string_equal(kallsyms_files_init(&files, &text, section, size),
			    "no file table");
	make_section(&text);
	h->nr_files = 0x40000000;
	assert_string_equal(kallsyms_files_init(&files, &text, section, size),
			    "file table larger than its section");
	make_section(&text);
	((char *)section)[size - 1] = 'x';
	assert_string_equal(kallsyms_files_init(&files, &text, section, size),
			    "file names not terminated");
}

static void test_bad_indexes_give_no_file(void **state)
{
	struct kallsyms_table text;
	struct kallsyms_files files;
	size_t size = make_section(&text);
	u16 *file_of = (u16 *)(section + files_at + 5);

	(void)state;
	file_of[0] = 1;		/* past the one file */
	((u32 *)(file_of + 4))[0] = 100;	/* name past the strings */
	assert_null(kallsyms_files_init(&files, &text, section, size));
	assert_null(kallsyms_files_name(&files, 0));
	assert_null(kallsyms_files_name(&files, 2));
}

/* No kernel image on the host: no table, so no file for anything. */
static void test_no_kernel_table(void **state)
{
	(void)state;
	assert_null(kallsyms_lookup_file(0x1000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_files_found),
		cmocka_unit_test(test_damaged_tables_refused),
		cmocka_unit_test(test_bad_indexes_give_no_file),
		cmocka_unit_test(test_no_kernel_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
