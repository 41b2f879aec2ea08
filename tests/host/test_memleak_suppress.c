/*
 * Host tests of the suppressions' pattern matching (mm/kmemleak/
 * suppress_pattern.c, suppress.c): * and ? against whole function
 * names, function and [module] patterns against frames as kallsyms
 * prints them, file patterns against source paths, the checks that refuse bad patterns before they are
 * stored, and the suppressions file's lines.
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
	assert_true(memleak_glob_match("", ""));
	assert_false(memleak_glob_match("?", ""));
	assert_true(memleak_glob_match("**a**", "a"));
	assert_false(memleak_glob_match("*a", "ab"));
}

static void test_frames(void **state)
{
	static const char kernel[] = "lt_kmalloc+0x1c/0x40";
	static const char module[] = "memleak_test_init+0x44/0x120 [memleak_test]";
	static const char gone[] =
		"memleak_test_init+0x44/0x120 [memleak_test] (unloaded)";

	(void)state;
	assert_true(memleak_frame_matches("lt_kmalloc", kernel));
	assert_true(memleak_frame_matches("lt_*", kernel));
	assert_false(memleak_frame_matches("lt_kmal", kernel));
	assert_false(memleak_frame_matches("*0x40", kernel));
	assert_false(memleak_frame_matches("[lt_kmalloc]", kernel));
	assert_true(memleak_frame_matches("memleak_test_*", module));
	assert_false(memleak_frame_matches("memleak_test", module));
	assert_true(memleak_frame_matches("[memleak_test]", module));
	assert_true(memleak_frame_matches("[memleak_*]", module));
	assert_true(memleak_frame_matches("[memleak_test]", gone));
	assert_false(memleak_frame_matches("[memleak]", module));
	assert_false(memleak_frame_matches("[memleak_test2]", module));
	assert_false(memleak_frame_matches("[*]", kernel));
	assert_true(memleak_frame_matches("[*]", module));
}

static void test_file_patterns(void **state)
{
	(void)state;
	assert_true(memleak_pattern_is_file("leaktest.c"));
	assert_true(memleak_pattern_is_file("entry.S"));
	assert_true(memleak_pattern_is_file("list.h"));
	assert_true(memleak_pattern_is_file("mm/*"));
	assert_false(memleak_pattern_is_file("foo.constprop.0"));
	assert_false(memleak_pattern_is_file("lt_*"));
	assert_false(memleak_pattern_is_file("[memleak_test]"));
	assert_true(memleak_file_matches("leaktest.c", "mm/leaktest.c"));
	assert_true(memleak_file_matches("leak*.c", "mm/leaktest.c"));
	assert_false(memleak_file_matches("mm.c", "mm/leaktest.c"));
	assert_true(memleak_file_matches("mm/leaktest.c", "mm/leaktest.c"));
	assert_false(memleak_file_matches("leaktest.c", "mm/leaktest.cc"));
	assert_true(memleak_file_matches("mm/*", "mm/kmemleak/scan.c"));
	assert_false(memleak_file_matches("kmemleak/scan.c",
					  "mm/kmemleak/scan.c"));
	assert_true(memleak_file_matches("*/scan.c", "mm/kmemleak/scan.c"));
	assert_true(memleak_file_matches("main.c", "main.c"));
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
	assert_int_equal(memleak_add_suppression("[]"), -1);
	assert_int_equal(memleak_add_suppression("a]"), -1);
	assert_true(log_has("has a bracket outside a [module] pattern"));
	assert_int_equal(memleak_add_suppression("two words"), -1);
	assert_int_equal(memleak_add_suppression("a,b"), -1);
	assert_true(log_has("holds a blank, ',', '#' or a control character"));
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
				   "  alpha_* # the alpha driver, whose "
				   "comment is longer than any pattern\n"
				   "\n"
				   "[bad\n"
				   "leak:beta\r\n"
				   "\tleak:xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
				   "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
				   "gamma";

	(void)state;
	host_log_clear();
	memleak_parse_suppressions(text, sizeof(text) - 1, "test.supp",
				   memleak_add_suppression);
	assert_true(log_has("memleak: test.supp:4: skipped"));
	assert_true(log_has("memleak: test.supp:6: pattern too long"));
	assert_false(log_has("test.supp:1:"));
	assert_false(log_has("test.supp:2:"));
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
		cmocka_unit_test(test_frames),
		cmocka_unit_test(test_file_patterns),
		cmocka_unit_test(test_bad_patterns_refused),
		cmocka_unit_test(test_file_lines),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
