/* Self-tests of vsnprintf on the target, where long is 32 bits wide. */
#include <kernel/ktest.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/limits.h>

static bool formats_as(const char *expected, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (strcmp(buf, expected) == 0 && len == (int)strlen(expected))
		return true;
	printk("        # \"%s\" gave \"%s\" (%d), expected \"%s\"\n", fmt, buf,
	       len, expected);
	return false;
}

static void test_integers(struct ktest *t)
{
	KEXPECT(t, formats_as("-2147483648", "%d", INT_MIN));
	KEXPECT(t, formats_as("4294967295", "%u", UINT_MAX));
	KEXPECT(t, formats_as("2147483647", "%ld", LONG_MAX));
	KEXPECT(t, formats_as("-9223372036854775808", "%lld", LLONG_MIN));
	KEXPECT(t, formats_as("18446744073709551615", "%llu", ULLONG_MAX));
	KEXPECT(t, formats_as("ffffffffffffffff", "%llx", ULLONG_MAX));
	KEXPECT(t, formats_as("DEADBEEF", "%X", 0xdeadbeefu));
	KEXPECT(t, formats_as("4096", "%zu", (size_t)4096));
	KEXPECT(t, formats_as("7", "%i", 7));
}

static void test_width_and_flags(struct ktest *t)
{
	KEXPECT(t, formats_as("00000042", "%08x", 0x42));
	KEXPECT(t, formats_as("   42", "%5d", 42));
	KEXPECT(t, formats_as("42   |", "%-5d|", 42));
	KEXPECT(t, formats_as("-0042", "%05d", -42));
	KEXPECT(t, formats_as("  abc", "%5s", "abc"));
	KEXPECT(t, formats_as("ab", "%.2s", "abc"));
	KEXPECT(t, formats_as("ab   |", "%-5.2s|", "abc"));
	KEXPECT(t, formats_as("   xy", "%*s", 5, "xy"));
	KEXPECT(t, formats_as("007", "%.3d", 7));
	KEXPECT(t, formats_as("c%", "%c%%", 'c'));
	KEXPECT(t, formats_as("(null)", "%s", (char *)NULL));
}

static void test_pointer_and_truncation(struct ktest *t)
{
	char buf[4];

	KEXPECT(t, formats_as("0x0000beef", "%p", (void *)0xbeef));
	KEXPECT_EQ(t, snprintf(buf, sizeof(buf), "%s", "abcdef"), 6);
	KEXPECT(t, strcmp(buf, "abc") == 0);
	KEXPECT_EQ(t, snprintf(NULL, 0, "%d", 12345), 5);
}

static const struct ktest_case printf_cases[] = {
	KTEST_CASE(test_integers),
	KTEST_CASE(test_width_and_flags),
	KTEST_CASE(test_pointer_and_truncation),
	{ 0 },
};
KTEST_SUITE("printf", printf_cases);
