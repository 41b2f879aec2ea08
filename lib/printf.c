/* vsnprintf and snprintf: the formatter under printk, panic and the shell. */
#include <kernel/printk.h>
#include <kernel/ctype.h>
#include <kernel/kallsyms.h>
#include <kernel/export.h>
#include <stdbool.h>
#include <stdint.h>

#define FL_LEFT		0x01	/* '-' */
#define FL_ZERO		0x02	/* '0' */
#define FL_PLUS		0x04	/* '+' */
#define FL_SPACE	0x08	/* ' ' */
#define FL_ALT		0x10	/* '#' */
#define FL_PTR		0x20	/* %p: "0x" even for a null pointer */

/* <limits.h> is not available to every freestanding cross compiler. */
#define INT_MAX __INT_MAX__
/* Largest width or precision honoured. */
#define FIELD_MAX (INT_MAX / 4)

enum length {
	LEN_NONE,
	LEN_HH,
	LEN_H,
	LEN_L,
	LEN_LL,
	LEN_Z,
};

struct spec {
	unsigned int flags;
	int width;		/* 0: none */
	int precision;		/* -1: none */
	enum length length;
};

/*
 * Where the output goes. pos keeps counting past the end of the buffer
 * because the caller is told the length the whole output would need.
 */
struct out {
	char *buf;
	size_t size;
	size_t pos;
};

static void out_char(struct out *o, char c)
{
	if (o->pos + 1 < o->size)
		o->buf[o->pos] = c;
	o->pos++;
}

static void out_repeat(struct out *o, char c, int count)
{
	for (; count > 0 && o->pos + 1 < o->size; count--)
		out_char(o, c);
	/* Past the end of the buffer only the length still counts. */
	if (count > 0)
		o->pos += count;
}

static void out_mem(struct out *o, const char *s, size_t len)
{
	while (len--)
		out_char(o, *s++);
}

static void out_padded(struct out *o, const struct spec *spec, const char *s,
		       size_t len)
{
	int pad = spec->width > (int)len ? spec->width - (int)len : 0;

	if (!(spec->flags & FL_LEFT))
		out_repeat(o, ' ', pad);
	out_mem(o, s, len);
	if (spec->flags & FL_LEFT)
		out_repeat(o, ' ', pad);
}

/* Writes the digits backwards, ending just before end; returns their count. */
static int to_digits(char *end, unsigned long long num, unsigned int base,
		     bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned long small;
	int n = 0;

	/* Only the high digits need the slow 64-bit division of 32-bit CPUs. */
	for (; num > ~0UL; n++) {
		*--end = digits[num % base];
		num /= base;
	}
	small = num;
	do {
		*--end = digits[small % base];
		small /= base;
		n++;
	} while (small);
	return n;
}

static const char *number_prefix(const struct spec *spec, unsigned int base,
				 bool upper, unsigned long long num)
{
	if (spec->flags & FL_PTR)
		return "0x";
	if (base == 16 && (spec->flags & FL_ALT) && num)
		return upper ? "0X" : "0x";
	return "";
}

static char number_sign(const struct spec *spec, bool negative)
{
	if (negative)
		return '-';
	if (spec->flags & FL_PLUS)
		return '+';
	if (spec->flags & FL_SPACE)
		return ' ';
	return 0;
}

/*
 * Prints an integer as C does: sign or prefix, then zeros up to the
 * precision, with the width filled by spaces or, for '0', by zeros
 * between the prefix and the digits.
 */
static void out_number(struct out *o, const struct spec *spec,
		       unsigned long long num, bool negative,
		       unsigned int base, bool upper)
{
	char tmp[24];
	const char *prefix = number_prefix(spec, base, upper, num);
	char sign = number_sign(spec, negative);
	int ndigits = to_digits(tmp + sizeof(tmp), num, base, upper);
	int plen = prefix[0] ? 2 : 0;
	int zeros, pad;

	/* C prints nothing at all for a zero with precision 0. */
	if (spec->precision == 0 && num == 0)
		ndigits = 0;
	zeros = spec->precision > ndigits ? spec->precision - ndigits : 0;
	pad = spec->width - ndigits - zeros - (sign ? 1 : 0) - plen;
	if ((spec->flags & (FL_ZERO | FL_LEFT)) == FL_ZERO &&
	    spec->precision < 0) {
		zeros += pad > 0 ? pad : 0;
		pad = 0;
	}
	if (!(spec->flags & FL_LEFT))
		out_repeat(o, ' ', pad);
	if (sign)
		out_char(o, sign);
	out_mem(o, prefix, plen);
	out_repeat(o, '0', zeros);
	out_mem(o, tmp + sizeof(tmp) - ndigits, ndigits);
	if (spec->flags & FL_LEFT)
		out_repeat(o, ' ', pad);
}

static void out_string(struct out *o, const struct spec *spec, const char *s)
{
	size_t len = 0;

	if (!s)
		s = "(null)";
	/* Stop at the precision: the string need not be terminated. */
	while ((spec->precision < 0 || len < (size_t)spec->precision) && s[len])
		len++;
	out_padded(o, spec, s, len);
}

static void out_plain_pointer(struct out *o, const struct spec *spec,
			      const void *ptr)
{
	struct spec s = *spec;

	s.flags |= FL_PTR;
	s.flags &= ~(FL_PLUS | FL_SPACE);
	s.precision = 2 * sizeof(void *);
	out_number(o, &s, (uintptr_t)ptr, false, 16, false);
}

/*
 * %pS: "name+0x1c/0x80" (offset into the symbol / its size); %ps: only
 * "name". An address no symbol holds prints as a plain pointer. Width
 * and '-' apply to the whole text.
 */
static void out_symbol(struct out *o, const struct spec *spec,
		       const void *ptr, bool with_offset)
{
	char buf[KSYM_NAME_MAX + 2 * 20];
	unsigned long size, offset;
	const char *name = kallsyms_lookup((uintptr_t)ptr, &size, &offset);
	int len;

	if (!name) {
		out_plain_pointer(o, spec, ptr);
		return;
	}
	if (with_offset)
		len = snprintf(buf, sizeof(buf), "%.*s+0x%lx/0x%lx",
			       KSYM_NAME_MAX, name, offset, size);
	else
		len = snprintf(buf, sizeof(buf), "%.*s", KSYM_NAME_MAX, name);
	if (len >= (int)sizeof(buf))
		len = sizeof(buf) - 1;
	out_padded(o, spec, buf, len);
}

/*
 * Prints a %p argument. ext is the letter right after the 'p' (0 when
 * there is none). Extensions are the cases that return true, so that
 * the caller skips the letter; for any other letter the pointer prints
 * plainly and the letter stays in the format as ordinary text, as it
 * would with C's printf.
 */
static bool format_pointer(struct out *o, const struct spec *spec,
			   const void *ptr, char ext)
{
	switch (ext) {
	case 'S':
		out_symbol(o, spec, ptr, true);
		return true;
	case 's':
		out_symbol(o, spec, ptr, false);
		return true;
	default:
		out_plain_pointer(o, spec, ptr);
		return false;
	}
}

static unsigned long long fetch_unsigned(enum length length, va_list *ap)
{
	switch (length) {
	case LEN_HH:
		return (unsigned char)va_arg(*ap, unsigned int);
	case LEN_H:
		return (unsigned short)va_arg(*ap, unsigned int);
	case LEN_L:
		return va_arg(*ap, unsigned long);
	case LEN_LL:
		return va_arg(*ap, unsigned long long);
	case LEN_Z:
		return va_arg(*ap, size_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

static long long fetch_signed(enum length length, va_list *ap)
{
	switch (length) {
	case LEN_HH:
		return (signed char)va_arg(*ap, int);
	case LEN_H:
		return (short)va_arg(*ap, int);
	case LEN_L:
		return va_arg(*ap, long);
	case LEN_LL:
		return va_arg(*ap, long long);
	case LEN_Z:
		/* %zd takes the signed type of size_t's width. */
		return va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, int);
	}
}

static void out_signed(struct out *o, const struct spec *spec, va_list *ap)
{
	long long v = fetch_signed(spec->length, ap);
	/* Negated in unsigned arithmetic, which keeps LLONG_MIN defined. */
	unsigned long long mag = v;

	if (v < 0)
		mag = 0 - mag;

	out_number(o, spec, mag, v < 0, 10, false);
}

static void out_unsigned(struct out *o, const struct spec *spec, char conv,
			 va_list *ap)
{
	struct spec s = *spec;

	/* '+' and ' ' only apply to signed conversions. */
	s.flags &= ~(FL_PLUS | FL_SPACE);
	out_number(o, &s, fetch_unsigned(s.length, ap), false,
		   conv == 'u' ? 10 : 16, conv == 'X');
}

static const char *parse_flags(const char *fmt, struct spec *spec)
{
	for (;; fmt++) {
		switch (*fmt) {
		case '-':
			spec->flags |= FL_LEFT;
			break;
		case '0':
			spec->flags |= FL_ZERO;
			break;
		case '+':
			spec->flags |= FL_PLUS;
			break;
		case ' ':
			spec->flags |= FL_SPACE;
			break;
		case '#':
			spec->flags |= FL_ALT;
			break;
		default:
			return fmt;
		}
	}
}

/*
 * Reads a decimal field or '*'. Values saturate at FIELD_MAX, so that
 * adding up widths, precisions and digits can never overflow an int.
 */
static const char *parse_int(const char *fmt, int *val, va_list *ap)
{
	if (*fmt == '*') {
		*val = va_arg(*ap, int);
		if (*val > FIELD_MAX || *val < -FIELD_MAX)
			*val = *val < 0 ? -FIELD_MAX : FIELD_MAX;
		return fmt + 1;
	}
	*val = 0;
	for (; isdigit(*fmt); fmt++) {
		if (*val > (FIELD_MAX - 9) / 10)
			*val = FIELD_MAX;
		else
			*val = *val * 10 + (*fmt - '0');
	}
	return fmt;
}

static const char *parse_width(const char *fmt, struct spec *spec, va_list *ap)
{
	fmt = parse_int(fmt, &spec->width, ap);
	/* A negative '*' width means '-' with its absolute value. */
	if (spec->width < 0) {
		spec->flags |= FL_LEFT;
		spec->width = -spec->width;
	}
	return fmt;
}

static const char *parse_precision(const char *fmt, struct spec *spec,
				   va_list *ap)
{
	spec->precision = -1;
	if (*fmt != '.')
		return fmt;
	fmt = parse_int(fmt + 1, &spec->precision, ap);
	/* A negative '*' precision counts as none. */
	if (spec->precision < 0)
		spec->precision = -1;
	return fmt;
}

static const char *parse_length(const char *fmt, struct spec *spec)
{
	spec->length = LEN_NONE;
	switch (*fmt) {
	case 'h':
		spec->length = fmt[1] == 'h' ? LEN_HH : LEN_H;
		break;
	case 'l':
		spec->length = fmt[1] == 'l' ? LEN_LL : LEN_L;
		break;
	case 'z':
		spec->length = LEN_Z;
		break;
	default:
		return fmt;
	}
	return fmt + (spec->length == LEN_HH || spec->length == LEN_LL ? 2 : 1);
}

/*
 * Prints one conversion; fmt points at its letter. Returns the first
 * format character not consumed.
 */
static const char *convert(struct out *o, const struct spec *spec,
			   const char *fmt, const char *start, va_list *ap)
{
	char c;

	switch (*fmt) {
	case 'd':
	case 'i':
		out_signed(o, spec, ap);
		break;
	case 'u':
	case 'x':
	case 'X':
		out_unsigned(o, spec, *fmt, ap);
		break;
	case 'p': {
		const void *ptr = va_arg(*ap, void *);
		char ext = isalnum(fmt[1]) ? fmt[1] : 0;

		if (format_pointer(o, spec, ptr, ext))
			fmt++;
		break;
	}
	case 's':
		out_string(o, spec, va_arg(*ap, const char *));
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		out_padded(o, spec, &c, 1);
		break;
	case '%':
		out_char(o, '%');
		break;
	case '\0':
		/* A lone '%' at the end prints as itself. */
		out_mem(o, start, fmt - start);
		return fmt;
	default:
		/* Unknown conversion: show it as written. */
		out_mem(o, start, fmt + 1 - start);
		break;
	}
	return fmt + 1;
}

static const char *format_one(struct out *o, const char *fmt, va_list *ap)
{
	const char *start = fmt++;
	struct spec spec = { 0 };

	fmt = parse_flags(fmt, &spec);
	fmt = parse_width(fmt, &spec, ap);
	fmt = parse_precision(fmt, &spec, ap);
	fmt = parse_length(fmt, &spec);
	return convert(o, &spec, fmt, start, ap);
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .size = size, .pos = 0 };
	va_list args;

	/* A copy so the helpers can share it by pointer on every ABI. */
	va_copy(args, ap);
	while (*fmt) {
		if (*fmt == '%')
			fmt = format_one(&o, fmt, &args);
		else
			out_char(&o, *fmt++);
	}
	va_end(args);
	if (size)
		buf[o.pos < size ? o.pos : size - 1] = '\0';
	return o.pos > INT_MAX ? INT_MAX : (int)o.pos;
}
EXPORT_SYMBOL(vsnprintf);

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return len;
}
EXPORT_SYMBOL(snprintf);
