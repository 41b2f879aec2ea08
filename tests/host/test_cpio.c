/*
 * Host tests for lib/cpio.c on archives built here the way tools/mkcpio
 * writes them: walking and finding entries, names with "./", and each
 * kind of damage (magic, hex fields, names, truncation, no trailer).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kernel/cpio.h>
#include <kernel/string.h>

static u8 arc[2048];
static size_t arc_size;

/* Appends one entry; returns the offset of its header. */
static size_t add(const char *name, u32 mode, const char *data)
{
	size_t at = arc_size, namesize = strlen(name) + 1;
	size_t len = data ? strlen(data) : 0;
	char head[CPIO_HEADER_SIZE + 1];

	snprintf(head, sizeof(head),
		 "070701%08x%08x%08x%08x%08x%08x%08zx%08x%08x%08x%08x%08zx%08x",
		 7, mode, 0, 0, 1, 0, len, 0, 0, 0, 0, namesize, 0);
	memcpy(arc + arc_size, head, CPIO_HEADER_SIZE);
	arc_size += CPIO_HEADER_SIZE;
	memcpy(arc + arc_size, name, namesize);
	arc_size = (arc_size + namesize + 3) & ~(size_t)3;
	if (len)
		memcpy(arc + arc_size, data, len);
	arc_size = (arc_size + len + 3) & ~(size_t)3;
	return at;
}

static size_t entry_a, entry_b;

static void build(void)
{
	memset(arc, 0, sizeof(arc));
	arc_size = 0;
	add("modules", CPIO_S_IFDIR | 0755, NULL);
	entry_a = add("modules/a.ko", CPIO_S_IFREG | 0644, "hello");
	entry_b = add("./b.txt", CPIO_S_IFREG | 0644, "0123456789abcdef");
	add(CPIO_TRAILER, 0, NULL);
}

static int setup(void **state)
{
	(void)state;
	build();
	return 0;
}

static void test_walk(void **state)
{
	struct cpio_entry e;
	size_t pos = 0;

	(void)state;
	assert_int_equal(cpio_next(arc, arc_size, &pos, &e), 1);
	assert_string_equal(e.name, "modules");
	assert_false(cpio_is_regular(&e));
	assert_int_equal(cpio_next(arc, arc_size, &pos, &e), 1);
	assert_string_equal(e.name, "modules/a.ko");
	assert_true(cpio_is_regular(&e));
	assert_int_equal(e.size, 5);
	assert_memory_equal(e.data, "hello", 5);
	assert_int_equal(pos, entry_b);
	assert_int_equal(cpio_next(arc, arc_size, &pos, &e), 1);
	assert_string_equal(e.name, "b.txt");
	assert_int_equal(e.size, 16);
	assert_int_equal(cpio_next(arc, arc_size, &pos, &e), 0);
	assert_int_equal(cpio_check(arc, arc_size), 3);
}

static void test_find(void **state)
{
	struct cpio_entry e;

	(void)state;
	assert_int_equal(cpio_find(arc, arc_size, "modules/a.ko", &e), 0);
	assert_memory_equal(e.data, "hello", 5);
	assert_int_equal(cpio_find(arc, arc_size, "/modules/a.ko", &e), 0);
	assert_int_equal(cpio_find(arc, arc_size, "b.txt", &e), 0);
	assert_int_equal(cpio_find(arc, arc_size, "./b.txt", &e), 0);
	assert_int_equal(cpio_find(arc, arc_size, "a.ko", &e),
			 -CPIO_ERR_NOTFOUND);
	assert_int_equal(cpio_find(arc, arc_size, "modules/a.k", &e),
			 -CPIO_ERR_NOTFOUND);
}

static void test_bad_headers(void **state)
{
	struct cpio_entry e;

	(void)state;
	arc[entry_a + 5] = '7';
	assert_int_equal(cpio_check(arc, arc_size), -CPIO_ERR_MAGIC);
	build();
	arc[entry_a + 6 + 8 * 6 + 3] = 'g';	/* in the file size */
	assert_int_equal(cpio_check(arc, arc_size), -CPIO_ERR_HEADER);
	build();
	arc[entry_a + 6 + 8 * 12] = ' ';	/* in the checksum */
	assert_int_equal(cpio_check(arc, arc_size), -CPIO_ERR_HEADER);
	build();
	arc[entry_a + 5] = '2';	/* the "crc" variant reads the same */
	assert_int_equal(cpio_find(arc, arc_size, "modules/a.ko", &e), 0);
}

static void set_field(size_t entry, int f, u32 v)
{
	char hex[9];

	snprintf(hex, sizeof(hex), "%08x", v);
	memcpy(arc + entry + 6 + 8 * f, hex, 8);
}

static void test_bad_sizes(void **state)
{
	(void)state;
	set_field(entry_b, 6, 0x1000);	/* file size past the end */
	assert_int_equal(cpio_check(arc, arc_size), -CPIO_ERR_TRUNCATED);
	set_field(entry_b, 6, 0xffffffff);
	assert_int_equal(cpio_check(arc, arc_size), -CPIO_ERR_TRUNCATED);
	build();
	set_field(entry_b, 11, 0xfffffff0);	/* name size */
	assert_int_equal(cpio_check(arc, arc_size), -CPIO_ERR_TRUNCATED);
	build();
	set_field(entry_b, 11, 1);	/* only the NUL */
	assert_int_equal(cpio_check(arc, arc_size), -CPIO_ERR_NAME);
	build();
	set_field(entry_b, 11, 4);	/* "./b." without its NUL */
	assert_int_equal(cpio_check(arc, arc_size), -CPIO_ERR_NAME);
}

static void test_truncated(void **state)
{
	(void)state;
	for (size_t n = 0; n < arc_size - 3; n++) {
		u8 *copy = malloc(n ? n : 1);
		int ret;

		memcpy(copy, arc, n);
		ret = cpio_check(copy, n);
		assert_true(ret == -CPIO_ERR_TRUNCATED ||
			    ret == -CPIO_ERR_NOTRAILER);
		free(copy);
	}
	/* The trailer's own padding (3 bytes here) may be cut off. */
	assert_int_equal(cpio_check(arc, arc_size - 3), 3);
}

static void test_no_trailer(void **state)
{
	(void)state;
	assert_int_equal(cpio_check(arc, entry_b), -CPIO_ERR_NOTRAILER);
	assert_int_equal(cpio_check(arc, 0), -CPIO_ERR_NOTRAILER);
}

static void test_strerror(void **state)
{
	(void)state;
	for (int i = 1; i < CPIO_ERR_MAX; i++) {
		assert_string_equal(cpio_strerror(i), cpio_strerror(-i));
		for (int j = 0; j < i; j++)
			assert_string_not_equal(cpio_strerror(i),
						cpio_strerror(j));
	}
	assert_string_equal(cpio_strerror(CPIO_ERR_MAX), "unknown cpio error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_walk, setup),
		cmocka_unit_test_setup(test_find, setup),
		cmocka_unit_test_setup(test_bad_headers, setup),
		cmocka_unit_test_setup(test_bad_sizes, setup),
		cmocka_unit_test_setup(test_truncated, setup),
		cmocka_unit_test_setup(test_no_trailer, setup),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests_name("cpio", tests, NULL, NULL);
}
