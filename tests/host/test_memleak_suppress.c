/*
 * Host tests of the suppressions' pattern matching (mm/kmemleak/
 * suppress.c): * and ? against whole function names, and the checks
 * that refuse bad patterns before they are stored.
 */
#include <kernel/kernel.h>
#include "test_memleak.h"

static void test_glob_whole_names(void **state)
{
	(void)state;
	assert_true(memleak_glob_match("setup_orphans", "setup_orphans"));
	assert_false(memleak_glob_match("setup_orphans", "setup_orphans2"));
	assert_false(memleak_glob_match("setup", "setup_orphans"));
	assert_true(memleak_glob_match("setup_*", "setup_orphans"));
	assert_true(memleak_glob_match("*_orphans", "setup_orphans"));
	assert_true(memleak_glob_match("*orph*", "setup_orphans"));
	assert_true(memleak_glob_match("lt_kmal?oc", "lt_kmalloc"));
	assert_false(memleak_glob_match("lt_kmal?oc", "lt_kmaloc"));
	assert_true(memleak_glob_match("*", ""));
	assert_true(memleak_glob_match("a*b*c", "aXbYbZc"));
	assert_false(memleak_glob_match("a*b*c", "aXbYbZ"));
	assert_false(memleak_glob_match("", "x"));
}

static void test_bad_patterns_refused(void **state)
{
	char long_pattern[64];

	(void)state;
	memset(long_pattern, 'x', sizeof(long_pattern) - 1);
	long_pattern[sizeof(long_pattern) - 1] = '\0';
	host_log_clear();
	assert_int_equal(memleak_add_suppression("[mod"), -1);
	assert_true(log_has("is not a [module] pattern"));
	assert_int_equal(memleak_add_suppression("[a]b]"), -1);
	assert_int_equal(memleak_add_suppression("leak:"), -1);
	assert_true(log_has("is empty"));
	assert_int_equal(memleak_add_suppression(long_pattern), -1);
	assert_true(log_has("is too long"));
	assert_int_equal(memleak_add_suppression("leak:fine_*"), 0);
	assert_int_equal(memleak_add_suppression("fine_*"), -1);
	assert_true(log_has("'fine_*' is already there"));
}

static void test_file_lines(void **state)
{
	static const char text[] = "# known leaks\n"
				   "  alpha_* # the alpha driver\n"
				   "\n"
				   "[bad\n"
				   "leak:beta\r\n"
				   "gamma";

	(void)state;
	host_log_clear();
	memleak_parse_suppressions(text, sizeof(text) - 1, "test.supp");
	assert_true(log_has("memleak: test.supp:4: skipped"));
	assert_false(log_has("test.supp:1:"));
	assert_false(log_has("test.supp:3:"));
	assert_int_equal(memleak_add_suppression("alpha_*"), -1);
	assert_int_equal(memleak_add_suppression("beta"), -1);
	assert_int_equal(memleak_add_suppression("gamma"), -1);
	assert_true(log_has("'gamma' is already there"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_glob_whole_names),
		cmocka_unit_test(test_bad_patterns_refused),
		cmocka_unit_test(test_file_lines),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
