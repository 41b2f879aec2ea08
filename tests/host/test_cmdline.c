/* Host tests for lib/cmdline.c: keys, values, quotes and their failures. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <kernel/cmdline.h>
#include <kernel/string.h>

#define LINE "console=ttyS0 test autorun=\"selftest;poweroff\" quiet x= " \
	     "msg=\"two words\" mem=64M"

static void check_value(const char *line, const char *key, const char *want)
{
	char val[32];

	memset(val, 'Z', sizeof(val));
	assert_int_equal(cmdline_get(line, key, val, sizeof(val)), 1);
	assert_string_equal(val, want);
	assert_true(cmdline_has(line, key));
}

static void check_absent(const char *line, const char *key)
{
	char val[32] = "untouched";

	assert_int_equal(cmdline_get(line, key, val, sizeof(val)), 0);
	assert_string_equal(val, "untouched");
	assert_false(cmdline_has(line, key));
}

static void test_values(void **state)
{
	(void)state;
	check_value(LINE, "console", "ttyS0");
	check_value(LINE, "autorun", "selftest;poweroff");
	check_value(LINE, "msg", "two words");
	check_value(LINE, "mem", "64M");
	check_value(LINE, "x", "");
}

static void test_bare_keys(void **state)
{
	(void)state;
	check_value(LINE, "test", "");
	check_value(LINE, "quiet", "");
	check_value("quiet", "quiet", "");
}

static void test_whole_tokens_only(void **state)
{
	(void)state;
	check_absent("foobar=1 xfoo foo_x", "foo");
	check_absent(LINE, "cons");
	check_absent(LINE, "console=ttyS0");
	check_absent(LINE, "tty");
	check_absent(LINE, "selftest");
	check_absent(LINE, "poweroff");
	check_absent(LINE, "words");
	check_absent(LINE, "");
	check_value("foobar=1 foo=2", "foo", "2");
	check_value("foo=1 foobar=2", "foobar", "2");
}

static void test_empty_and_null_lines(void **state)
{
	(void)state;
	check_absent("", "quiet");
	check_absent("   ", "quiet");
	check_absent(NULL, "quiet");
}

static void test_separators(void **state)
{
	(void)state;
	check_value("  a=1\tb=2\n c=3  ", "b", "2");
	check_value("  a=1\tb=2\n c=3  ", "c", "3");
	check_value("a=1 b=2", "a", "1");
}

static void test_last_one_wins(void **state)
{
	(void)state;
	check_value("loglevel=3 quiet loglevel=7", "loglevel", "7");
	check_value("v=\"a b\" v=c", "v", "c");
}

static void test_quotes(void **state)
{
	(void)state;
	check_value("k=\"\"", "k", "");
	check_value("k=\"a=b c\" d", "k", "a=b c");
	check_value("k=\"a=b c\" d", "d", "");
	/* Quotes may cover part of a value only. */
	check_value("k=pre\"mid dle\"post next", "k", "premid dlepost");
	/* An '=' inside the quotes does not end the key. */
	check_value("k=\"x\"=y", "k", "x=y");
}

static void test_unclosed_quote(void **state)
{
	char val[32] = "untouched";

	(void)state;
	assert_int_equal(cmdline_get("k=\"abc", "k", val, sizeof(val)), -1);
	assert_int_equal(cmdline_get("a=1 k=\"abc def", "k", val, sizeof(val)),
			 -1);
	/* The whole line is broken, so every lookup reports it. */
	assert_int_equal(cmdline_get("a=1 k=\"abc def", "a", val, sizeof(val)),
			 -1);
	assert_int_equal(cmdline_get("a=1 k=\"abc def", "z", val, sizeof(val)),
			 -1);
	/* A key swallowed by the open quote is not there. */
	assert_int_equal(cmdline_get("k=\"abc z=1", "z", val, sizeof(val)), -1);
	assert_false(cmdline_has("k=\"abc z=1", "z"));
	assert_true(cmdline_has("a=1 k=\"abc def", "a"));
	assert_true(cmdline_has("a=1 k=\"abc def", "k"));
	assert_string_equal(val, "untouched");
}

static void test_value_too_long(void **state)
{
	char val[4];

	(void)state;
	assert_int_equal(cmdline_get("k=abc", "k", val, sizeof(val)), 1);
	assert_string_equal(val, "abc");
	assert_int_equal(cmdline_get("k=abcd", "k", val, sizeof(val)), -1);
	/* Quotes do not count towards the length. */
	assert_int_equal(cmdline_get("k=\"abc\"", "k", val, sizeof(val)), 1);
	assert_string_equal(val, "abc");
	assert_int_equal(cmdline_get("k=\"ab c\"", "k", val, sizeof(val)), -1);
	assert_int_equal(cmdline_get("k", "k", val, 1), 1);
	assert_string_equal(val, "");
	assert_int_equal(cmdline_get("k", "k", val, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bare_keys),
		cmocka_unit_test(test_whole_tokens_only),
		cmocka_unit_test(test_empty_and_null_lines),
		cmocka_unit_test(test_separators),
		cmocka_unit_test(test_last_one_wins),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_unclosed_quote),
		cmocka_unit_test(test_value_too_long),
	};

	return cmocka_run_group_tests_name("cmdline", tests, NULL, NULL);
}
