/*
 * Host tests of the data objects' table (kernel/kallsyms.c,
 * kallsyms_data_table_init()): a section laid out as tools/kallsyms.py
 * writes it, the text table, then the data table, its size and
 * "KSYD"; the data table is found from the end, damaged trailers are
 * rejected, and the text lookups never name a data address.
 */
#include <kernel/kallsyms.h>
#include <kernel/string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#define SECTION_WORDS 128

/* One symbol per table; returns the table's size in bytes. */
static size_t put_table(u32 *at, u32 addr, u32 size, const char *name)
{
	struct kallsyms_header *h = (struct kallsyms_header *)at;
	u32 *words = at + sizeof(*h) / sizeof(u32);
	size_t len = strlen(name) + 1;

	h->magic = KALLSYMS_MAGIC;
	h->version = KALLSYMS_VERSION;
	h->count = 1;
	h->strings_size = (len + 3) & ~3u;
	words[0] = addr;
	words[1] = size;
	words[2] = 0;
	memset(words + 3, 0, h->strings_size);
	memcpy(words + 3, name, len);
	return sizeof(*h) + 3 * sizeof(u32) + h->strings_size;
}

static u32 section[SECTION_WORDS];

/* text "func" at 0x1000, data "counter" at 0x8000; returns the size. */
static size_t make_section(void)
{
	size_t text, data;

	memset(section, 0, sizeof(section));
	text = put_table(section, 0x1000, 0x40, "func");
	data = put_table(section + text / 4, 0x8000, 0x10, "counter");
	section[(text + data) / 4] = data;
	section[(text + data) / 4 + 1] = KALLSYMS_DATA_MAGIC;
	return text + data + 8;
}

static void test_data_table_found(void **state)
{
	struct kallsyms_table t;
	size_t size = make_section();

	(void)state;
	assert_null(kallsyms_data_table_init(&t, section, size));
	assert_int_equal(t.count, 1);
	assert_int_equal(t.addrs[0], 0x8000);
	assert_int_equal(t.sizes[0], 0x10);
	assert_string_equal(t.strings + t.names[0], "counter");
	assert_null(kallsyms_table_check(&t));
}

static void test_bad_trailers(void **state)
{
	struct kallsyms_table t;
	size_t size = make_section(), text;

	(void)state;
	assert_non_null(kallsyms_data_table_init(&t, NULL, size));
	assert_non_null(kallsyms_data_table_init(&t, section, 4));
	assert_non_null(kallsyms_data_table_init(&t, section, size - 2));
	/* A text table alone (the first link pass's) has no trailer. */
	text = size - 8 - section[(size - 8) / 4];
	assert_non_null(kallsyms_data_table_init(&t, section, text));
	section[size / 4 - 2] = size;	/* larger than the section */
	assert_string_equal(kallsyms_data_table_init(&t, section, size),
			    "data table larger than its section");
	make_section();
	section[size / 4 - 1] ^= 1;
	assert_string_equal(kallsyms_data_table_init(&t, section, size),
			    "no data table");
}

/* Added as a text table, the section names code, never the data. */
static void test_text_lookups_skip_data(void **state)
{
	static struct kallsyms_table text;
	size_t size = make_section();

	(void)state;
	assert_null(kallsyms_table_init(&text, "test", section, size));
	kallsyms_add_table(&text);
	assert_string_equal(kallsyms_lookup(0x1004, NULL, NULL), "func");
	assert_null(kallsyms_lookup(0x8004, NULL, NULL));
	/* No kernel image on the host: no data table of its own. */
	assert_null(kallsyms_lookup_data(0x8004, NULL, NULL));
	kallsyms_del_table(&text, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_data_table_found),
		cmocka_unit_test(test_bad_trailers),
		cmocka_unit_test(test_text_lookups_skip_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
