/* Host tests for the shell, with a fake console that records its output. */
/*
 * Kernel headers first: compiler.h and glibc's <sys/cdefs.h> (under
 * <stdint.h>) both define __always_inline, and GCC lets the second
 * definition pass only when it sits in a system header.
 */
#include <kernel/shell.h>
#include <kernel/console.h>
#include <kernel/lineedit.h>
#include <kernel/printk.h>
#include <kernel/string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static char out_buf[16384];
static size_t out_len;

/* Scripted console input; running out of it ends shell_main(). */
static const char *input;
static size_t input_len, input_pos;
static jmp_buf input_done;

void console_write(const char *s, size_t len)
{
	assert_true(out_len + len < sizeof(out_buf));
	memcpy(out_buf + out_len, s, len);
	out_len += len;
	out_buf[out_len] = '\0';
}

void console_putc(char c)
{
	console_write(&c, 1);
}

int console_getc(void)
{
	if (input_pos == input_len)
		longjmp(input_done, 1);
	return (unsigned char)input[input_pos++];
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[1024];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	assert_in_range(n, 0, sizeof(buf) - 1);
	console_write(buf, n);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

/* What the last 'argdump' saw. */
#define ARGDUMP_MAX 20
static int dump_runs;
static int dump_argc;
static char dump_argv[ARGDUMP_MAX][64];
static int dump_argv_terminated;

static int cmd_argdump(int argc, char **argv)
{
	int i;

	dump_runs++;
	dump_argc = argc;
	for (i = 0; i < argc && i < ARGDUMP_MAX; i++)
		strlcpy(dump_argv[i], argv[i], sizeof(dump_argv[i]));
	dump_argv_terminated = argv[argc] == NULL;
	return 0;
}
SHELL_COMMAND("argdump", cmd_argdump, "argdump [ARG...]",
	      "record the arguments");

static int cmd_fail(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("failing\n");
	return 3;
}
SHELL_COMMAND("fail", cmd_fail, "fail", "return status 3");

/* Registered before 'argdump' sorts, to show help sorts at all. */
static int cmd_zebra(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}
SHELL_COMMAND("zebra", cmd_zebra, NULL, NULL);

static int cmd_long(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return 0;
}
SHELL_COMMAND("a-very-long-name", cmd_long, "a-very-long-name X",
	      "set the column width");

static int setup(void **state)
{
	(void)state;
	out_len = 0;
	out_buf[0] = '\0';
	dump_runs = 0;
	dump_argc = -1;
	dump_argv_terminated = 0;
	return 0;
}

static void test_find_command(void **state)
{
	(void)state;
	assert_non_null(shell_find_command("help"));
	assert_non_null(shell_find_command("echo"));
	assert_string_equal(shell_find_command("argdump")->name, "argdump");
	assert_ptr_equal(shell_find_command("fail")->run, cmd_fail);
	assert_null(shell_find_command("nosuch"));
	assert_null(shell_find_command(""));
	assert_null(shell_find_command("arg"));
	assert_null(shell_find_command("argdumpx"));
}

static void test_argv_split_on_spaces(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("  argdump  one two\tthree   "), 0);
	assert_int_equal(dump_runs, 1);
	assert_int_equal(dump_argc, 4);
	assert_string_equal(dump_argv[0], "argdump");
	assert_string_equal(dump_argv[1], "one");
	assert_string_equal(dump_argv[2], "two");
	assert_string_equal(dump_argv[3], "three");
	assert_true(dump_argv_terminated);
	assert_string_equal(out_buf, "");
}

static void test_quotes(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("argdump \"hello  world\" "
					"a\"b c\"d \"\" \"x;y\""), 0);
	assert_int_equal(dump_argc, 5);
	assert_string_equal(dump_argv[1], "hello  world");
	assert_string_equal(dump_argv[2], "ab cd");
	assert_string_equal(dump_argv[3], "");
	assert_string_equal(dump_argv[4], "x;y");
}

static void test_quoted_command_name(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("\"argdump\" x"), 0);
	assert_int_equal(dump_argc, 2);
	assert_string_equal(dump_argv[0], "argdump");
}

static void test_unterminated_quote_runs_nothing(void **state)
{
	(void)state;
	assert_int_not_equal(shell_run_line("argdump ok; argdump \"open"), 0);
	assert_int_equal(dump_runs, 0);
	assert_string_equal(out_buf, "error: unterminated quote\n");
}

static void test_semicolons(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("echo one; echo two;;echo three;"), 0);
	assert_string_equal(out_buf, "one\ntwo\nthree\n");
}

static void test_semicolon_ends_word(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("argdump a;argdump b c"), 0);
	assert_int_equal(dump_runs, 2);
	assert_int_equal(dump_argc, 3);
	assert_string_equal(dump_argv[1], "b");
}

static void test_status_of_last_command(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("fail"), 3);
	assert_int_equal(shell_run_line("echo a; fail"), 3);
	/* A failure does not stop the rest of the line. */
	assert_int_equal(shell_run_line("fail; echo after"), 0);
	assert_non_null(strstr(out_buf, "failing\nafter\n"));
}

static void test_empty_lines(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line(""), 0);
	assert_int_equal(shell_run_line("   "), 0);
	assert_int_equal(shell_run_line(" ; ;"), 0);
	assert_string_equal(out_buf, "");
}

static void test_unknown_command(void **state)
{
	(void)state;
	assert_int_not_equal(shell_run_line("nosuch arg"), 0);
	assert_string_equal(out_buf, "unknown command 'nosuch' (try 'help')\n");
}

static void test_unknown_command_then_more(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("frob; echo still here"), 0);
	assert_string_equal(out_buf, "unknown command 'frob' (try 'help')\n"
				     "still here\n");
}

static void test_sixteen_args_fit(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("argdump 1 2 3 4 5 6 7 8 9 10 11 12 "
					"13 14 15"), 0);
	assert_int_equal(dump_argc, 16);
	assert_string_equal(dump_argv[15], "15");
	assert_true(dump_argv_terminated);
}

static void test_too_many_args(void **state)
{
	(void)state;
	assert_int_not_equal(shell_run_line("echo before; argdump 1 2 3 4 5 6 "
					    "7 8 9 10 11 12 13 14 15 16"), 0);
	assert_int_equal(dump_runs, 0);
	assert_string_equal(out_buf, "error: too many arguments (max 16)\n");
}

static void test_command_too_long(void **state)
{
	char line[400];

	(void)state;
	memset(line, 'w', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	assert_int_not_equal(shell_run_line(line), 0);
	assert_string_equal(out_buf,
			    "error: command too long (max 255 characters)\n");
}

static void test_longest_editor_line_fits(void **state)
{
	char line[LINEEDIT_LINE_MAX];

	(void)state;
	memcpy(line, "argdump ", 8);
	memset(line + 8, 'w', sizeof(line) - 9);
	line[sizeof(line) - 1] = '\0';
	assert_int_equal(shell_run_line(line), 0);
	assert_int_equal(dump_argc, 2);
	assert_int_equal(strlen(dump_argv[0]), 7);
}

static void test_echo(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("echo   a   b  \"c  d\""), 0);
	assert_int_equal(shell_run_line("echo"), 0);
	assert_string_equal(out_buf, "a b c  d\n\n");
}

static void test_help_lists_sorted(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("help"), 0);
	assert_string_equal(out_buf,
		"a-very-long-name  set the column width\n"
		"argdump           record the arguments\n"
		"echo              print the words, separated by one space\n"
		"fail              return status 3\n"
		"help              list the commands, or show how to use one\n"
		"zebra\n");
}

static void test_help_command(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("help echo"), 0);
	assert_string_equal(out_buf,
			    "usage: echo [WORD...]\n"
			    "print the words, separated by one space\n");
}

static void test_help_without_usage(void **state)
{
	(void)state;
	assert_int_equal(shell_run_line("help zebra"), 0);
	assert_string_equal(out_buf, "usage: zebra\n");
}

static void test_help_nosuch(void **state)
{
	(void)state;
	assert_int_not_equal(shell_run_line("help nosuch"), 0);
	assert_string_equal(out_buf, "help: no command 'nosuch'\n");
}

static void test_help_too_many(void **state)
{
	(void)state;
	assert_int_not_equal(shell_run_line("help a b"), 0);
	assert_string_equal(out_buf, "usage: help [COMMAND]\n");
}

static void run_shell_main(const char *in, size_t len)
{
	input = in;
	input_len = len;
	input_pos = 0;
	if (!setjmp(input_done))
		shell_main();
}

static void test_shell_main(void **state)
{
	char in[512], expect[2048], xs[301];
	size_t n = 0;

	(void)state;
	memset(xs, 'x', 300);
	xs[300] = '\0';
	n = strlcpy(in, "echo hi\r\n", sizeof(in));
	n = strlcat(in, xs, sizeof(in));
	n = strlcat(in, "\r\n" "ec\x02ho  x\n" "abc\x03" "fail\r", sizeof(in));
	assert_true(n < sizeof(in));

	xs[LINEEDIT_LINE_MAX - 1] = '\0';
	snprintf(expect, sizeof(expect),
		 "kernel> echo hi\n" "hi\n"
		 "kernel> %s\a\n"
		 "error: line too long (max 255 characters), ignored\n"
		 "kernel> echo  x\n"
		 "warning: 1 non-printable byte ignored\n" "x\n"
		 "kernel> abc^C\n"
		 "kernel> fail\n" "failing\n"
		 "kernel> ", xs);

	run_shell_main(in, n);
	assert_int_equal(input_pos, n);
	assert_string_equal(out_buf, expect);
}

static void test_shell_main_warning_plural(void **state)
{
	static const char in[] = "e\x02\x04\x0b\r";

	(void)state;
	run_shell_main(in, sizeof(in) - 1);
	assert_non_null(strstr(out_buf,
			       "warning: 3 non-printable bytes ignored\n"
			       "unknown command 'e' (try 'help')\n"));
}

#define T(fn) cmocka_unit_test_setup(fn, setup)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_find_command),
		T(test_argv_split_on_spaces),
		T(test_quotes),
		T(test_quoted_command_name),
		T(test_unterminated_quote_runs_nothing),
		T(test_semicolons),
		T(test_semicolon_ends_word),
		T(test_status_of_last_command),
		T(test_empty_lines),
		T(test_unknown_command),
		T(test_unknown_command_then_more),
		T(test_sixteen_args_fit),
		T(test_too_many_args),
		T(test_command_too_long),
		T(test_longest_editor_line_fits),
		T(test_echo),
		T(test_help_lists_sorted),
		T(test_help_command),
		T(test_help_without_usage),
		T(test_help_nosuch),
		T(test_help_too_many),
		T(test_shell_main),
		T(test_shell_main_warning_plural),
	};

	return cmocka_run_group_tests_name("shell", tests, NULL, NULL);
}
