/* Self-tests of the string functions on the target (alignment matters on ARM). */
#include <kernel/ktest.h>
#include <kernel/string.h>

static void test_unaligned_copies(struct ktest *t)
{
	char src[64], dst[64];

	for (int i = 0; i < 64; i++)
		src[i] = (char)i;
	for (int off = 0; off < 4; off++) {
		memset(dst, 0x5a, sizeof(dst));
		memcpy(dst + off, src + 3, 40);
		KEXPECT(t, memcmp(dst + off, src + 3, 40) == 0);
		KEXPECT_EQ(t, dst[off + 40], 0x5a);
	}
	memmove(src + 1, src, 32);
	KEXPECT_EQ(t, src[1], 0);
	KEXPECT_EQ(t, src[32], 31);
}

static void test_strings(struct ktest *t)
{
	char buf[8];

	KEXPECT_EQ(t, strlen("kernel"), 6);
	KEXPECT(t, strcmp("abc", "abd") < 0);
	KEXPECT(t, strncmp("abcx", "abcy", 3) == 0);
	KEXPECT_EQ(t, strlcpy(buf, "truncated", sizeof(buf)), 9);
	KEXPECT(t, strcmp(buf, "truncat") == 0);
	KEXPECT(t, strchr("a;b", ';') != NULL);
	KEXPECT(t, strstr("memleak scan", "scan") != NULL);
}

static void test_number_parsing(struct ktest *t)
{
	unsigned long v = 0;
	long s = 0;

	KEXPECT_EQ(t, kstrtoul("0x1000", 0, &v), 0);
	KEXPECT_EQ(t, v, 0x1000);
	KEXPECT_EQ(t, kstrtoul("4294967296", 0, &v), -1);
	KEXPECT_EQ(t, kstrtoul("12z", 0, &v), -1);
	KEXPECT_EQ(t, kstrtol("-15", 10, &s), 0);
	KEXPECT_EQ(t, s, -15);
}

static const struct ktest_case string_cases[] = {
	KTEST_CASE(test_unaligned_copies),
	KTEST_CASE(test_strings),
	KTEST_CASE(test_number_parsing),
	{ 0 },
};
KTEST_SUITE("string", string_cases);
