/*
 * Host tests of kernel/kallsyms.c on synthetic tables laid out as
 * tools/kallsyms.py writes them: lookups at and around symbols, names,
 * %pS/%ps, and the checks that reject damaged tables.
 */
#include <kernel/kallsyms.h>
#include <kernel/printk.h>
#include <kernel/string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#define BLOB_WORDS 256

struct sym {
	u32 addr, size;
	const char *name;
};

/* The symbols of the table the lookup tests add (with a gap at 0x1040). */
static const struct sym syms[] = {
	{ 0x1000, 0x20, "first" },
	{ 0x1020, 0x20, "second" },
	{ 0x1050, 0x30, "after_gap" },
	{ 0x1080, 0x10, "dup" },
	{ 0x1090, 0x10, "dup" },
	{ 0x10a0, 0x80, "last" },
};
#define NSYMS (sizeof(syms) / sizeof(syms[0]))

/* Writes a table of n symbols into blob; returns its size in bytes. */
static size_t make_blob(u32 *blob, const struct sym *s, unsigned int n)
{
	struct kallsyms_header *h = (struct kallsyms_header *)blob;
	u32 *addrs = blob + sizeof(*h) / sizeof(u32);
	char *strings = (char *)(addrs + 3 * n);
	u32 pos = 0;

	memset(blob, 0, BLOB_WORDS * sizeof(u32));
	for (unsigned int i = 0; i < n; i++) {
		addrs[i] = s[i].addr;
		addrs[n + i] = s[i].size;
		addrs[2 * n + i] = pos;
		memcpy(strings + pos, s[i].name, strlen(s[i].name) + 1);
		pos += strlen(s[i].name) + 1;
	}
	h->magic = KALLSYMS_MAGIC;
	h->version = KALLSYMS_VERSION;
	h->count = n;
	h->strings_size = (pos + 3) & ~3u;
	return sizeof(*h) + 3 * n * sizeof(u32) + h->strings_size;
}

static u32 lookup_blob[BLOB_WORDS];
static struct kallsyms_table lookup_table;

static int add_lookup_table(void **state)
{
	size_t size = make_blob(lookup_blob, syms, NSYMS);

	(void)state;
	if (kallsyms_table_init(&lookup_table, "test", lookup_blob, size) ||
	    kallsyms_table_check(&lookup_table))
		return -1;
	kallsyms_add_table(&lookup_table);
	return 0;
}

static void expect_symbol(unsigned long addr, const char *name,
			  unsigned long size, unsigned long offset)
{
	unsigned long got_size = 0, got_offset = 0;
	const char *got = kallsyms_lookup(addr, &got_size, &got_offset);

	assert_non_null(got);
	assert_string_equal(got, name);
	assert_int_equal(got_size, size);
	assert_int_equal(got_offset, offset);
}

static void test_lookup_at_and_inside(void **state)
{
	(void)state;
	expect_symbol(0x1000, "first", 0x20, 0);
	expect_symbol(0x101f, "first", 0x20, 0x1f);
	expect_symbol(0x1020, "second", 0x20, 0);
	expect_symbol(0x1033, "second", 0x20, 0x13);
	expect_symbol(0x1050, "after_gap", 0x30, 0);
	expect_symbol(0x1090, "dup", 0x10, 0);
	expect_symbol(0x111f, "last", 0x80, 0x7f);
	/* size and offset are optional */
	assert_string_equal(kallsyms_lookup(0x1001, NULL, NULL), "first");
}

static void test_lookup_outside(void **state)
{
	unsigned long size = 7, offset = 7;

	(void)state;
	assert_null(kallsyms_lookup(0xfff, &size, &offset));
	assert_null(kallsyms_lookup(0, NULL, NULL));
	assert_null(kallsyms_lookup(0x1040, NULL, NULL));	/* the gap */
	assert_null(kallsyms_lookup(0x104f, NULL, NULL));
	assert_null(kallsyms_lookup(0x1120, NULL, NULL));	/* past last */
	assert_null(kallsyms_lookup(0xffffffffUL, NULL, NULL));
	/* Tables hold 32-bit addresses: a 64-bit one is in none. */
	assert_null(kallsyms_lookup(0x100001000ULL, NULL, NULL));
	/* A failed lookup leaves the outputs alone. */
	assert_int_equal(size, 7);
	assert_int_equal(offset, 7);
}

static void test_lookup_name(void **state)
{
	(void)state;
	assert_int_equal(kallsyms_lookup_name("first"), 0x1000);
	assert_int_equal(kallsyms_lookup_name("last"), 0x10a0);
	/* A name twice gives the first (lowest) one. */
	assert_int_equal(kallsyms_lookup_name("dup"), 0x1080);
	assert_int_equal(kallsyms_lookup_name("firs"), 0);
	assert_int_equal(kallsyms_lookup_name("first_"), 0);
	assert_int_equal(kallsyms_lookup_name(""), 0);
}

static void expect_format(const char *want, const char *fmt, unsigned long p)
{
	char buf[KSYM_NAME_MAX + 64];
	int n = snprintf(buf, sizeof(buf), fmt, (void *)p);

	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void test_percent_s(void **state)
{
	char want[64];

	(void)state;
	expect_format("first+0x0/0x20", "%pS", 0x1000);
	expect_format("<second+0x13/0x20>", "<%pS>", 0x1033);
	expect_format("last+0x7f/0x80", "%pS", 0x111f);
	expect_format("after_gap", "%ps", 0x1060);
	expect_format("[     first]", "[%10ps]", 0x1000);
	expect_format("[first     ]", "[%-10ps]", 0x1000);
	/* Unknown addresses print as %p does. */
	snprintf(want, sizeof(want), "%p", (void *)0x1040);
	expect_format(want, "%pS", 0x1040);
	snprintf(want, sizeof(want), "%p", (void *)0x10);
	expect_format(want, "%ps", 0x10);
}

/* The builtin table does not exist on the host: no kernel image. */
static void test_no_builtin_on_host(void **state)
{
	struct kallsyms_table t;

	(void)state;
	assert_non_null(kallsyms_builtin(&t));
}

static u32 blob[BLOB_WORDS];

static const char *init_error(size_t size)
{
	struct kallsyms_table t;

	return kallsyms_table_init(&t, "bad", blob, size);
}

static void test_init_rejects(void **state)
{
	struct kallsyms_header *h = (struct kallsyms_header *)blob;
	size_t size = make_blob(blob, syms, NSYMS);
	struct kallsyms_table t;

	(void)state;
	assert_null(init_error(size));
	assert_non_null(kallsyms_table_init(&t, "bad", NULL, size));
	assert_non_null(init_error(sizeof(*h) - 1));
	assert_non_null(init_error(size - 1));	/* cut short */
	assert_non_null(kallsyms_table_init(&t, "bad", (char *)blob + 2,
					    size - 4));
	h->magic ^= 1;
	assert_non_null(init_error(size));
	h->magic ^= 1;
	h->version++;
	assert_non_null(init_error(size));
	h->version--;
	h->count = 0x20000000;	/* 12 * count wraps a 32-bit size */
	assert_non_null(init_error(size));
	h->count = NSYMS;
	h->strings_size = 0xfffffff0;
	assert_non_null(init_error(size));
}

static void test_init_rejects_unterminated_names(void **state)
{
	size_t size = make_blob(blob, syms, NSYMS);
	char *end = (char *)blob + size;

	(void)state;
	end[-1] = 'x';
	assert_non_null(init_error(size));
}

static void test_empty_table(void **state)
{
	size_t size = make_blob(blob, syms, 0);
	struct kallsyms_table t;

	(void)state;
	assert_int_equal(size, sizeof(struct kallsyms_header));
	assert_null(kallsyms_table_init(&t, "empty", blob, size));
	assert_null(kallsyms_table_check(&t));
	assert_int_equal(t.count, 0);
}

static const char *check_error(const struct sym *s, unsigned int n)
{
	size_t size = make_blob(blob, s, n);
	struct kallsyms_table t;

	assert_null(kallsyms_table_init(&t, "bad", blob, size));
	return kallsyms_table_check(&t);
}

static void test_check_rejects(void **state)
{
	const struct sym unsorted[] = { { 0x2000, 4, "b" }, { 0x100, 4, "a" } };
	const struct sym overlap[] = { { 0x1000, 8, "a" }, { 0x1004, 4, "b" } };
	const struct sym same[] = { { 0x1000, 4, "a" }, { 0x1000, 4, "b" } };
	const struct sym empty[] = { { 0x1000, 0, "a" } };
	const struct sym wraps[] = { { 0xfffffff0, 0x20, "a" } };
	const struct sym at_top[] = { { 0xfffffff0, 0x10, "a" } };
	struct kallsyms_table t;
	size_t size;

	(void)state;
	assert_null(check_error(syms, NSYMS));
	assert_non_null(check_error(unsorted, 2));
	assert_non_null(check_error(overlap, 2));
	assert_non_null(check_error(same, 2));
	assert_non_null(check_error(empty, 1));
	assert_non_null(check_error(wraps, 1));
	assert_null(check_error(at_top, 1));
	/* A name offset past the strings. */
	size = make_blob(blob, syms, NSYMS);
	assert_null(kallsyms_table_init(&t, "bad", blob, size));
	blob[sizeof(struct kallsyms_header) / sizeof(u32) + 2 * NSYMS] = 0x1000;
	assert_non_null(kallsyms_table_check(&t));
}

static void no_wait(void)
{
	fail_msg("no lookup runs while the test removes a table");
}

/* A second table added then removed: its names come and go, the first stays. */
static void test_del_table(void **state)
{
	static const struct sym more[] = { { 0x5000, 0x40, "module_fn" } };
	static u32 more_blob[BLOB_WORDS];
	struct kallsyms_table t;
	size_t size = make_blob(more_blob, more, 1);

	(void)state;
	assert_null(kallsyms_table_init(&t, "mod", more_blob, size));
	kallsyms_add_table(&t);
	assert_string_equal(kallsyms_lookup(0x5010, NULL, NULL), "module_fn");
	assert_int_equal(kallsyms_lookup_name("module_fn"), 0x5000);
	kallsyms_del_table(&t, no_wait);
	assert_null(kallsyms_lookup(0x5010, NULL, NULL));
	assert_int_equal(kallsyms_lookup_name("module_fn"), 0);
	assert_string_equal(kallsyms_lookup(0x1000, NULL, NULL), "first");
	/* Removing a table that is not there does nothing. */
	kallsyms_del_table(&t, no_wait);
	assert_string_equal(kallsyms_lookup(0x1020, NULL, NULL), "second");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_at_and_inside),
		cmocka_unit_test(test_lookup_outside),
		cmocka_unit_test(test_lookup_name),
		cmocka_unit_test(test_percent_s),
		cmocka_unit_test(test_no_builtin_on_host),
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_init_rejects_unterminated_names),
		cmocka_unit_test(test_empty_table),
		cmocka_unit_test(test_check_rejects),
		cmocka_unit_test(test_del_table),
	};

	return cmocka_run_group_tests_name("kallsyms", tests, add_lookup_table,
					   NULL);
}
