/*
 * The suppressions' text side, apart from the collector (suppress.c) so
 * that the host tests and a libFuzzer target (tests/fuzz/fuzz_supp.c)
 * can run it alone: checking a pattern, matching it against one frame
 * as kallsyms prints it, and reading a suppressions file.
 *
 * Locking: none; everything here works on its arguments only.
 */
#include <kernel/printk.h>
#include <kernel/string.h>
#include "suppress_pattern.h"

/* Shell-style * and ? over the whole of s, both given by length. */
static bool glob_match(const char *p, size_t pn, const char *s, size_t sn)
{
	size_t pi = 0, si = 0, star = 0, resume = 0;
	bool starred = false;

	while (si < sn) {
		if (pi < pn && p[pi] == '*') {
			starred = true;
			star = ++pi;
			resume = si;
		} else if (pi < pn && (p[pi] == '?' || p[pi] == s[si])) {
			pi++;
			si++;
		} else if (starred) {
			/* The last star takes one more character. */
			pi = star;
			si = ++resume;
		} else {
			return false;
		}
	}
	while (pi < pn && p[pi] == '*')
		pi++;
	return pi == pn;
}

bool memleak_glob_match(const char *pattern, const char *s)
{
	return glob_match(pattern, strlen(pattern), s, strlen(s));
}

/* Blanks, controls and '#' would not survive a file or the command line. */
static bool pattern_char_ok(char c)
{
	return c > ' ' && c < 0x7f && c != '#' && c != ',';
}

static const char *check_module(const char *p, size_t len)
{
	if (len < 3 || p[len - 1] != ']')
		return "is not a [module] pattern";
	for (size_t i = 1; i < len - 1; i++)
		if (p[i] == '[' || p[i] == ']')
			return "is not a [module] pattern";
	return NULL;
}

const char *memleak_check_pattern(const char *arg, const char **why)
{
	size_t len;

	if (strncmp(arg, "leak:", 5) == 0)
		arg += 5;
	len = strlen(arg);
	*why = NULL;
	if (len == 0)
		*why = "is empty";
	else if (len >= MEMLEAK_PATTERN_LEN)
		*why = "is too long (47 characters at most)";
	for (size_t i = 0; !*why && i < len; i++)
		if (!pattern_char_ok(arg[i]))
			*why = "holds a blank, ',', '#' or a control character";
	if (!*why && arg[0] == '[')
		*why = check_module(arg, len);
	else if (!*why && (strchr(arg, '[') || strchr(arg, ']')))
		*why = "has a bracket outside a [module] pattern";
	return *why ? NULL : arg;
}

/*
 * A frame as kallsyms_snprint() prints it: "func+0x1c/0x40", and for a
 * module's "func+0x1c/0x40 [mod]", maybe followed by " (unloaded)".
 */
bool memleak_frame_matches(const char *pattern, const char *frame)
{
	size_t plen = strlen(pattern);
	const char *end;

	if (pattern[0] == '[') {
		/* The brackets are not part of the glob. */
		frame = strchr(frame, '[');
		if (!frame || plen < 2)
			return false;
		frame++;
		end = strchr(frame, ']');
		pattern++;
		plen -= 2;
	} else {
		end = strchr(frame, '+');
	}
	if (!end)
		end = frame + strlen(frame);
	return glob_match(pattern, plen, frame, end - frame);
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

bool memleak_pattern_is_file(const char *pattern)
{
	size_t len = strlen(pattern);

	return strchr(pattern, '/') || ends_with(pattern, len, ".c") ||
	       ends_with(pattern, len, ".S") || ends_with(pattern, len, ".h");
}

bool memleak_file_matches(const char *pattern, const char *path)
{
	const char *base = strrchr(path, '/');

	/* Without a directory, the pattern is for the base name. */
	if (!strchr(pattern, '/') && base)
		path = base + 1;
	return memleak_glob_match(pattern, path);
}

/* The pattern of one line: what precedes '#', without the blanks around. */
static void line_pattern(const char *line, size_t len, const char **start,
			 size_t *plen)
{
	const char *hash = memchr(line, '#', len);
	const char *end = hash ? hash : line + len;

	while (line < end && (*line == ' ' || *line == '\t'))
		line++;
	while (end > line && (end[-1] == ' ' || end[-1] == '\t' ||
			      end[-1] == '\r'))
		end--;
	*start = line;
	*plen = end - line;
}

void memleak_parse_suppressions(const char *text, size_t size,
				const char *source,
				int (*add)(const char *pattern))
{
	/* Room for LeakSanitizer's "leak:" before the longest pattern. */
	char pattern[MEMLEAK_PATTERN_LEN + 5];
	unsigned int nr = 0;
	size_t pos = 0;

	while (pos < size) {
		const char *line = text + pos, *nl, *p;
		size_t len, plen;

		nl = memchr(line, '\n', size - pos);
		len = nl ? (size_t)(nl - line) : size - pos;
		pos += len + 1;
		nr++;
		line_pattern(line, len, &p, &plen);
		if (!plen)
			continue;
		if (plen >= sizeof(pattern)) {
			printk("memleak: %s:%u: pattern too long (%d characters "
			       "at most): skipped\n", source, nr,
			       MEMLEAK_PATTERN_LEN - 1);
			continue;
		}
		if (memchr(p, '\0', plen)) {
			printk("memleak: %s:%u: holds a NUL byte: skipped\n",
			       source, nr);
			continue;
		}
		memcpy(pattern, p, plen);
		pattern[plen] = '\0';
		if (add(pattern))
			printk("memleak: %s:%u: skipped\n", source, nr);
	}
}
