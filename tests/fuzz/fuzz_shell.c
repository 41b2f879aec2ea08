/*
 * libFuzzer target for the shell's line splitter (kernel/shell.c): each
 * input, cut at its first NUL, is run as one line. A reference splitter
 * written here in another way (commands first, then words) predicts
 * which commands run with which words and the final status; the shell
 * must agree exactly, and ASan watches its fixed-size word buffer.
 */
#include <kernel/shell.h>
#include <kernel/console.h>
#include <kernel/lineedit.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/types.h>
#include <stdlib.h>

/* The shell's limits (kernel/shell.c), as its error messages state them. */
#define MAX_ARGS 16
#define ARGS_SIZE LINEEDIT_LINE_MAX
#define STATUS_SYNTAX 2
#define STATUS_NOT_FOUND 127

/*
 * What the model expects 'x' to see: for each run, argc as one byte
 * then the words, each with its NUL.
 */
static char *expect;
static size_t expect_len, expect_pos;

/* The shell's own commands print; their text is not checked here. */
int vprintk(const char *fmt, va_list ap)
{
	(void)fmt;
	(void)ap;
	return 0;
}

int printk(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}

void console_write(const char *s, size_t len)
{
	(void)s;
	(void)len;
}

int console_getc(void)
{
	return -1;
}

static int cmd_x(int argc, char **argv)
{
	if (argc < 1 || argc > MAX_ARGS || argv[argc] != NULL)
		abort();
	if (expect_pos == expect_len || expect[expect_pos++] != argc)
		abort();
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;

		if (n > expect_len - expect_pos ||
		    memcmp(argv[i], expect + expect_pos, n))
			abort();
		expect_pos += n;
	}
	return argc;
}
SHELL_COMMAND("x", cmd_x, "x [WORD...]", "check the words against the model");

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The end of the command at p: an unquoted ';' or the NUL; NULL if open. */
static const char *command_end(const char *p)
{
	bool quoted = false;

	for (; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (*p == ';' && !quoted)
			break;
	}
	return quoted ? NULL : p;
}

/*
 * Splits [p, end) into words at out (NUL after each); returns the word
 * count, or -1 when the command breaks a limit.
 */
static int split_words(const char *p, const char *end, char *out,
		       size_t *out_len)
{
	bool quoted = false;
	size_t bytes = 0;
	int argc = 0;

	while (p < end) {
		if (blank(*p)) {
			p++;
			continue;
		}
		if (++argc > MAX_ARGS)
			return -1;
		for (; p < end && (quoted || !blank(*p)); p++) {
			if (*p == '"')
				quoted = !quoted;
			else
				out[bytes++] = *p;
		}
		out[bytes++] = '\0';
	}
	*out_len = bytes;
	return bytes > ARGS_SIZE ? -1 : argc;
}

static int help_status(int argc, const char *arg1)
{
	if (argc > 2)
		return 1;
	return argc == 2 && !shell_find_command(arg1) ? 1 : 0;
}

/* The status a command returns here, from its words. */
static int model_status(int argc, const char *words)
{
	const char *arg1 = words + strlen(words) + 1;

	if (!strcmp(words, "x"))
		return argc;
	if (!strcmp(words, "echo"))
		return 0;
	if (!strcmp(words, "help"))
		return help_status(argc, arg1);
	return STATUS_NOT_FOUND;
}

/* Fills expect for line and returns the status the shell must give. */
static int model(const char *line, char *words)
{
	const char *p, *end;
	size_t n;
	int argc, status = 0;

	/* Pass one: any broken command means that nothing runs. */
	for (p = line; *p; p = *end ? end + 1 : end) {
		end = command_end(p);
		if (!end || split_words(p, end, words, &n) < 0)
			return STATUS_SYNTAX;
	}
	for (p = line; *p; p = *end ? end + 1 : end) {
		end = command_end(p);
		argc = split_words(p, end, words, &n);
		if (!argc)
			continue;
		status = model_status(argc, words);
		if (!strcmp(words, "x")) {
			expect[expect_len++] = (char)argc;
			memcpy(expect + expect_len, words, n);
			expect_len += n;
		}
	}
	return status;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	/* Exact sizes, so that ASan sees any read past the line's NUL. */
	char *line = malloc(size + 1);
	char *words = malloc(2 * size + 2);
	int want;

	expect = malloc(3 * size + 1);
	memcpy(line, data, size);
	line[size] = '\0';
	expect_len = expect_pos = 0;
	want = model(line, words);
	if (shell_run_line(line) != want || expect_pos != expect_len)
		abort();
	free(expect);
	free(words);
	free(line);
	return 0;
}
