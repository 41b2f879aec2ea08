/* The kernel's own memory and string functions and number parsers. */
#include <kernel/string.h>
#include <kernel/ctype.h>
#include <kernel/export.h>
#include <stdint.h>
#include <stdbool.h>

/* may_alias: word copies must be allowed to touch memory of any type. */
/* <limits.h> is not available to every freestanding cross compiler. */
#define INT_MAX __INT_MAX__
#define LONG_MAX __LONG_MAX__
#define ULONG_MAX (~0UL)
#define ULLONG_MAX (~0ULL)

typedef unsigned long __attribute__((__may_alias__)) word_t;

#define WORD_SIZE sizeof(word_t)

static bool word_aligned(uintptr_t addr)
{
	return (addr & (WORD_SIZE - 1)) == 0;
}

/*
 * Copies forward; also correct for overlapping buffers as long as dst
 * lies below src, which memmove relies on. Words are used only when
 * both pointers can be aligned together: ARM faults on unaligned word
 * accesses while the MMU is still off.
 */
static void copy_forward(unsigned char *d, const unsigned char *s, size_t n)
{
	if (word_aligned((uintptr_t)d ^ (uintptr_t)s)) {
		while (n && !word_aligned((uintptr_t)d)) {
			*d++ = *s++;
			n--;
		}
		for (; n >= WORD_SIZE; n -= WORD_SIZE) {
			*(word_t *)d = *(const word_t *)s;
			d += WORD_SIZE;
			s += WORD_SIZE;
		}
	}
	while (n--)
		*d++ = *s++;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	copy_forward(dst, src, n);
	return dst;
}
EXPORT_SYMBOL(memcpy);

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d <= (uintptr_t)s || (uintptr_t)d >= (uintptr_t)s + n) {
		copy_forward(d, s, n);
		return dst;
	}
	/* dst overlaps the tail of src: copy from the end. */
	while (n--)
		d[n] = s[n];
	return dst;
}
EXPORT_SYMBOL(memmove);

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	/* ~0UL / 0xff is 0x0101...01: spreads the byte over a word. */
	word_t pattern = (unsigned char)c * (~0UL / 0xff);

	while (n && !word_aligned((uintptr_t)d)) {
		*d++ = (unsigned char)c;
		n--;
	}
	for (; n >= WORD_SIZE; n -= WORD_SIZE) {
		*(word_t *)d = pattern;
		d += WORD_SIZE;
	}
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}
EXPORT_SYMBOL(memset);

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p - *q;
	}
	return 0;
}
EXPORT_SYMBOL(memcmp);

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++) {
		if (*p == (unsigned char)c)
			return (void *)p;
	}
	return NULL;
}
EXPORT_SYMBOL(memchr);

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return p - s;
}
EXPORT_SYMBOL(strlen);

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}
EXPORT_SYMBOL(strnlen);

int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	while (*p && *p == *q) {
		p++;
		q++;
	}
	return *p - *q;
}
EXPORT_SYMBOL(strcmp);

int strncmp(const char *a, const char *b, size_t n)
{
	const unsigned char *p = (const unsigned char *)a;
	const unsigned char *q = (const unsigned char *)b;

	for (; n; n--, p++, q++) {
		if (*p != *q)
			return *p - *q;
		if (!*p)
			break;
	}
	return 0;
}
EXPORT_SYMBOL(strncmp);

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}
EXPORT_SYMBOL(strchr);

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}
EXPORT_SYMBOL(strrchr);

char *strstr(const char *haystack, const char *needle)
{
	size_t len = strlen(needle);

	for (; *haystack; haystack++) {
		if (!strncmp(haystack, needle, len))
			return (char *)haystack;
	}
	return len ? NULL : (char *)haystack;
}
EXPORT_SYMBOL(strstr);

size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}
EXPORT_SYMBOL(strlcpy);

size_t strlcat(char *dst, const char *src, size_t size)
{
	size_t used = strnlen(dst, size);

	/* No terminator within size: nothing can be appended safely. */
	if (used == size)
		return size + strlen(src);
	return used + strlcpy(dst + used, src, size - used);
}
EXPORT_SYMBOL(strlcat);

static int digit_value(char c)
{
	if (isdigit(c))
		return c - '0';
	if (isalpha(c))
		return tolower(c) - 'a' + 10;
	return INT_MAX;
}

/* Picks the base from the prefix as C does, and skips a "0x" that fits it. */
static const char *parse_base(const char *s, unsigned int *base)
{
	bool hex_prefix = s[0] == '0' && tolower(s[1]) == 'x' && isxdigit(s[2]);

	if (*base == 0) {
		if (hex_prefix)
			*base = 16;
		else if (s[0] == '0' && s[1])
			*base = 8;
		else
			*base = 10;
	}
	if (*base == 16 && hex_prefix)
		s += 2;
	return s;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long val = 0;

	if (base == 1 || base > 36)
		return -1;
	s = parse_base(s, &base);
	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned int d = digit_value(*s);

		if (d >= base)
			return -1;
		if (val > (ULLONG_MAX - d) / base)
			return -1;
		val = val * base + d;
	}
	*res = val;
	return 0;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long val;

	if (kstrtoull(s, base, &val) || val > ULONG_MAX)
		return -1;
	*res = val;
	return 0;
}
EXPORT_SYMBOL(kstrtoul);

int kstrtol(const char *s, unsigned int base, long *res)
{
	bool negative = *s == '-';
	unsigned long long val;

	if (*s == '-' || *s == '+')
		s++;
	if (kstrtoull(s, base, &val))
		return -1;
	if (negative) {
		if (val > (unsigned long long)LONG_MAX + 1)
			return -1;
		/* Negating in unsigned arithmetic keeps LONG_MIN defined. */
		*res = (long)(0 - (unsigned long)val);
	} else {
		if (val > LONG_MAX)
			return -1;
		*res = val;
	}
	return 0;
}
EXPORT_SYMBOL(kstrtol);
