/*
 * A line editor for a serial terminal. It is a pure state machine: bytes
 * go in through lineedit_feed(), echo comes out through a callback, so the
 * host tests can drive it without a console.
 */
#ifndef KERNEL_LINEEDIT_H
#define KERNEL_LINEEDIT_H

#include <stddef.h>
#include <stdbool.h>

/*
 * Bytes in a line, the terminating NUL included. Not called LINE_MAX:
 * the host's <limits.h> already defines that name.
 */
#define LINEEDIT_LINE_MAX 256
/* Lines kept for the Up and Down arrows. */
#define LINEEDIT_HISTORY 16

enum lineedit_result {
	LINEEDIT_CONTINUE,	/* the line is not finished; feed more */
	LINEEDIT_DONE,		/* a whole line is ready in le->line */
	LINEEDIT_CANCELLED,	/* Ctrl-C: the line was thrown away */
	LINEEDIT_OVERFLOW,	/* Enter on a line that did not fit: rejected */
};

enum lineedit_esc {
	LINEEDIT_ESC_NONE,
	LINEEDIT_ESC_START,	/* ESC seen */
	LINEEDIT_ESC_CSI,	/* ESC [ seen, parameters may follow */
	LINEEDIT_ESC_SS3,	/* ESC O seen */
};

struct line_editor {
	char line[LINEEDIT_LINE_MAX];	/* always NUL-terminated */
	size_t len;
	size_t cursor;			/* 0..len */
	bool overflow;		/* input was dropped: the line must not run */
	unsigned int ignored;	/* non-printable bytes dropped from this line */

	const char *prompt;	/* kept for redraws; must outlive the line */
	void (*out)(const char *s, size_t n, void *ctx);
	void *ctx;

	bool after_cr;		/* last byte was CR: swallow one LF */
	bool finished;		/* line handed out: next byte starts anew */
	enum lineedit_esc esc;
	unsigned int esc_len;	/* bytes of the sequence so far, with ESC */
	unsigned int esc_param;	/* first number of a CSI sequence */
	bool esc_param_done;	/* a ';' or the like ended that number */

	char history[LINEEDIT_HISTORY][LINEEDIT_LINE_MAX];
	unsigned int hist_next;	/* slot the next entry is written to */
	unsigned int hist_count;
	unsigned int hist_pos;	/* 0: the edited line; k: k-th newest entry */
	char saved[LINEEDIT_LINE_MAX];	/* the edited line while browsing */
	bool saved_overflow;
};

/*
 * Clears the editor, history included. out receives the echo (s is not
 * NUL-terminated) together with ctx; NULL means no echo at all.
 */
void lineedit_init(struct line_editor *le,
		   void (*out)(const char *s, size_t n, void *ctx), void *ctx);

/* Begins a new empty line and prints the prompt (NULL: none). */
void lineedit_start(struct line_editor *le, const char *prompt);

/*
 * Feeds one input byte (a negative value means no input and is skipped).
 * After DONE, le->line and le->ignored stay valid until the next
 * lineedit_start() or lineedit_feed().
 */
enum lineedit_result lineedit_feed(struct line_editor *le, int byte);

#endif
