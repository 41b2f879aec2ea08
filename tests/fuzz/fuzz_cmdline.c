/*
 * libFuzzer target for the command line parser (lib/cmdline.c). The
 * input is a key (length in the first byte) and a command line; the key,
 * keys cut from the line's first words and a few fixed ones (autorun
 * among them) are looked up with buffers
 * of every size around the value's length. A model here finds the value
 * its own way, by quote parity, and the parser must agree with it; a
 * failed lookup must leave the buffer alone.
 */
#include <kernel/cmdline.h>
#include <kernel/string.h>
#include <kernel/types.h>
#include <stdlib.h>

#define VAL_MAX 600
#define CANARY 'Z'

static bool separator(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * The value of the last word of line named key, quotes dropped, into
 * val. Returns 1 or 0 (found or not), -1 for an odd number of quotes;
 * *seen tells whether a word named key exists at all.
 */
static int model(const char *line, const char *key, char *val, bool *seen)
{
	size_t klen = strlen(key), quotes = 0, i = 0, n;
	const char *last = NULL;

	*seen = false;
	while (line[i]) {
		size_t start = i, eq = 0;
		bool has_eq = false;

		/* A word runs to the first separator at even quote parity. */
		for (n = 0; line[i] && (n % 2 || !separator(line[i])); i++) {
			n += line[i] == '"';
			if (line[i] == '=' && n % 2 == 0 && !has_eq) {
				has_eq = true;
				eq = i;
			}
		}
		quotes += n;
		if (!has_eq)
			eq = i;
		if (klen && eq - start == klen &&
		    !memcmp(line + start, key, klen))
			last = has_eq ? line + eq + 1 : line + eq;
		while (separator(line[i]))
			i++;
	}
	*seen = last != NULL;
	if (quotes % 2)
		return klen ? -1 : 0;
	if (!last)
		return 0;
	/* Quotes are dropped; separators between them stay. */
	for (n = 0; *last && !separator(*last); last++) {
		if (*last == '"') {
			for (last++; *last != '"'; last++)
				val[n++] = *last;
			continue;
		}
		val[n++] = *last;
	}
	val[n] = '\0';
	return 1;
}

static void check_size(const char *line, const char *key, int ret,
		       const char *want, size_t size)
{
	static char got[VAL_MAX + 1];
	size_t len = ret == 1 ? strlen(want) : 0;
	int got_ret;

	memset(got, CANARY, sizeof(got));
	got_ret = cmdline_get(line, key, got, size);
	if (got_ret != (ret == 1 && len >= size ? -1 : ret))
		abort();
	if (got_ret == 1 && strcmp(got, want))
		abort();
	if ((got_ret != 1 && got[0] != CANARY) || got[size] != CANARY)
		abort();
}

static void check_key(const char *line, const char *key)
{
	static char want[65536 + 1];
	size_t len, sizes[5];
	bool seen;
	int ret;

	want[0] = '\0';
	ret = model(line, key, want, &seen);
	if (cmdline_has(line, key) != seen)
		abort();
	/* Sizes where the answer changes, and the autorun buffer's. */
	len = strlen(want);
	sizes[0] = 0;
	sizes[1] = 1;
	sizes[2] = len;
	sizes[3] = len + 1;
	sizes[4] = 512;
	for (size_t i = 0; i < 5; i++)
		if (sizes[i] <= VAL_MAX)
			check_size(line, key, ret, want, sizes[i]);
}

/*
 * Keys taken from the first words of the line: each word cut at its
 * first '=' whether quoted or not, so that quoted '=' and quotes inside
 * keys get looked up too.
 */
static void check_line_keys(const char *line)
{
	char key[32];
	const char *p = line;

	for (int words = 0; words < 4 && *p; words++) {
		size_t n = 0;

		while (separator(*p))
			p++;
		for (; *p && !separator(*p); p++)
			if (n < sizeof(key) - 1 && !memchr(key, '=', n))
				key[n++] = *p;
		if (n && key[n - 1] == '=')
			n--;
		key[n] = '\0';
		check_key(line, key);
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const char *const keys[] = { "autorun", "test", "a", "" };
	size_t klen = size ? data[0] % 16 : 0;
	char *key, *line;

	if (klen + 1 > size)
		return 0;
	/* Exact sizes: ASan sees a read past either terminator. */
	key = malloc(klen + 1);
	memcpy(key, data + 1, klen);
	key[klen] = '\0';
	line = malloc(size - klen);
	memcpy(line, data + 1 + klen, size - klen - 1);
	line[size - klen - 1] = '\0';
	check_key(line, key);
	check_line_keys(line);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		check_key(line, keys[i]);
	free(line);
	free(key);
	return 0;
}
