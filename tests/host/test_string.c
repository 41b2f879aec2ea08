/* Host tests for lib/string.c: memory, string and number-parsing helpers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <limits.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kernel/string.h>

#define AREA 96

/* Distinct, non-zero bytes so a misplaced copy shows. */
static void fill_pattern(unsigned char *p, size_t n, unsigned char seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7 + 1);
}

static void check_memcpy(size_t so, size_t doff, size_t n)
{
	unsigned char src[AREA], dst[AREA], want[AREA];
	size_t i;

	fill_pattern(src, AREA, 3);
	memset(dst, 0xee, AREA);
	memset(want, 0xee, AREA);
	for (i = 0; i < n; i++)
		want[doff + i] = src[so + i];
	assert_ptr_equal(memcpy(dst + doff, src + so, n), dst + doff);
	assert_memory_equal(dst, want, AREA);
}

/* Every pairing of source and destination alignment, short and long. */
static void test_memcpy_all_alignments(void **state)
{
	size_t so, doff, n;

	(void)state;
	for (so = 0; so < 9; so++)
		for (doff = 0; doff < 9; doff++)
			for (n = 0; n + 9 <= AREA; n += (n < 20 ? 1 : 13))
				check_memcpy(so, doff, n);
}

static void check_memmove(size_t from, size_t to, size_t n)
{
	unsigned char buf[AREA], want[AREA];
	size_t i;

	fill_pattern(buf, AREA, 5);
	for (i = 0; i < AREA; i++)
		want[i] = buf[i];
	for (i = 0; i < n; i++)
		want[to + i] = buf[from + i];
	assert_ptr_equal(memmove(buf + to, buf + from, n), buf + to);
	assert_memory_equal(buf, want, AREA);
}

static void test_memmove_overlap(void **state)
{
	size_t from, to, n;

	(void)state;
	for (from = 0; from < 20; from++)
		for (to = 0; to < 20; to++)
			for (n = 0; n + 20 <= AREA; n += 5)
				check_memmove(from, to, n);
}

static void check_memset(size_t off, size_t n)
{
	unsigned char buf[AREA];
	size_t i;

	memset(buf, 0x11, AREA);
	/* Only the low byte of c counts. */
	assert_ptr_equal(memset(buf + off, 0x1a5, n), buf + off);
	for (i = 0; i < AREA; i++) {
		if (buf[i] != (i >= off && i < off + n ? 0xa5 : 0x11))
			fail_msg("off %zu n %zu: byte %zu is %#x", off, n, i,
				 buf[i]);
	}
}

static void test_memset(void **state)
{
	size_t off, n;

	(void)state;
	for (off = 0; off < 9; off++)
		for (n = 0; n + off <= AREA; n += (n < 20 ? 1 : 11))
			check_memset(off, n);
}

static void test_memcmp_memchr(void **state)
{
	static const unsigned char a[] = { 1, 2, 3, 0x80 };
	static const unsigned char b[] = { 1, 2, 3, 0x7f };

	(void)state;
	assert_int_equal(memcmp(a, b, 3), 0);
	assert_true(memcmp(a, b, 4) > 0);	/* bytes compare unsigned */
	assert_true(memcmp(b, a, 4) < 0);
	assert_int_equal(memcmp(a, b, 0), 0);
	assert_ptr_equal(memchr(a, 3, 4), a + 2);
	assert_ptr_equal(memchr(a, 0x180, 4), a + 3);
	assert_null(memchr(a, 3, 2));
	assert_null(memchr(a, 9, 4));
}

/* A heap copy of exactly strlen + 1 bytes so ASan sees any overread. */
static char *exact(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	assert_non_null(p);
	memcpy(p, s, n);
	return p;
}

static void test_strlen_strnlen(void **state)
{
	char *s = exact("hello");

	(void)state;
	assert_int_equal(strlen(""), 0);
	assert_int_equal(strlen(s), 5);
	assert_int_equal(strnlen(s, 3), 3);
	assert_int_equal(strnlen(s, 5), 5);
	assert_int_equal(strnlen(s, 100), 5);
	assert_int_equal(strnlen(s, 0), 0);
	free(s);
}

static void test_strcmp_strncmp(void **state)
{
	(void)state;
	assert_int_equal(strcmp("abc", "abc"), 0);
	assert_true(strcmp("abc", "abd") < 0);
	assert_true(strcmp("abd", "abc") > 0);
	assert_true(strcmp("ab", "abc") < 0);
	assert_true(strcmp("abc", "ab") > 0);
	assert_true(strcmp("\x80", "\x7f") > 0);
	assert_int_equal(strcmp("", ""), 0);
	assert_int_equal(strncmp("abcdef", "abcxyz", 3), 0);
	assert_true(strncmp("abcdef", "abcxyz", 4) < 0);
	assert_int_equal(strncmp("ab", "ab", 10), 0);
	assert_true(strncmp("ab", "abc", 10) < 0);
	assert_int_equal(strncmp("x", "y", 0), 0);
}

static void test_strchr_strrchr_strstr(void **state)
{
	static const char s[] = "a/b/c";

	(void)state;
	assert_ptr_equal(strchr(s, '/'), s + 1);
	assert_ptr_equal(strrchr(s, '/'), s + 3);
	assert_ptr_equal(strchr(s, '\0'), s + 5);
	assert_ptr_equal(strrchr(s, '\0'), s + 5);
	assert_null(strchr(s, 'x'));
	assert_null(strrchr(s, 'x'));
	assert_ptr_equal(strstr(s, "b/c"), s + 2);
	assert_ptr_equal(strstr(s, ""), s);
	assert_ptr_equal(strstr(s, "a/b/c"), s);
	assert_null(strstr(s, "a/b/c/"));
	assert_null(strstr(s, "cc"));
	assert_null(strstr("", "a"));
	assert_ptr_equal(strstr("aaab", "aab"), (const char *)"aaab" + 1);
}

static void test_strlcpy(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(strlcpy(buf, "abc", sizeof(buf)), 3);
	assert_string_equal(buf, "abc");
	assert_int_equal(strlcpy(buf, "0123456789", sizeof(buf)), 10);
	assert_string_equal(buf, "0123456");
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(strlcpy(buf, "abc", 0), 3);
	assert_int_equal(buf[0], 'x');
	assert_int_equal(strlcpy(buf, "abc", 1), 3);
	assert_string_equal(buf, "");
}

static void test_strlcat(void **state)
{
	char buf[8];

	(void)state;
	strlcpy(buf, "ab", sizeof(buf));
	assert_int_equal(strlcat(buf, "cd", sizeof(buf)), 4);
	assert_string_equal(buf, "abcd");
	assert_int_equal(strlcat(buf, "efghij", sizeof(buf)), 10);
	assert_string_equal(buf, "abcdefg");
	assert_int_equal(strlcat(buf, "x", sizeof(buf)), 8);
	assert_string_equal(buf, "abcdefg");
	/* No terminator inside size: nothing is written. */
	memset(buf, 'z', sizeof(buf));
	assert_int_equal(strlcat(buf, "abc", 4), 7);
	assert_memory_equal(buf, "zzzzzzzz", 8);
}

static void test_kstrtoull(void **state)
{
	unsigned long long v;

	(void)state;
	assert_int_equal(kstrtoull("0", 0, &v), 0);
	assert_true(v == 0);
	assert_int_equal(kstrtoull("12345", 0, &v), 0);
	assert_true(v == 12345);
	assert_int_equal(kstrtoull("0x1F", 0, &v), 0);
	assert_true(v == 31);
	assert_int_equal(kstrtoull("0X1f", 0, &v), 0);
	assert_true(v == 31);
	assert_int_equal(kstrtoull("0755", 0, &v), 0);
	assert_true(v == 0755);
	assert_int_equal(kstrtoull("00", 0, &v), 0);
	assert_true(v == 0);
	assert_int_equal(kstrtoull("ff", 16, &v), 0);
	assert_true(v == 255);
	assert_int_equal(kstrtoull("0xff", 16, &v), 0);
	assert_true(v == 255);
	assert_int_equal(kstrtoull("0755", 10, &v), 0);
	assert_true(v == 755);
	assert_int_equal(kstrtoull("1011", 2, &v), 0);
	assert_true(v == 11);
	assert_int_equal(kstrtoull("zz", 36, &v), 0);
	assert_true(v == 35 * 36 + 35);
	assert_int_equal(kstrtoull("18446744073709551615", 0, &v), 0);
	assert_true(v == ULLONG_MAX);
	assert_int_equal(kstrtoull("0xffffffffffffffff", 0, &v), 0);
	assert_true(v == ULLONG_MAX);
}

static void test_kstrtoull_rejects(void **state)
{
	static const struct {
		const char *s;
		unsigned int base;
	} bad[] = {
		{ "", 0 }, { "", 10 }, { "0x", 0 }, { "0x", 16 },
		{ "0xg", 0 }, { "12a", 0 }, { "12a", 10 }, { "08", 0 },
		{ "0x10", 10 }, { " 1", 0 }, { "1 ", 0 }, { "1\n", 0 },
		{ "-1", 0 }, { "+1", 0 }, { "2", 2 }, { "1", 1 }, { "1", 37 },
		{ "18446744073709551616", 0 }, { "0x10000000000000000", 0 },
		{ "99999999999999999999999", 10 },
		{ "2000000000000000000000", 8 },
	};
	unsigned long long v = 77;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (kstrtoull(bad[i].s, bad[i].base, &v) != -1)
			fail_msg("\"%s\" base %u accepted", bad[i].s,
				 bad[i].base);
		assert_true(v == 77);
	}
}

static void test_kstrtoul(void **state)
{
	unsigned long v = 5;

	(void)state;
	assert_int_equal(kstrtoul("4294967295", 0, &v), 0);
	assert_true(v == 4294967295UL);
	if (sizeof(long) == 8) {
		assert_int_equal(kstrtoul("18446744073709551615", 0, &v), 0);
		assert_true(v == ULONG_MAX);
	}
	v = 5;
	assert_int_equal(kstrtoul("18446744073709551616", 0, &v), -1);
	assert_int_equal(kstrtoul("x", 0, &v), -1);
	assert_true(v == 5);
}

static void test_kstrtol(void **state)
{
	long v = 5;

	(void)state;
	assert_int_equal(kstrtol("-42", 0, &v), 0);
	assert_int_equal(v, -42);
	assert_int_equal(kstrtol("+42", 0, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(kstrtol("-0x10", 0, &v), 0);
	assert_int_equal(v, -16);
	assert_int_equal(kstrtol("-010", 0, &v), 0);
	assert_int_equal(v, -8);
	assert_int_equal(kstrtol("-0", 0, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(kstrtol("-9223372036854775808", 0, &v), 0);
	assert_true(v == LONG_MIN);
	assert_int_equal(kstrtol("9223372036854775807", 0, &v), 0);
	assert_true(v == LONG_MAX);
	v = 5;
	assert_int_equal(kstrtol("9223372036854775808", 0, &v), -1);
	assert_int_equal(kstrtol("-9223372036854775809", 0, &v), -1);
	assert_int_equal(kstrtol("-", 0, &v), -1);
	assert_int_equal(kstrtol("+", 0, &v), -1);
	assert_int_equal(kstrtol("--5", 0, &v), -1);
	assert_int_equal(kstrtol("+-5", 0, &v), -1);
	assert_int_equal(kstrtol("- 5", 0, &v), -1);
	assert_int_equal(kstrtol("5-", 0, &v), -1);
	assert_int_equal(kstrtol("", 0, &v), -1);
	assert_true(v == 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcpy_all_alignments),
		cmocka_unit_test(test_memmove_overlap),
		cmocka_unit_test(test_memset),
		cmocka_unit_test(test_memcmp_memchr),
		cmocka_unit_test(test_strlen_strnlen),
		cmocka_unit_test(test_strcmp_strncmp),
		cmocka_unit_test(test_strchr_strrchr_strstr),
		cmocka_unit_test(test_strlcpy),
		cmocka_unit_test(test_strlcat),
		cmocka_unit_test(test_kstrtoull),
		cmocka_unit_test(test_kstrtoull_rejects),
		cmocka_unit_test(test_kstrtoul),
		cmocka_unit_test(test_kstrtol),
	};

	return cmocka_run_group_tests_name("string", tests, NULL, NULL);
}
