/*
 * libFuzzer target for the suppressions' text side (mm/kmemleak/
 * suppress_pattern.c): each input is read as a memleak.supp file. A
 * model here, written another way (lines first, then comment and
 * blanks), predicts which patterns reach the add callback and which
 * line numbers the parser names as skipped; the parser must agree.
 * Then every accepted pattern is matched, as a glob, as a frame
 * pattern and (for file patterns) against a path, with every short line
 * of the input taken as a frame and as a path, and compared with a
 * dynamic-programming matcher. ASan watches the reads
 * past each line and the fixed-size buffers.
 */
#include <kernel/kallsyms.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/types.h>
#include <stdarg.h>
#include <stdlib.h>
#include "../../mm/kmemleak/suppress_pattern.h"

#define MAX_SEEN 64
#define FRAME_MAX 200
#define LEAK_PREFIX 5	/* "leak:" */

/*
 * What the parser did: how many patterns it gave add() and how many
 * lines it named as skipped, and the first MAX_SEEN of each.
 */
static char *added[MAX_SEEN];
static unsigned int nr_added, skipped[MAX_SEEN], nr_skipped;

/* lib/printf.c's %pS asks it; the parser prints no addresses. */
const char *kallsyms_lookup(unsigned long addr, unsigned long *size,
			    unsigned long *offset)
{
	(void)addr, (void)size, (void)offset;
	return NULL;
}

int printk(const char *fmt, ...)
{
	char buf[256], *colon;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* "memleak: fuzz.supp:N: ..." */
	colon = strchr(buf, ':');
	if (strncmp(buf, "memleak: fuzz.supp:", 19) || !colon)
		abort();
	if (nr_skipped < MAX_SEEN)
		skipped[nr_skipped] = strtoul(buf + 19, NULL, 10);
	nr_skipped++;
	return 0;
}

static char *dup_bytes(const char *s, size_t len)
{
	char *copy = malloc(len + 1);

	memcpy(copy, s, len);
	copy[len] = '\0';
	return copy;
}

static int add(const char *pattern)
{
	const char *why;

	if (strlen(pattern) >= MEMLEAK_PATTERN_LEN + LEAK_PREFIX)
		abort();
	if (nr_added < MAX_SEEN)
		added[nr_added] = dup_bytes(pattern, strlen(pattern));
	nr_added++;
	return memleak_check_pattern(pattern, &why) ? 0 : -1;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The model's nth skipped line is line nr: so must the parser's be. */
static void expect_skipped(unsigned int nr, unsigned int *n_skip)
{
	if (*n_skip < MAX_SEEN && skipped[*n_skip] != nr)
		abort();
	(*n_skip)++;
}

/* The model's nth pattern for add(): so must the parser's be. */
static void expect_added(const char *pattern, unsigned int *n_add)
{
	if (*n_add < MAX_SEEN && strcmp(added[*n_add], pattern))
		abort();
	(*n_add)++;
}

/* Whether the model's pattern of the line would be checked, and passes. */
static void model_line(const char *line, size_t len, unsigned int nr,
		       unsigned int *n_add, unsigned int *n_skip)
{
	size_t start = 0, end = 0;
	char pattern[MEMLEAK_PATTERN_LEN + LEAK_PREFIX];
	const char *why;

	while (end < len && line[end] != '#')
		end++;
	while (start < end && (line[start] == ' ' || line[start] == '\t'))
		start++;
	while (end > start && blank(line[end - 1]))
		end--;
	if (start == end)
		return;
	if (end - start >= sizeof(pattern) ||
	    memchr(line + start, '\0', end - start)) {
		expect_skipped(nr, n_skip);
		return;
	}
	memcpy(pattern, line + start, end - start);
	pattern[end - start] = '\0';
	expect_added(pattern, n_add);
	if (!memleak_check_pattern(pattern, &why))
		expect_skipped(nr, n_skip);
}

/* Whether p[0..pn) matches all of s[0..sn): a table, row by row. */
static bool dp_match(const char *p, size_t pn, const char *s, size_t sn)
{
	static bool row[FRAME_MAX + 1], next[FRAME_MAX + 1];

	if (sn > FRAME_MAX)
		abort();
	/* row[j]: the pattern so far matches s[0..j). */
	memset(row, 0, sizeof(row));
	row[0] = true;
	for (size_t i = 0; i < pn; i++) {
		memset(next, 0, sizeof(next));
		for (size_t j = 0; j <= sn; j++) {
			if (p[i] == '*')
				next[j] = row[j] || (j && next[j - 1]);
			else if (j && (p[i] == '?' || p[i] == s[j - 1]))
				next[j] = row[j - 1];
		}
		memcpy(row, next, sizeof(row));
	}
	return row[sn];
}

/* The model's reading of a frame: the function, or what [] enclose. */
static bool model_frame(const char *pattern, const char *frame)
{
	size_t pn = strlen(pattern), i = 0, j;

	if (pattern[0] != '[') {
		while (frame[i] && frame[i] != '+')
			i++;
		return dp_match(pattern, pn, frame, i);
	}
	while (frame[i] && frame[i] != '[')
		i++;
	if (!frame[i])
		return false;
	for (j = ++i; frame[j] && frame[j] != ']'; j++)
		;
	return dp_match(pattern + 1, pn - 2, frame + i, j - i);
}

/* A pattern with a directory against the path, else the base name. */
static bool model_file(const char *pattern, const char *path)
{
	size_t len = strlen(path), base = len;

	if (!strchr(pattern, '/'))
		while (base && path[base - 1] != '/')
			base--;
	else
		base = 0;
	return dp_match(pattern, strlen(pattern), path + base, len - base);
}

static void check_matching(char **frames, unsigned int nr_frames)
{
	unsigned int n = min(nr_added, (unsigned int)MAX_SEEN);
	const char *why, *p;

	for (unsigned int i = 0; i < n; i++) {
		p = memleak_check_pattern(added[i], &why);
		if (!p)
			continue;
		for (unsigned int f = 0; f < nr_frames; f++) {
			if (memleak_frame_matches(p, frames[f]) !=
			    model_frame(p, frames[f]))
				abort();
			if (memleak_pattern_is_file(p) &&
			    memleak_file_matches(p, frames[f]) !=
			    model_file(p, frames[f]))
				abort();
			if (memleak_glob_match(p, frames[f]) !=
			    dp_match(p, strlen(p), frames[f], strlen(frames[f])))
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	/* Exact size: ASan sees a read past the end. */
	char *text = malloc(size ? size : 1), *frames[MAX_SEEN];
	unsigned int nr = 0, n_add = 0, n_skip = 0, nr_frames = 0;
	size_t pos = 0;

	memcpy(text, data, size);
	nr_added = nr_skipped = 0;
	memleak_parse_suppressions(text, size, "fuzz.supp", add);
	while (pos < size) {
		const char *nl = memchr(text + pos, '\n', size - pos);
		size_t len = nl ? (size_t)(nl - (text + pos)) : size - pos;

		model_line(text + pos, len, ++nr, &n_add, &n_skip);
		if (len <= FRAME_MAX && !memchr(text + pos, '\0', len) &&
		    nr_frames < MAX_SEEN)
			frames[nr_frames++] = dup_bytes(text + pos, len);
		pos += len + 1;
	}
	/* Every line counted, the first MAX_SEEN of each kind compared. */
	if (n_add != nr_added || n_skip != nr_skipped)
		abort();
	check_matching(frames, nr_frames);
	for (unsigned int i = 0; i < nr_frames; i++)
		free(frames[i]);
	for (unsigned int i = 0; i < min(nr_added, (unsigned int)MAX_SEEN); i++)
		free(added[i]);
	free(text);
	return 0;
}
