/* Host tests for the line editor: bytes in, line, result and echo out. */
/*
 * Kernel headers first: compiler.h and glibc's <sys/cdefs.h> (under
 * <stdint.h>) both define __always_inline, and GCC lets the second
 * definition pass only when it sits in a system header.
 */
#include <kernel/lineedit.h>
#include <kernel/printk.h>
#include <kernel/string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#define UP "\x1b[A"
#define DOWN "\x1b[B"
#define RIGHT "\x1b[C"
#define LEFT "\x1b[D"
#define HOME "\x1b[H"
#define END "\x1b[F"
#define DELETE "\x1b[3~"

/* Static: the editor with its history is a few kilobytes. */
static struct line_editor le;
static char echo_buf[16384];
static size_t echo_len;

static void capture(const char *s, size_t n, void *ctx)
{
	assert_ptr_equal(ctx, &echo_len);
	assert_true(echo_len + n < sizeof(echo_buf));
	memcpy(echo_buf + echo_len, s, n);
	echo_len += n;
	echo_buf[echo_len] = '\0';
}

static void clear_echo(void)
{
	echo_len = 0;
	echo_buf[0] = '\0';
}

static int setup(void **state)
{
	(void)state;
	lineedit_init(&le, capture, &echo_len);
	lineedit_start(&le, "> ");
	clear_echo();
	return 0;
}

/* Feeds s; every byte but the last must leave the line unfinished. */
static enum lineedit_result feed(const char *s)
{
	enum lineedit_result res = LINEEDIT_CONTINUE;

	for (; *s; s++) {
		assert_int_equal(res, LINEEDIT_CONTINUE);
		res = lineedit_feed(&le, (unsigned char)*s);
	}
	return res;
}

/* Starts a new line, types s and checks that it comes back whole. */
static void enter_line(const char *s)
{
	lineedit_start(&le, "> ");
	assert_int_equal(feed(s), LINEEDIT_CONTINUE);
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, s);
}

static void test_start_prints_prompt(void **state)
{
	(void)state;
	lineedit_start(&le, "kernel> ");
	assert_string_equal(echo_buf, "kernel> ");
	assert_int_equal(le.len, 0);
	assert_string_equal(le.line, "");
}

static void test_typing(void **state)
{
	(void)state;
	assert_int_equal(feed("echo hi"), LINEEDIT_CONTINUE);
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "echo hi");
	assert_int_equal(le.len, 7);
	assert_string_equal(echo_buf, "echo hi\n");
	assert_int_equal(le.ignored, 0);
}

static void test_backspace(void **state)
{
	(void)state;
	/* DEL is what most terminals send, ^H what some others do. */
	assert_int_equal(feed("helx\x7flo wox\brld\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "hello world");
	assert_non_null(strstr(echo_buf, "x\b \b"));
}

static void test_backspace_at_start_does_nothing(void **state)
{
	(void)state;
	assert_int_equal(feed("\x7f\x7f" "a\x7f\x7f" "b\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "b");
	assert_int_equal(le.ignored, 0);
}

static void test_ctrl_u_kills_line(void **state)
{
	(void)state;
	assert_int_equal(feed("garbage\x15"), LINEEDIT_CONTINUE);
	assert_int_equal(le.len, 0);
	/* The prompt is redrawn and the rest of the row wiped. */
	assert_string_equal(echo_buf, "garbage\r> \x1b[K");
	assert_int_equal(feed("ok\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "ok");
}

static void test_ctrl_c_cancels(void **state)
{
	(void)state;
	assert_int_equal(feed("abc\x03"), LINEEDIT_CANCELLED);
	assert_string_equal(echo_buf, "abc^C\n");
	assert_string_equal(le.line, "");
	assert_int_equal(le.hist_count, 0);
	enter_line("next");
}

static void test_enter_cr_lf_crlf(void **state)
{
	(void)state;
	assert_int_equal(feed("a\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "a");

	lineedit_start(&le, "> ");
	assert_int_equal(feed("b\n"), LINEEDIT_DONE);
	assert_string_equal(le.line, "b");

	/* The LF of a CRLF belongs to the CR and must not end a new line. */
	lineedit_start(&le, "> ");
	assert_int_equal(feed("c\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "c");
	lineedit_start(&le, "> ");
	assert_int_equal(lineedit_feed(&le, '\n'), LINEEDIT_CONTINUE);
	assert_int_equal(feed("d\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "d");
}

static void test_only_one_lf_is_swallowed(void **state)
{
	(void)state;
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "");
	lineedit_start(&le, "> ");
	assert_int_equal(lineedit_feed(&le, '\n'), LINEEDIT_CONTINUE);
	/* A second LF is a real, empty line; so is LF CR. */
	assert_int_equal(lineedit_feed(&le, '\n'), LINEEDIT_DONE);
	lineedit_start(&le, "> ");
	assert_int_equal(lineedit_feed(&le, '\r'), LINEEDIT_DONE);
	lineedit_start(&le, "> ");
	assert_int_equal(lineedit_feed(&le, '\r'), LINEEDIT_DONE);
}

static void test_lines_without_start(void **state)
{
	(void)state;
	/* A caller that skips lineedit_start() still gets separate lines. */
	assert_int_equal(feed("one\r"), LINEEDIT_DONE);
	assert_int_equal(feed("\ntwo\n"), LINEEDIT_DONE);
	assert_string_equal(le.line, "two");
}

static void type_n(char c, int n)
{
	int i;

	for (i = 0; i < n; i++)
		assert_int_equal(lineedit_feed(&le, c), LINEEDIT_CONTINUE);
}

static void test_longest_line_fits(void **state)
{
	(void)state;
	type_n('y', LINEEDIT_LINE_MAX - 1);
	assert_false(le.overflow);
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_int_equal(le.len, LINEEDIT_LINE_MAX - 1);
	assert_int_equal(strlen(le.line), LINEEDIT_LINE_MAX - 1);
}

static void test_overflow_rejects_whole_line(void **state)
{
	(void)state;
	type_n('x', 300);
	assert_true(le.overflow);
	assert_int_equal(le.len, LINEEDIT_LINE_MAX - 1);
	/* The bell rings once, not for each lost byte. */
	assert_non_null(strchr(echo_buf, '\a'));
	assert_null(strchr(strchr(echo_buf, '\a') + 1, '\a'));

	assert_int_equal(feed("\r"), LINEEDIT_OVERFLOW);
	assert_string_equal(le.line, "");
	assert_int_equal(le.hist_count, 0);

	enter_line("echo ok");
	assert_false(le.overflow);
}

static void test_overflow_survives_editing(void **state)
{
	(void)state;
	/* What was lost cannot be typed back, so backspacing does not help. */
	type_n('x', 260);
	assert_int_equal(feed("\x7f\x7f\x7f\x7f\x7f\x7f\x7f\r"),
			 LINEEDIT_OVERFLOW);

	lineedit_start(&le, "> ");
	type_n('x', 260);
	/* Throwing the whole line away does. */
	assert_int_equal(feed("\x15" "fine\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "fine");
}

static void test_history_up_down(void **state)
{
	(void)state;
	enter_line("one");
	enter_line("two");
	enter_line("three");
	assert_int_equal(le.hist_count, 3);

	lineedit_start(&le, "> ");
	feed("draft");
	clear_echo();
	feed(UP);
	assert_string_equal(le.line, "three");
	assert_int_equal(le.cursor, 5);
	assert_string_equal(echo_buf, "\r> three\x1b[K");
	feed(UP);
	assert_string_equal(le.line, "two");
	feed(UP);
	assert_string_equal(le.line, "one");
	/* The oldest entry stays put. */
	feed(UP);
	assert_string_equal(le.line, "one");
	feed(DOWN);
	assert_string_equal(le.line, "two");
	feed(DOWN);
	assert_string_equal(le.line, "three");
	/* Past the newest entry comes the line that was being typed. */
	feed(DOWN);
	assert_string_equal(le.line, "draft");
	assert_int_equal(le.cursor, 5);
	feed(DOWN);
	assert_string_equal(le.line, "draft");
}

static void test_history_recall_and_run(void **state)
{
	(void)state;
	enter_line("first");
	enter_line("second");
	lineedit_start(&le, "> ");
	assert_int_equal(feed(UP UP "\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "first");
	/* A recalled line becomes the newest entry. */
	lineedit_start(&le, "> ");
	feed(UP);
	assert_string_equal(le.line, "first");
	feed(UP);
	assert_string_equal(le.line, "second");
}

static void test_history_ss3_arrows(void **state)
{
	(void)state;
	enter_line("a");
	enter_line("b");
	lineedit_start(&le, "> ");
	feed("\x1bOA\x1bOA");
	assert_string_equal(le.line, "a");
	feed("\x1bOB");
	assert_string_equal(le.line, "b");
}

static void test_history_skips_blank_and_repeated(void **state)
{
	(void)state;
	enter_line("");
	enter_line("   ");
	assert_int_equal(le.hist_count, 0);
	enter_line("same");
	enter_line("same");
	assert_int_equal(le.hist_count, 1);
	enter_line("other");
	enter_line("same");
	assert_int_equal(le.hist_count, 3);
	/* Leading spaces make a different line; it is not blank. */
	enter_line(" same");
	assert_int_equal(le.hist_count, 4);
}

static void test_history_ring_keeps_newest(void **state)
{
	char cmd[16];
	int i;

	(void)state;
	for (i = 0; i < LINEEDIT_HISTORY + 4; i++) {
		snprintf(cmd, sizeof(cmd), "cmd%d", i);
		enter_line(cmd);
	}
	assert_int_equal(le.hist_count, LINEEDIT_HISTORY);
	lineedit_start(&le, "> ");
	for (i = 0; i < LINEEDIT_HISTORY + 4; i++)
		feed(UP);
	assert_string_equal(le.line, "cmd4");
}

static void test_history_empty(void **state)
{
	(void)state;
	feed("typed" UP);
	assert_string_equal(le.line, "typed");
	feed(DOWN);
	assert_string_equal(le.line, "typed");
}

static void test_cursor_insert_in_middle(void **state)
{
	(void)state;
	feed("ac");
	clear_echo();
	feed(LEFT);
	assert_int_equal(le.cursor, 1);
	assert_string_equal(echo_buf, "\b");
	clear_echo();
	feed("b");
	assert_string_equal(le.line, "abc");
	assert_int_equal(le.cursor, 2);
	/* Rewrite the tail, then step back over it. */
	assert_string_equal(echo_buf, "bc\x1b[K\b");
	feed(HOME "x" END "y");
	assert_string_equal(le.line, "xabcy");
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "xabcy");
}

static void test_cursor_keys_variants(void **state)
{
	(void)state;
	feed("mid");
	feed("\x01" "<" "\x05" ">");
	assert_string_equal(le.line, "<mid>");
	feed("\x1b[1~" "[" "\x1b[4~" "]");
	assert_string_equal(le.line, "[<mid>]");
	feed("\x1bOH" "(" "\x1bOF" ")");
	assert_string_equal(le.line, "([<mid>])");
	/* Ctrl-Right: the modifier is dropped, it still moves. */
	feed(HOME "\x1b[1;5C" "_");
	assert_string_equal(le.line, "(_[<mid>])");
	assert_int_equal(le.ignored, 0);
}

static void test_cursor_stops_at_ends(void **state)
{
	(void)state;
	feed("ab" RIGHT RIGHT "c");
	assert_string_equal(le.line, "abc");
	feed(LEFT LEFT LEFT LEFT LEFT "0");
	assert_string_equal(le.line, "0abc");
	assert_int_equal(le.cursor, 1);
}

static void test_long_cursor_moves(void **state)
{
	(void)state;
	feed("0123456789ab");
	clear_echo();
	feed(HOME);
	assert_string_equal(echo_buf, "\x1b[12D");
	clear_echo();
	feed(END);
	assert_string_equal(echo_buf, "0123456789ab");
	clear_echo();
	feed(HOME);
	feed(END);
	/* Already at the end: nothing to write, not even "ESC [ 0 D". */
	clear_echo();
	feed(END "\x05");
	assert_string_equal(echo_buf, "");
}

static void test_backspace_in_middle(void **state)
{
	(void)state;
	feed("abcd" LEFT LEFT);
	clear_echo();
	feed("\x7f");
	assert_string_equal(le.line, "acd");
	assert_int_equal(le.cursor, 1);
	assert_string_equal(echo_buf, "\bcd\x1b[K\x1b[2D");
}

static void test_delete(void **state)
{
	(void)state;
	feed("abc" HOME DELETE);
	assert_string_equal(le.line, "bc");
	assert_int_equal(le.cursor, 0);
	feed(END DELETE);
	assert_string_equal(le.line, "bc");
	feed(LEFT DELETE);
	assert_string_equal(le.line, "b");
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "b");
}

static void test_escape_split_across_feeds(void **state)
{
	(void)state;
	enter_line("hist");
	lineedit_start(&le, "> ");
	assert_int_equal(lineedit_feed(&le, 0x1b), LINEEDIT_CONTINUE);
	assert_int_equal(lineedit_feed(&le, '['), LINEEDIT_CONTINUE);
	assert_string_equal(le.line, "");
	assert_int_equal(lineedit_feed(&le, 'A'), LINEEDIT_CONTINUE);
	assert_string_equal(le.line, "hist");

	feed("\x1b[");
	feed("D");
	feed("\x1b");
	feed("[3");
	assert_string_equal(le.line, "hist");
	feed("~");
	assert_string_equal(le.line, "his");
	assert_int_equal(le.ignored, 0);
}

static void test_non_printables_ignored(void **state)
{
	(void)state;
	/* NUL, ^B, TAB, ^D and two bytes outside ASCII. */
	assert_int_equal(lineedit_feed(&le, 0), LINEEDIT_CONTINUE);
	assert_int_equal(feed("a\x02\tb\x04\x80\xff"), LINEEDIT_CONTINUE);
	assert_int_equal(feed("\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "ab");
	assert_int_equal(le.ignored, 6);
	assert_string_equal(echo_buf, "ab\n");

	/* The count is per line. */
	lineedit_start(&le, "> ");
	assert_int_equal(le.ignored, 0);
}

static void test_no_input_is_not_ignored(void **state)
{
	(void)state;
	assert_int_equal(lineedit_feed(&le, -1), LINEEDIT_CONTINUE);
	assert_int_equal(le.ignored, 0);
}

static void test_broken_escapes(void **state)
{
	(void)state;
	/* A lone ESC is dropped and the next byte is typed as usual. */
	feed("\x1bx");
	assert_string_equal(le.line, "x");
	assert_int_equal(le.ignored, 1);
	/* A sequence cut short by a control byte: that byte still counts. */
	assert_int_equal(feed("\x1b[1\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "x");
	assert_int_equal(le.ignored, 4);

	/* Keys we do not know are well-formed, so they are not warned about. */
	lineedit_start(&le, "> ");
	feed("p\x1b[5~q\x1b[Zr\x1bOPs");
	assert_string_equal(le.line, "pqrs");
	assert_int_equal(le.ignored, 0);
}

static void test_no_echo_callback(void **state)
{
	(void)state;
	lineedit_init(&le, NULL, NULL);
	lineedit_start(&le, "> ");
	assert_int_equal(feed("ab" LEFT "\x7f" UP "\x15z\r"), LINEEDIT_DONE);
	assert_string_equal(le.line, "z");
}

#define T(fn) cmocka_unit_test_setup(fn, setup)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_start_prints_prompt),
		T(test_typing),
		T(test_backspace),
		T(test_backspace_at_start_does_nothing),
		T(test_ctrl_u_kills_line),
		T(test_ctrl_c_cancels),
		T(test_enter_cr_lf_crlf),
		T(test_only_one_lf_is_swallowed),
		T(test_lines_without_start),
		T(test_longest_line_fits),
		T(test_overflow_rejects_whole_line),
		T(test_overflow_survives_editing),
		T(test_history_up_down),
		T(test_history_recall_and_run),
		T(test_history_ss3_arrows),
		T(test_history_skips_blank_and_repeated),
		T(test_history_ring_keeps_newest),
		T(test_history_empty),
		T(test_cursor_insert_in_middle),
		T(test_cursor_keys_variants),
		T(test_cursor_stops_at_ends),
		T(test_long_cursor_moves),
		T(test_backspace_in_middle),
		T(test_delete),
		T(test_escape_split_across_feeds),
		T(test_non_printables_ignored),
		T(test_no_input_is_not_ignored),
		T(test_broken_escapes),
		T(test_no_echo_callback),
	};

	return cmocka_run_group_tests_name("lineedit", tests, NULL, NULL);
}
