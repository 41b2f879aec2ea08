/* The console shell: splits lines into commands and runs them. */
#include <kernel/shell.h>
#include <kernel/lineedit.h>
#include <kernel/console.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/kernel.h>

/*
 * "kernel> " rather than "$ " or "> ": on a serial line shared with the
 * boot loader and QEMU it tells at a glance who is listening.
 */
#define SHELL_PROMPT "kernel> "

#define SHELL_MAX_ARGS 16
/* Bytes of one command once split into words, NULs included. */
#define SHELL_ARGS_SIZE LINEEDIT_LINE_MAX
/* Commands 'help' can sort; the rest are counted, not listed. */
#define SHELL_HELP_MAX 128

/* Statuses of the shell's own failures, as POSIX sh has them. */
#define SHELL_STATUS_SYNTAX 2
#define SHELL_STATUS_NOT_FOUND 127

enum parse_error {
	PARSE_OK,
	PARSE_TOO_MANY_ARGS,
	PARSE_UNTERMINATED_QUOTE,
	PARSE_TOO_LONG,
};

struct shell_args {
	int argc;
	char *argv[SHELL_MAX_ARGS + 1];
	char buf[SHELL_ARGS_SIZE];
};

const struct shell_command *shell_find_command(const char *name)
{
	const struct shell_command *cmd;

	for_each_shell_command(cmd)
		if (!strcmp(cmd->name, name))
			return cmd;
	return NULL;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Splits the command at *pp into words, up to an unquoted ';' or the end
 * of the line, and moves *pp past it. Double quotes group words and may
 * sit inside one, as in a"b c"d; there are no escapes, so a quote cannot
 * itself be quoted.
 */
static enum parse_error parse_command(const char **pp, struct shell_args *a)
{
	const char *p = *pp;
	bool in_word = false, quoted = false;
	size_t n = 0;

	a->argc = 0;
	for (;; p++) {
		char c = *p;

		if (c == '\0' || (!quoted && (c == ';' || is_space(c)))) {
			if (in_word) {
				if (n == sizeof(a->buf))
					return PARSE_TOO_LONG;
				a->buf[n++] = '\0';
				in_word = false;
			}
			if (!is_space(c))
				break;
			continue;
		}
		if (!in_word) {
			if (a->argc == SHELL_MAX_ARGS)
				return PARSE_TOO_MANY_ARGS;
			a->argv[a->argc++] = a->buf + n;
			in_word = true;
		}
		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (n == sizeof(a->buf))
			return PARSE_TOO_LONG;
		a->buf[n++] = c;
	}
	if (quoted)
		return PARSE_UNTERMINATED_QUOTE;
	a->argv[a->argc] = NULL;
	*pp = *p ? p + 1 : p;
	return PARSE_OK;
}

static void report_parse_error(enum parse_error err)
{
	switch (err) {
	case PARSE_TOO_MANY_ARGS:
		printk("error: too many arguments (max %d)\n", SHELL_MAX_ARGS);
		break;
	case PARSE_UNTERMINATED_QUOTE:
		printk("error: unterminated quote\n");
		break;
	case PARSE_TOO_LONG:
		printk("error: command too long (max %d characters)\n",
		       SHELL_ARGS_SIZE - 1);
		break;
	case PARSE_OK:
		break;
	}
}

static int run_command(int argc, char **argv)
{
	const struct shell_command *cmd = shell_find_command(argv[0]);

	if (!cmd) {
		printk("unknown command '%s' (try 'help')\n", argv[0]);
		return SHELL_STATUS_NOT_FOUND;
	}
	return cmd->run(argc, argv);
}

int shell_run_line(const char *line)
{
	struct shell_args args;
	enum parse_error err;
	const char *p;
	int status = 0;

	/* Check every command first, so a typo late in a line runs nothing. */
	for (p = line; *p;) {
		err = parse_command(&p, &args);
		if (err != PARSE_OK) {
			report_parse_error(err);
			return SHELL_STATUS_SYNTAX;
		}
	}
	/* A failing command does not stop the ones after it, as in sh. */
	for (p = line; *p;) {
		parse_command(&p, &args);
		if (!args.argc)
			continue;
		status = run_command(args.argc, args.argv);
		/*
		 * The command's dead frames may hold block addresses (an
		 * allocation's, a module's list): the next command's scan
		 * must not find them in its own frames' unused slots.
		 */
		task_wipe_dead_stack();
	}
	return status;
}

static void shell_echo(const char *s, size_t n, void *ctx)
{
	(void)ctx;
	console_write(s, n);
}

static enum lineedit_result shell_read_line(struct line_editor *le)
{
	enum lineedit_result res;

	do {
		res = lineedit_feed(le, console_getc());
	} while (res == LINEEDIT_CONTINUE);
	return res;
}

/* The line still runs: dropping a stray byte is almost always right. */
static void warn_ignored(unsigned int count)
{
	if (count)
		printk("warning: %u non-printable byte%s ignored\n",
		       count, count == 1 ? "" : "s");
}

void shell_main(void)
{
	/* Static: with its history the editor is too big for a kernel stack. */
	static struct line_editor le;

	lineedit_init(&le, shell_echo, NULL);
	for (;;) {
		lineedit_start(&le, SHELL_PROMPT);
		switch (shell_read_line(&le)) {
		case LINEEDIT_DONE:
			warn_ignored(le.ignored);
			shell_run_line(le.line);
			break;
		case LINEEDIT_OVERFLOW:
			printk("error: line too long (max %d characters), "
			       "ignored\n", LINEEDIT_LINE_MAX - 1);
			break;
		case LINEEDIT_CANCELLED:
		case LINEEDIT_CONTINUE:
			break;
		}
	}
}

static void sort_by_name(const struct shell_command **cmds, int n)
{
	int i, j;

	for (i = 1; i < n; i++) {
		const struct shell_command *cmd = cmds[i];

		for (j = i; j > 0; j--) {
			if (strcmp(cmds[j - 1]->name, cmd->name) <= 0)
				break;
			cmds[j] = cmds[j - 1];
		}
		cmds[j] = cmd;
	}
}

static int help_all(void)
{
	/* Static to spare the stack; only one shell runs 'help' at a time. */
	static const struct shell_command *cmds[SHELL_HELP_MAX];
	const struct shell_command *cmd;
	int i, n = 0, unlisted = 0, width = 0;

	/* The section holds commands in link order, so sort them here. */
	for_each_shell_command(cmd) {
		if (n == SHELL_HELP_MAX) {
			unlisted++;
			continue;
		}
		cmds[n++] = cmd;
		width = max(width, (int)strlen(cmd->name));
	}
	sort_by_name(cmds, n);
	for (i = 0; i < n; i++) {
		cmd = cmds[i];
		if (cmd->help)
			printk("%-*s  %s\n", width, cmd->name, cmd->help);
		else
			printk("%s\n", cmd->name);
	}
	if (unlisted)
		printk("(%d more commands not listed: raise SHELL_HELP_MAX)\n",
		       unlisted);
	return 0;
}

static int help_one(const char *name)
{
	const struct shell_command *cmd = shell_find_command(name);

	if (!cmd) {
		printk("help: no command '%s'\n", name);
		return 1;
	}
	printk("usage: %s\n", cmd->usage ? cmd->usage : cmd->name);
	if (cmd->help)
		printk("%s\n", cmd->help);
	return 0;
}

static int cmd_help(int argc, char **argv)
{
	if (argc > 2) {
		printk("usage: help [COMMAND]\n");
		return 1;
	}
	return argc == 2 ? help_one(argv[1]) : help_all();
}
SHELL_COMMAND("help", cmd_help, "help [COMMAND]",
	      "list the commands, or show how to use one");

static int cmd_echo(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		printk("%s%s", i > 1 ? " " : "", argv[i]);
	printk("\n");
	return 0;
}
SHELL_COMMAND("echo", cmd_echo, "echo [WORD...]",
	      "print the words, separated by one space");
