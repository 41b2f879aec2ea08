/* The shell's line editor: editing keys, history and VT100 echo, no I/O. */
#include <kernel/lineedit.h>
#include <kernel/string.h>

#define CTRL(c) ((c) & 0x1f)
#define KEY_ESC 0x1b
#define KEY_DEL 0x7f

/* Keys that arrive as escape sequences. */
enum lineedit_key {
	KEY_UP,
	KEY_DOWN,
	KEY_RIGHT,
	KEY_LEFT,
	KEY_HOME,
	KEY_END,
	KEY_DELETE,
	KEY_UNKNOWN,
};

static void emit(struct line_editor *le, const char *s, size_t n)
{
	if (le->out && n)
		le->out(s, n, le->ctx);
}

static void emit_str(struct line_editor *le, const char *s)
{
	if (s)
		emit(le, s, strlen(s));
}

static void cursor_back(struct line_editor *le, size_t n)
{
	char buf[24];
	char *p = buf + sizeof(buf);

	/* "ESC [ 0 D" would still move one column, so zero needs nothing. */
	if (n == 0)
		return;
	if (n == 1) {
		emit(le, "\b", 1);
		return;
	}
	*--p = 'D';
	do {
		*--p = '0' + n % 10;
		n /= 10;
	} while (n);
	*--p = '[';
	*--p = KEY_ESC;
	emit(le, p, buf + sizeof(buf) - p);
}

/* Rewrites the line from pos to its end and puts the cursor back. */
static void redraw_from(struct line_editor *le, size_t pos)
{
	emit(le, le->line + pos, le->len - pos);
	emit_str(le, "\x1b[K");
	cursor_back(le, le->len - le->cursor);
}

/* Redraws prompt and line, for changes too big to patch in place. */
static void redraw_all(struct line_editor *le)
{
	emit(le, "\r", 1);
	emit_str(le, le->prompt);
	redraw_from(le, 0);
}

static void clear_line(struct line_editor *le)
{
	le->line[0] = '\0';
	le->len = 0;
	le->cursor = 0;
	le->overflow = false;
}

static void reset_line(struct line_editor *le)
{
	clear_line(le);
	le->ignored = 0;
	le->finished = false;
	le->esc = LINEEDIT_ESC_NONE;
	le->hist_pos = 0;
}

void lineedit_init(struct line_editor *le,
		   void (*out)(const char *s, size_t n, void *ctx), void *ctx)
{
	memset(le, 0, sizeof(*le));
	le->out = out;
	le->ctx = ctx;
	reset_line(le);
}

void lineedit_start(struct line_editor *le, const char *prompt)
{
	/* after_cr survives: the LF of a CRLF may still be on its way. */
	reset_line(le);
	le->prompt = prompt;
	emit_str(le, prompt);
}

/* The k-th newest history entry, k = 1..hist_count. */
static const char *history_entry(struct line_editor *le, unsigned int k)
{
	unsigned int slot = (le->hist_next + LINEEDIT_HISTORY - k) %
			    LINEEDIT_HISTORY;

	return le->history[slot];
}

static bool is_blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ')
			return false;
	return true;
}

static void history_add(struct line_editor *le)
{
	if (is_blank(le->line))
		return;
	if (le->hist_count && !strcmp(history_entry(le, 1), le->line))
		return;
	memcpy(le->history[le->hist_next], le->line, le->len + 1);
	le->hist_next = (le->hist_next + 1) % LINEEDIT_HISTORY;
	if (le->hist_count < LINEEDIT_HISTORY)
		le->hist_count++;
}

static void load_line(struct line_editor *le, const char *text, bool overflow)
{
	le->len = strlen(text);
	memcpy(le->line, text, le->len + 1);
	le->cursor = le->len;
	le->overflow = overflow;
	redraw_all(le);
}

static void history_up(struct line_editor *le)
{
	if (le->hist_pos >= le->hist_count)
		return;
	/* Remember the line being typed so Down can bring it back. */
	if (le->hist_pos == 0) {
		memcpy(le->saved, le->line, le->len + 1);
		le->saved_overflow = le->overflow;
	}
	le->hist_pos++;
	load_line(le, history_entry(le, le->hist_pos), false);
}

static void history_down(struct line_editor *le)
{
	if (le->hist_pos == 0)
		return;
	le->hist_pos--;
	if (le->hist_pos == 0)
		load_line(le, le->saved, le->saved_overflow);
	else
		load_line(le, history_entry(le, le->hist_pos), false);
}

static void insert_char(struct line_editor *le, char c)
{
	if (le->len == LINEEDIT_LINE_MAX - 1) {
		/*
		 * The byte is lost, so the line no longer says what the user
		 * typed; Enter will reject it. Ring the bell once as a hint.
		 */
		if (!le->overflow)
			emit(le, "\a", 1);
		le->overflow = true;
		return;
	}
	memmove(le->line + le->cursor + 1, le->line + le->cursor,
		le->len - le->cursor + 1);
	le->line[le->cursor] = c;
	le->len++;
	le->cursor++;
	if (le->cursor == le->len)
		emit(le, &c, 1);
	else
		redraw_from(le, le->cursor - 1);
}

static void delete_at_cursor(struct line_editor *le)
{
	if (le->cursor == le->len)
		return;
	memmove(le->line + le->cursor, le->line + le->cursor + 1,
		le->len - le->cursor);
	le->len--;
	redraw_from(le, le->cursor);
}

static void backspace(struct line_editor *le)
{
	if (le->cursor == 0)
		return;
	if (le->cursor == le->len) {
		le->line[--le->len] = '\0';
		le->cursor--;
		emit_str(le, "\b \b");
		return;
	}
	le->cursor--;
	emit(le, "\b", 1);
	delete_at_cursor(le);
}

static void move_left(struct line_editor *le)
{
	if (le->cursor == 0)
		return;
	le->cursor--;
	emit(le, "\b", 1);
}

static void move_right(struct line_editor *le)
{
	if (le->cursor == le->len)
		return;
	/* Writing the character moves right on any terminal. */
	emit(le, le->line + le->cursor, 1);
	le->cursor++;
}

static void move_home(struct line_editor *le)
{
	cursor_back(le, le->cursor);
	le->cursor = 0;
}

static void move_end(struct line_editor *le)
{
	emit(le, le->line + le->cursor, le->len - le->cursor);
	le->cursor = le->len;
}

static void kill_line(struct line_editor *le)
{
	clear_line(le);
	redraw_all(le);
}

static enum lineedit_result finish_line(struct line_editor *le)
{
	emit(le, "\n", 1);
	le->finished = true;
	if (le->overflow) {
		/* Leave nothing behind that a careless caller could run. */
		clear_line(le);
		return LINEEDIT_OVERFLOW;
	}
	history_add(le);
	return LINEEDIT_DONE;
}

static enum lineedit_result cancel_line(struct line_editor *le)
{
	emit_str(le, "^C\n");
	clear_line(le);
	le->finished = true;
	return LINEEDIT_CANCELLED;
}

static void do_key(struct line_editor *le, enum lineedit_key key)
{
	switch (key) {
	case KEY_UP:
		history_up(le);
		break;
	case KEY_DOWN:
		history_down(le);
		break;
	case KEY_RIGHT:
		move_right(le);
		break;
	case KEY_LEFT:
		move_left(le);
		break;
	case KEY_HOME:
		move_home(le);
		break;
	case KEY_END:
		move_end(le);
		break;
	case KEY_DELETE:
		delete_at_cursor(le);
		break;
	case KEY_UNKNOWN:
		break;
	}
}

/* The key named by the last byte of "ESC [ A" or "ESC O A". */
static enum lineedit_key letter_key(int c)
{
	switch (c) {
	case 'A':
		return KEY_UP;
	case 'B':
		return KEY_DOWN;
	case 'C':
		return KEY_RIGHT;
	case 'D':
		return KEY_LEFT;
	case 'H':
		return KEY_HOME;
	case 'F':
		return KEY_END;
	default:
		return KEY_UNKNOWN;
	}
}

/* The key named by "ESC [ n ~"; terminals disagree on Home and End. */
static enum lineedit_key tilde_key(unsigned int param)
{
	switch (param) {
	case 1:
	case 7:
		return KEY_HOME;
	case 4:
	case 8:
		return KEY_END;
	case 3:
		return KEY_DELETE;
	default:
		return KEY_UNKNOWN;
	}
}

static bool is_final_byte(int c)
{
	return c >= 0x40 && c <= 0x7e;
}

/* Ends a sequence that broke off; its bytes count as ignored. */
static bool abort_escape(struct line_editor *le)
{
	le->ignored += le->esc_len;
	le->esc = LINEEDIT_ESC_NONE;
	return false;
}

static bool feed_csi(struct line_editor *le, int c)
{
	if (c >= '0' && c <= '9') {
		/* The cap only keeps a runaway number from wrapping. */
		if (!le->esc_param_done && le->esc_param < 1000)
			le->esc_param = le->esc_param * 10 + (c - '0');
		le->esc_len++;
		return true;
	}
	if (c >= 0x20 && c <= 0x3f) {
		le->esc_param_done = true;
		le->esc_len++;
		return true;
	}
	if (!is_final_byte(c))
		return abort_escape(le);
	le->esc = LINEEDIT_ESC_NONE;
	/* Modifiers as in "ESC [ 1 ; 5 C" are dropped: it still moves. */
	if (c == '~')
		do_key(le, tilde_key(le->esc_param));
	else
		do_key(le, letter_key(c));
	return true;
}

/*
 * Advances the escape parser by one byte. Returns false when the byte is
 * not part of a sequence and must be handled as ordinary input. Well-formed
 * sequences for keys we do not know (PgUp, F1, ...) are dropped quietly.
 */
static bool feed_escape(struct line_editor *le, int c)
{
	switch (le->esc) {
	case LINEEDIT_ESC_START:
		if (c == '[') {
			le->esc = LINEEDIT_ESC_CSI;
			le->esc_len++;
			le->esc_param = 0;
			le->esc_param_done = false;
			return true;
		}
		if (c == 'O') {
			le->esc = LINEEDIT_ESC_SS3;
			le->esc_len++;
			return true;
		}
		return abort_escape(le);
	case LINEEDIT_ESC_CSI:
		return feed_csi(le, c);
	case LINEEDIT_ESC_SS3:
		if (!is_final_byte(c))
			return abort_escape(le);
		le->esc = LINEEDIT_ESC_NONE;
		do_key(le, letter_key(c));
		return true;
	case LINEEDIT_ESC_NONE:
		break;
	}
	return false;
}

static enum lineedit_result feed_plain(struct line_editor *le, int c)
{
	switch (c) {
	case '\r':
		le->after_cr = true;
		return finish_line(le);
	case '\n':
		return finish_line(le);
	case CTRL('C'):
		return cancel_line(le);
	case KEY_DEL:
	case '\b':
		backspace(le);
		break;
	case CTRL('U'):
		kill_line(le);
		break;
	case CTRL('A'):
		move_home(le);
		break;
	case CTRL('E'):
		move_end(le);
		break;
	case KEY_ESC:
		le->esc = LINEEDIT_ESC_START;
		le->esc_len = 1;
		break;
	default:
		if (c >= 0x20 && c < 0x7f)
			insert_char(le, c);
		else
			le->ignored++;
		break;
	}
	return LINEEDIT_CONTINUE;
}

enum lineedit_result lineedit_feed(struct line_editor *le, int byte)
{
	bool after_cr = le->after_cr;

	if (byte < 0)
		return LINEEDIT_CONTINUE;
	le->after_cr = false;
	if (le->finished)
		reset_line(le);
	if (feed_escape(le, byte))
		return LINEEDIT_CONTINUE;
	/* CRLF is one Enter: its CR already finished the line. */
	if (byte == '\n' && after_cr)
		return LINEEDIT_CONTINUE;
	return feed_plain(le, byte);
}
