/* Looks keys up in the kernel command line, honouring double quotes. */
#include <kernel/cmdline.h>
#include <kernel/string.h>

/* One "key", "key=value" or key="quoted value" word of the command line. */
struct cmdline_token {
	const char *key;
	size_t key_len;
	const char *val;	/* raw, quotes included; NULL for a bare key */
	size_t val_len;
};

static bool is_separator(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Splits off the token at p, which must not be a separator or the end.
 * A quote hides separators until the next quote. Returns where the
 * token ends, or NULL when a quote is never closed (tok is still set,
 * its value running to the end of the line).
 */
static const char *next_token(const char *p, struct cmdline_token *tok)
{
	bool quoted = false;

	tok->key = p;
	tok->val = NULL;
	for (; *p && (quoted || !is_separator(*p)); p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == '=' && !quoted && !tok->val)
			tok->val = p + 1;
	}
	tok->key_len = (tok->val ? tok->val - 1 : p) - tok->key;
	tok->val_len = tok->val ? (size_t)(p - tok->val) : 0;
	return quoted ? NULL : p;
}

static bool token_is(const struct cmdline_token *tok, const char *key)
{
	return !strncmp(tok->key, key, tok->key_len) &&
	       key[tok->key_len] == '\0';
}

/*
 * Finds the last token named key: a later "key=" overrides an earlier
 * one, as on Linux. Returns 1 or 0 for found or not, -1 when the line
 * has an unclosed quote; *found is set when a match was seen either way.
 */
static int find_last(const char *p, const char *key,
		     struct cmdline_token *found)
{
	struct cmdline_token tok;
	bool seen = false;

	if (!p || !*key)
		return 0;
	for (;;) {
		while (is_separator(*p))
			p++;
		if (!*p)
			return seen;
		p = next_token(p, &tok);
		if (token_is(&tok, key)) {
			*found = tok;
			seen = true;
		}
		if (!p)
			return -1;
	}
}

/* Copies a value without its quotes; -1, val untouched, if it does not fit. */
static int copy_value(const struct cmdline_token *tok, char *val, size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < tok->val_len; i++)
		n += tok->val[i] != '"';
	if (n >= size)
		return -1;
	for (i = 0, n = 0; i < tok->val_len; i++) {
		if (tok->val[i] != '"')
			val[n++] = tok->val[i];
	}
	val[n] = '\0';
	return 1;
}

int cmdline_get(const char *cmdline, const char *key, char *val, size_t size)
{
	struct cmdline_token tok;
	int ret = find_last(cmdline, key, &tok);

	if (ret <= 0)
		return ret;
	return copy_value(&tok, val, size);
}

bool cmdline_has(const char *cmdline, const char *key)
{
	struct cmdline_token tok = { .key = NULL };

	find_last(cmdline, key, &tok);
	return tok.key != NULL;
}
