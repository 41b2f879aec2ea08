/* Host tests for lib/printf.c, mostly checked against the host libc. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <limits.h>
#include <cmocka.h>

#include <kernel/compiler.h>
#include <kernel/printk.h>
#include <kernel/string.h>

/* From libc_ref.c, built without the kt_ renaming. */
int libc_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int libc_snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);

#define BIG 512

static void compare_at_size(int line, size_t size, const char *fmt,
			    va_list ap)
{
	char want[BIG], got[BIG];
	va_list ref;
	int wn, gn;

	memset(want, 'W', sizeof(want));
	memset(got, 'G', sizeof(got));
	va_copy(ref, ap);
	wn = libc_vsnprintf(size ? want : NULL, size, fmt, ref);
	va_end(ref);
	gn = vsnprintf(size ? got : NULL, size, fmt, ap);
	if (gn == wn && (!size || !strcmp(got, want)) &&
	    (size >= BIG || got[size] == 'G'))
		return;
	/* '#' keeps the message a comment in TAP output. */
	print_message("# line %d, fmt \"%s\", size %zu: got %d \"%.*s\", "
		      "want %d \"%.*s\"\n", line, fmt, size, gn,
		      size ? BIG : 0, got, wn, size ? BIG : 0, want);
	fail();
}

/*
 * Formats with both implementations, into buffers of every small size
 * and a big one, comparing output and return value each time.
 */
static void __printf(2, 3) check_at(int line, const char *fmt, ...)
{
	va_list ap;
	size_t size;

	for (size = 0; size <= 65; size++) {
		va_start(ap, fmt);
		compare_at_size(line, size == 65 ? BIG : size, fmt, ap);
		va_end(ap);
	}
}

#define CHECK(...) check_at(__LINE__, __VA_ARGS__)

/*
 * For combinations the compiler warns about although C defines them
 * (such as '0' with a precision): the format is hidden in a variable.
 */
#define CHECK_QUIET(fmt, ...)                               \
	do {                                                \
		const char *volatile quiet_fmt = fmt;       \
		check_at(__LINE__, quiet_fmt, __VA_ARGS__); \
	} while (0)

static void expect(const char *want, int want_len, const char *got, int len)
{
	assert_string_equal(got, want);
	assert_int_equal(len, want_len);
}

static void test_plain_text(void **state)
{
	(void)state;
	CHECK("%s", "");
	CHECK("hello, world");
	CHECK("100%% sure %%d");
	CHECK("%c%c%c", 'a', 'b', 'c');
	CHECK("[%5c|%-5c|%c]", 'x', 'y', 0x7f);
}

static void test_decimal(void **state)
{
	static const int values[] = {
		0, 1, -1, 7, -7, 42, 1000, -99999, INT_MAX, INT_MIN,
		INT_MAX - 1, INT_MIN + 1,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		int v = values[i];

		CHECK("%d", v);
		CHECK("%i", v);
		CHECK("[%12d]", v);
		CHECK("[%-12d]", v);
		CHECK("[%012d]", v);
		CHECK("[%+d]", v);
		CHECK("[% d]", v);
		CHECK("[%+012d]", v);
		CHECK("[% 012d]", v);
		CHECK("[%-+12d]", v);
		CHECK("[%.5d]", v);
		CHECK("[%.0d]", v);
		CHECK("[%12.5d]", v);
		CHECK("[%-12.5d]", v);
		CHECK_QUIET("[%012.5d]", v);
		CHECK("[%+.3d]", v);
		CHECK("[%1d]", v);
		CHECK("[%.1d]", v);
	}
}

static void test_unsigned_and_hex(void **state)
{
	static const unsigned int values[] = {
		0, 1, 9, 10, 15, 16, 255, 0x1234, 0xdeadbeef, UINT_MAX,
		0x80000000u,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		unsigned int v = values[i];

		CHECK("%u %x %X", v, v, v);
		CHECK("[%12u|%-12x|%012X]", v, v, v);
		CHECK("[%#x|%#X|%#12x|%#-12x|%#012x]", v, v, v, v, v);
		CHECK("[%.0u|%.0x|%#.0x]", v, v, v);
		CHECK("[%.10x|%#.10x|%14.10X|%-#14.10x]", v, v, v, v);
		CHECK_QUIET("[%08.3x|%-08u]", v, v);
	}
}

static void test_length_modifiers(void **state)
{
	(void)state;
	CHECK("%ld %lu %lx", LONG_MIN, ULONG_MAX, ULONG_MAX);
	CHECK("%ld %ld", LONG_MAX, -1L);
	CHECK("%lld %lld %lld", LLONG_MIN, LLONG_MAX, -1LL);
	CHECK("%llu %llx %llX", ULLONG_MAX, ULLONG_MAX, 0xdeadbeefcafebabeULL);
	CHECK("[%25lld|%-25lld|%025lld]", LLONG_MIN, LLONG_MIN, LLONG_MIN);
	CHECK("[%+lld|% lld|%.22lld]", LLONG_MAX, 5LL, -5LL);
	CHECK("%zu %zx %zd", SIZE_MAX, (size_t)0x1234, (ptrdiff_t)-5);
	CHECK("%hd %hu %hx", (short)-12345, (unsigned short)65535,
	      (unsigned short)0xbeef);
	CHECK("%hhd %hhu %hhx", (signed char)-128, (unsigned char)255,
	      (unsigned char)0xab);
	/* Values that need the upper half of a 64-bit number. */
	CHECK("%llu %llx", 4294967296ULL, 0x100000000ULL);
	CHECK("%llu %lld", 4294967295ULL, (long long)INT_MIN - 1);
	CHECK("%llu", 10000000000000000000ULL);
	CHECK("%#llx %#018llx", 0xffffffffULL, 0x1ULL);
}

static void test_promoted_short_args(void **state)
{
	char buf[64];
	int n;

	(void)state;
	/* An int passed to %hhd/%hd is narrowed first, as C requires. */
	n = snprintf(buf, sizeof(buf), "%hhd %hhu %hd %hu", 300, 511, 70000,
		     -1);
	expect("44 255 4464 65535", 17, buf, n);
}

static void test_strings(void **state)
{
	(void)state;
	CHECK("[%s]", "hello");
	CHECK("[%10s|%-10s|%.3s|%10.3s|%-10.3s]", "hello", "hello", "hello",
	      "hello", "hello");
	CHECK("[%.0s|%.10s|%3s]", "abc", "abc", "abcdef");
	CHECK("[%*s|%-*s|%.*s]", 8, "ab", 8, "ab", 2, "abcdef");
	CHECK("[%*s|%.*s]", -8, "ab", -1, "abcdef");
	CHECK("%s=%s;%s", "key", "value", "");
}

static void test_star(void **state)
{
	(void)state;
	CHECK("[%*d]", 6, 42);
	CHECK("[%*d]", -6, 42);
	CHECK("[%-*d]", -6, 42);
	CHECK("[%0*d]", 6, -42);
	CHECK("[%.*d]", 4, 7);
	CHECK("[%.*d]", -4, 7);
	CHECK("[%*.*x]", 10, 6, 0xabc);
	CHECK_QUIET("[%0*.*x]", 10, -1, 0xabc);
	CHECK_QUIET("[%0*.*x]", 10, 3, 0xabc);
	CHECK_QUIET("[%-0*d]", 6, -42);
}

static void test_precision_not_terminated(void **state)
{
	static const char raw[3] = { 'a', 'b', 'c' };	/* no NUL */
	char buf[16];
	int n;

	(void)state;
	n = snprintf(buf, sizeof(buf), "%.3s|", raw);
	expect("abc|", 4, buf, n);
}

static void test_null_string(void **state)
{
	const char *volatile null = NULL;
	char buf[32];
	int n;

	(void)state;
	n = snprintf(buf, sizeof(buf), "[%s]", null);
	expect("[(null)]", 8, buf, n);
	n = snprintf(buf, sizeof(buf), "[%8s]", null);
	expect("[  (null)]", 10, buf, n);
	n = snprintf(buf, sizeof(buf), "[%.3s]", null);
	expect("[(nu]", 5, buf, n);
}

static void test_pointer(void **state)
{
	char buf[64], want[64];
	int n;

	(void)state;
	n = snprintf(buf, sizeof(buf), "%p", (void *)0x1234);
	libc_snprintf(want, sizeof(want), "0x%0*lx", (int)(2 * sizeof(void *)),
		      0x1234UL);
	expect(want, (int)(2 + 2 * sizeof(void *)), buf, n);

	n = snprintf(buf, sizeof(buf), "%p", NULL);
	libc_snprintf(want, sizeof(want), "0x%0*d", (int)(2 * sizeof(void *)),
		      0);
	expect(want, (int)(2 + 2 * sizeof(void *)), buf, n);

	n = snprintf(buf, sizeof(buf), "%p", (void *)UINTPTR_MAX);
	libc_snprintf(want, sizeof(want), "0x%lx", (unsigned long)UINTPTR_MAX);
	expect(want, (int)(2 + 2 * sizeof(void *)), buf, n);

	/* Width pads with spaces; '0' and '+' do not change a pointer. */
	n = snprintf(buf, sizeof(buf), "[%24p]", (void *)0xab);
	libc_snprintf(want, sizeof(want), "[%24s]", "0x00000000000000ab");
	if (sizeof(void *) == 4)
		libc_snprintf(want, sizeof(want), "[%24s]", "0x000000ab");
	expect(want, (int)strlen(want), buf, n);
	n = snprintf(buf, sizeof(buf), "[%-24p]", (void *)0xab);
	libc_snprintf(want, sizeof(want), "[%-24s]",
		      sizeof(void *) == 4 ? "0x000000ab" :
					    "0x00000000000000ab");
	expect(want, (int)strlen(want), buf, n);
}

static void test_pointer_extension_letters(void **state)
{
	char buf[64], want[64];
	int n;

	(void)state;
	/*
	 * %pS and %ps are extensions (tests/host/test_kallsyms.c); any
	 * other letter prints as text after the pointer.
	 */
	n = snprintf(buf, sizeof(buf), "<%pZ>", (void *)0x10);
	libc_snprintf(want, sizeof(want), "<0x%0*xZ>",
		      (int)(2 * sizeof(void *)), 0x10);
	expect(want, (int)strlen(want), buf, n);
	n = snprintf(buf, sizeof(buf), "%p%d", (void *)0x10, 5);
	libc_snprintf(want, sizeof(want), "0x%0*x%d",
		      (int)(2 * sizeof(void *)), 0x10, 5);
	expect(want, (int)strlen(want), buf, n);
	n = snprintf(buf, sizeof(buf), "%p-", (void *)0x10);
	libc_snprintf(want, sizeof(want), "0x%0*x-",
		      (int)(2 * sizeof(void *)), 0x10);
	expect(want, (int)strlen(want), buf, n);
}

static void test_truncation(void **state)
{
	char buf[8];
	int n;

	(void)state;
	memset(buf, 'X', sizeof(buf));
	n = snprintf(buf, 5, "%d", 123456);
	expect("1234", 6, buf, n);
	assert_int_equal(buf[5], 'X');

	n = snprintf(buf, 1, "abc");
	expect("", 3, buf, n);

	memset(buf, 'X', sizeof(buf));
	n = snprintf(buf, 0, "abc");
	assert_int_equal(n, 3);
	assert_int_equal(buf[0], 'X');

	n = snprintf(NULL, 0, "%s-%d-%llx", "abc", -12, 0xffULL);
	assert_int_equal(n, 10);

	n = snprintf(buf, sizeof(buf), "%300d", 1);
	assert_int_equal(n, 300);
	assert_string_equal(buf, "       ");
}

static void test_huge_fields(void **state)
{
	/* volatile: the compiler would reject these sizes outright. */
	const char *volatile fmt_digits = "%99999999999d|";
	volatile int big = INT_MAX, small = INT_MIN;
	char buf[8];
	int n, cap;

	(void)state;
	/* Widths and precisions are capped so that lengths stay ints. */
	cap = snprintf(NULL, 0, "%*d", big, 1);
	assert_true(cap >= 1 << 20 && cap < INT_MAX);
	n = snprintf(buf, sizeof(buf), "%*d", small, 1);
	assert_int_equal(n, cap);
	assert_string_equal(buf, "1      ");
	n = snprintf(buf, sizeof(buf), "%.*d", big, 1);
	assert_int_equal(n, cap);
	assert_string_equal(buf, "0000000");
	n = snprintf(buf, sizeof(buf), fmt_digits, 1);
	assert_int_equal(n, cap + 1);
	n = snprintf(buf, sizeof(buf), "%-*.*s|", big, big, "ab");
	assert_int_equal(n, cap + 1);
	assert_string_equal(buf, "ab     ");
}

static void test_odd_formats(void **state)
{
	/* Kept out of literals so the compiler's format checks stay quiet. */
	const char *volatile fmt_unknown = "a%qb";
	const char *volatile fmt_trailing = "abc%";
	const char *volatile fmt_trailing_flags = "abc%-5l";
	const char *volatile fmt_plus_unsigned = "%+u % x %+X";
	char buf[64];
	int n;

	(void)state;
	n = snprintf(buf, sizeof(buf), fmt_unknown, 1);
	expect("a%qb", 4, buf, n);
	n = snprintf(buf, sizeof(buf), fmt_trailing, 1);
	expect("abc%", 4, buf, n);
	n = snprintf(buf, sizeof(buf), fmt_trailing_flags, 1);
	expect("abc%-5l", 7, buf, n);
	n = snprintf(buf, sizeof(buf), fmt_plus_unsigned, 5u, 10u, 11u);
	expect("5 a B", 5, buf, n);
}

static int wrapper(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

static void test_vsnprintf_va_list(void **state)
{
	char buf[64];
	int n;

	(void)state;
	n = wrapper(buf, sizeof(buf), "%d %s %llx %c %lu", -3, "x",
		    0x123456789ULL, 'q', 77UL);
	expect("-3 x 123456789 q 77", 19, buf, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_text),
		cmocka_unit_test(test_decimal),
		cmocka_unit_test(test_unsigned_and_hex),
		cmocka_unit_test(test_length_modifiers),
		cmocka_unit_test(test_promoted_short_args),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_star),
		cmocka_unit_test(test_precision_not_terminated),
		cmocka_unit_test(test_null_string),
		cmocka_unit_test(test_pointer),
		cmocka_unit_test(test_pointer_extension_letters),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_huge_fields),
		cmocka_unit_test(test_odd_formats),
		cmocka_unit_test(test_vsnprintf_va_list),
	};

	return cmocka_run_group_tests_name("printf", tests, NULL, NULL);
}
