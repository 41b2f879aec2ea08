/* Self-tests of command-line parsing, including the line we booted with. */
#include <kernel/ktest.h>
#include <kernel/cmdline.h>
#include <kernel/bootinfo.h>
#include <kernel/string.h>

static void test_quoted_values(struct ktest *t)
{
	const char *line = "test autorun=\"selftest;poweroff\" foobar=1";
	char val[32];

	KEXPECT_EQ(t, cmdline_get(line, "autorun", val, sizeof(val)), 1);
	KEXPECT(t, strcmp(val, "selftest;poweroff") == 0);
	KEXPECT(t, cmdline_has(line, "test"));
	KEXPECT(t, !cmdline_has(line, "foo"));
	KEXPECT_EQ(t, cmdline_get("a=\"open", "a", val, sizeof(val)), -1);
}

static void test_boot_command_line(struct ktest *t)
{
	/* The test harness always boots with "test". */
	KEXPECT(t, cmdline_has(boot_info.cmdline, "test"));
}

static const struct ktest_case cmdline_cases[] = {
	KTEST_CASE(test_quoted_values),
	KTEST_CASE(test_boot_command_line),
	{ 0 },
};
KTEST_SUITE("cmdline", cmdline_cases);
