/*
 * libFuzzer target for the line editor (kernel/lineedit.c): the input is
 * fed byte by byte, keys and escape sequences alike. After every byte
 * the editor's state must hold together (line NUL-terminated at len,
 * cursor <= len < LINEEDIT_LINE_MAX, history entries terminated), and a
 * small terminal fed with the echo must show exactly the prompt and the
 * line with the cursor in its place: the echo is the user's only view of
 * the line that Enter will run.
 */
#include <kernel/lineedit.h>
#include <kernel/string.h>
#include <kernel/types.h>
#include <stdlib.h>

#define PROMPT "k> "
#define PROMPT_LEN (sizeof(PROMPT) - 1)
#define COLS 1024

/* One terminal row: enough for the prompt and the longest line. */
struct term {
	char row[COLS];
	size_t col;
	size_t used;		/* columns past this one are all blank */
	bool checked;		/* the row started with the prompt */
	unsigned char seq[16];	/* an escape sequence being received */
	size_t seq_len;
};

static void term_newline(struct term *t)
{
	memset(t->row, ' ', sizeof(t->row));
	t->col = 0;
	t->used = 0;
}

/* The editor only ever sends ESC [ K and ESC [ n D. */
static void term_escape(struct term *t, unsigned char c)
{
	unsigned long n = 0;

	if (t->seq_len == sizeof(t->seq))
		abort();
	t->seq[t->seq_len++] = c;
	if (t->seq_len == 2 && c != '[')
		abort();
	if (t->seq_len <= 2 || (c >= '0' && c <= '9'))
		return;
	for (size_t i = 2; i < t->seq_len - 1; i++)
		n = n * 10 + (t->seq[i] - '0');
	if (c == 'K' && t->seq_len == 3) {
		memset(t->row + t->col, ' ', COLS - t->col);
		if (t->used > t->col)
			t->used = t->col;
	} else if (c == 'D' && t->seq_len > 3 && n) {
		t->col = n > t->col ? 0 : t->col - n;
	} else {
		abort();
	}
	t->seq_len = 0;
}

static void term_put(struct term *t, unsigned char c)
{
	if (t->seq_len) {
		term_escape(t, c);
		return;
	}
	switch (c) {
	case 0x1b:
		t->seq[0] = c;
		t->seq_len = 1;
		break;
	case '\b':
		if (t->col)
			t->col--;
		break;
	case '\r':
		t->col = 0;
		break;
	case '\n':
		term_newline(t);
		break;
	case '\a':
		break;
	default:
		if (c < 0x20 || c >= 0x7f || t->col == COLS)
			abort();
		t->row[t->col++] = c;
		if (t->col > t->used)
			t->used = t->col;
	}
}

static void echo(const char *s, size_t n, void *ctx)
{
	if (n > 2 * COLS)
		abort();
	for (size_t i = 0; i < n; i++)
		term_put(ctx, s[i]);
}

static bool terminated(const char *s)
{
	return memchr(s, '\0', LINEEDIT_LINE_MAX) != NULL;
}

/* History and saved line change only when a line ends or on Up/Down. */
static void check_history(const struct line_editor *le)
{
	if (le->hist_count > LINEEDIT_HISTORY ||
	    le->hist_next >= LINEEDIT_HISTORY ||
	    le->hist_pos > le->hist_count || !terminated(le->saved))
		abort();
	for (unsigned int i = 0; i < LINEEDIT_HISTORY; i++)
		if (!terminated(le->history[i]))
			abort();
}

static void check_state(const struct line_editor *le)
{
	if (le->len >= LINEEDIT_LINE_MAX || le->cursor > le->len ||
	    le->line[le->len] != '\0' || strlen(le->line) != le->len)
		abort();
	for (size_t i = 0; i < le->len; i++)
		if (le->line[i] < 0x20 || le->line[i] >= 0x7f)
			abort();
}

/* The row shows the prompt, the line, blanks; the cursor is in place. */
static void check_screen(const struct line_editor *le, const struct term *t)
{
	if (!t->checked || le->esc != LINEEDIT_ESC_NONE)
		return;
	if (t->seq_len || memcmp(t->row, PROMPT, PROMPT_LEN) ||
	    memcmp(t->row + PROMPT_LEN, le->line, le->len) ||
	    t->col != PROMPT_LEN + le->cursor)
		abort();
	for (size_t i = PROMPT_LEN + le->len; i < t->used; i++)
		if (t->row[i] != ' ')
			abort();
}

/*
 * After a finished line the shell starts the next one; without that the
 * editor starts it on its own, prompt-less, and the row goes unchecked.
 */
static void next_line(struct line_editor *le, struct term *t, bool start)
{
	t->checked = start;
	if (start)
		lineedit_start(le, PROMPT);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	/* On the heap, so that ASan sees a write past the last array. */
	struct line_editor *le = malloc(sizeof(*le));
	struct term *t = malloc(sizeof(*t));
	unsigned int lines = 0;

	memset(t, 0, sizeof(*t));
	term_newline(t);
	lineedit_init(le, echo, t);
	next_line(le, t, true);
	for (size_t i = 0; i < size; i++) {
		unsigned int hist_pos = le->hist_pos;
		enum lineedit_result res = lineedit_feed(le, data[i]);

		check_state(le);
		if (res == LINEEDIT_OVERFLOW && le->len)
			abort();
		if (res != LINEEDIT_CONTINUE || le->hist_pos != hist_pos)
			check_history(le);
		if (res != LINEEDIT_CONTINUE)
			next_line(le, t, ++lines % 4 != 0);
		else
			check_screen(le, t);
	}
	free(t);
	free(le);
	return 0;
}
