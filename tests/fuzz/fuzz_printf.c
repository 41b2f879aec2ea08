/*
 * libFuzzer target for the format parser of lib/printf.c. The input is
 * a buffer size, the argument choices and a format string. Formats that
 * could ask for more arguments than are passed are skipped: each
 * conversion takes at most one argument per '%' and per '*', so a
 * format with no more of those than ARGS cannot run past them. Every
 * argument is a pointer to a terminated string (or NULL), which %s and
 * %p can take, and which the integer conversions read as one 8-byte
 * argument slot: on the LP64 ABIs below every va_arg type the
 * formatter uses takes exactly one such slot.
 *
 * Checked: the output never passes the buffer (an exact-size heap
 * copy, so ASan sees the first byte past it), it is NUL-terminated,
 * a smaller buffer gets a prefix of what a larger one gets, the return
 * value does not depend on the size, and for the conversions C defines
 * plainly the output matches the host libc's byte for byte.
 */
#include <kernel/printk.h>
#include <kernel/kallsyms.h>
#include <kernel/string.h>
#include <stdlib.h>

/* The libc's own formatter, as the reference (host-names.h renamed ours). */
#undef snprintf
#undef vsnprintf
#include <stdio.h>

#if !defined(__LP64__) || !(defined(__x86_64__) || defined(__aarch64__))
#error "the argument slots above assume x86-64 or AArch64 Linux"
#endif

#define ARGS 24
#define BIG 65536
#define POOL_SIZE 64

/* Strings the arguments point into: empty ones, long ones, a %. */
static const char pool[POOL_SIZE] =
	"abc\0\0hello world 0123456789\0%d%s\0"
	"xxxxxxxxxxxxxxxxxxxxxxxxxx";

/* A name longer than %pS prints, to check that it is cut. */
static char long_name[KSYM_NAME_MAX * 2];

static void fail_if(bool cond)
{
	if (cond)
		abort();
}

/* The pool is "code" here: %pS of a pointer into it finds a symbol. */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	unsigned long start = (unsigned long)pool;

	if (addr < start || addr >= start + POOL_SIZE)
		return NULL;
	if (size)
		*size = POOL_SIZE;
	if (offset)
		*offset = addr - start;
	return addr - start < 16 ? "fuzz_sym" : long_name;
}

static int kernel_printf(char *buf, size_t size, const char *fmt,
			 const char *const *a)
{
	return kt_snprintf(buf, size, fmt, a[0], a[1], a[2], a[3], a[4], a[5],
			   a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
			   a[14], a[15], a[16], a[17], a[18], a[19], a[20],
			   a[21], a[22], a[23]);
}

static int libc_printf(char *buf, size_t size, const char *fmt,
		       const char *const *a)
{
	return snprintf(buf, size, fmt, a[0], a[1], a[2], a[3], a[4], a[5],
			a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13],
			a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21],
			a[22], a[23]);
}

/* At most one argument per '%' and per '*': see the top of the file. */
static bool args_suffice(const char *fmt)
{
	unsigned int uses = 0;

	for (; *fmt; fmt++)
		uses += *fmt == '%' || *fmt == '*';
	return uses <= ARGS;
}

static const char *skip_digits(const char *p, unsigned int *count)
{
	*count = 0;
	for (; *p >= '0' && *p <= '9'; p++)
		(*count)++;
	return p;
}

/*
 * One conversion at p (after its '%') that C defines plainly and the
 * kernel claims to print as C does; NULL for anything else. Left out:
 * %p and %pS (the kernel's own forms), '*' (its values here are
 * addresses), fields too wide for libc, '#' but on x, '0' and the
 * precision on c and s, length modifiers on c and s (wide types),
 * flags or fields on %%.
 */
static const char *plain_conversion(const char *p)
{
	const char *flags = p, *conv;
	unsigned int digits;
	bool precision, length = false, zero = false, alt = false;

	for (; *p && strchr("-0+ #", *p); p++) {
		zero |= *p == '0';
		alt |= *p == '#';
	}
	p = skip_digits(p, &digits);
	if (digits > 4)
		return NULL;
	precision = *p == '.';
	if (precision) {
		p = skip_digits(p + 1, &digits);
		if (digits > 4)
			return NULL;
	}
	if (*p == 'h' || *p == 'l') {
		p += p[1] == p[0] ? 2 : 1;
		length = true;
	} else if (*p == 'z') {
		p++;
		length = true;
	}
	conv = p;
	if (!*conv || !strchr("diuxXcs%", *conv))
		return NULL;
	if (*conv == '%')
		return conv == flags ? conv + 1 : NULL;
	if (alt && *conv != 'x' && *conv != 'X')
		return NULL;
	if ((*conv == 'c' || *conv == 's') && (zero || precision || length))
		return NULL;
	return conv + 1;
}

static bool libc_comparable(const char *fmt)
{
	while ((fmt = strchr(fmt, '%'))) {
		fmt = plain_conversion(fmt + 1);
		if (!fmt)
			return false;
	}
	return true;
}

/* Formats into an exact-size buffer; returns the length, checks the end. */
static int format(char **out, size_t size, const char *fmt,
		  const char *const *args)
{
	char *buf = malloc(size ? size : 1);
	int len = kernel_printf(size ? buf : NULL, size, fmt, args);

	fail_if(len < 0);
	if (size) {
		size_t end = (size_t)len < size ? (size_t)len : size - 1;

		fail_if(buf[end] != '\0');
	}
	*out = buf;
	return len;
}

static void check(const char *fmt, const char *const *args, size_t size)
{
	char *big, *small, *ref;
	int len = format(&big, BIG, fmt, args);
	int len2 = format(&small, size, fmt, args);
	size_t shown = (size_t)len < BIG - 1 ? (size_t)len : BIG - 1;

	fail_if(len2 != len);
	if (size)
		fail_if(memcmp(small, big,
			       (size_t)len < size ? len : size - 1));
	if (libc_comparable(fmt)) {
		ref = malloc(BIG);
		fail_if(libc_printf(ref, BIG, fmt, args) != len ||
			memcmp(ref, big, shown));
		free(ref);
	}
	free(small);
	free(big);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const char *args[ARGS];
	size_t buf_size;
	char *fmt;

	if (size < 2 + ARGS)
		return 0;
	if (!long_name[0])
		memset(long_name, 'n', sizeof(long_name) - 1);
	buf_size = data[0] | (size_t)(data[1] & 1) << 8;
	for (int i = 0; i < ARGS; i++) {
		u8 b = data[2 + i];

		args[i] = b == 0xff ? NULL : pool + b % POOL_SIZE;
	}
	data += 2 + ARGS;
	size -= 2 + ARGS;
	fmt = malloc(size + 1);
	memcpy(fmt, data, size);
	fmt[size] = '\0';
	if (args_suffice(fmt))
		check(fmt, args, buf_size);
	free(fmt);
	return 0;
}
