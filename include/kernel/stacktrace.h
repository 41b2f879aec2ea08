/*
 * Frame-pointer backtraces. Every function of the kernel keeps a frame
 * record on the stack (the saved frame pointer of its caller and its
 * return address) and a frame pointer register pointing at it, so the
 * records form a chain up the stack. Each arch describes where the two
 * words sit around the frame pointer (<asm/unwind.h>); the walker below
 * is the same for all and never reads outside the stack it was given.
 * Pictures and rules: docs/backtraces.md.
 */
#ifndef KERNEL_STACKTRACE_H
#define KERNEL_STACKTRACE_H

#include <stdbool.h>

/* A point of a call chain: its frame pointer and a code address. */
struct stack_frame {
	unsigned long fp;
	unsigned long pc;
};

/*
 * Where a frame record lies around the frame pointer, in words
 * (unsigned long) so that host tests can build stacks of host words.
 */
struct frame_layout {
	int saved_fp;		/* index of the caller's frame pointer */
	int return_address;	/* index of the return address */
	unsigned int below;	/* the record spans fp[-below] .. */
	unsigned int above;	/* .. fp[above - 1] */
};

/*
 * True when the whole record at fp lies word-aligned in [low, high).
 * A frame pointer of 0 ends every chain, whatever the bounds.
 */
static inline bool frame_record_inside(const struct frame_layout *layout,
				       unsigned long fp, unsigned long low,
				       unsigned long high)
{
	const unsigned long word = sizeof(unsigned long);

	return fp != 0 && fp % word == 0 && fp >= low && fp < high &&
	       (fp - low) / word >= layout->below &&
	       (high - fp) / word >= layout->above;
}

/*
 * One step up the chain: from the frame whose frame pointer is
 * frame->fp to its caller, whose return address goes to frame->pc.
 * Returns false, leaving *frame alone, when the record is not inside
 * [low, high) or misaligned, when the return address is 0, or when the
 * saved frame pointer does not lie strictly higher (a loop or garbage);
 * a saved frame pointer of 0 ends the chain after this step.
 */
static inline bool unwind_frame(const struct frame_layout *layout,
				struct stack_frame *frame, unsigned long low,
				unsigned long high)
{
	const unsigned long *record = (const unsigned long *)frame->fp;
	unsigned long caller_fp, ret;

	if (!frame_record_inside(layout, frame->fp, low, high))
		return false;
	caller_fp = record[layout->saved_fp];
	ret = record[layout->return_address];
	if (ret == 0 || (caller_fp != 0 && caller_fp <= frame->fp))
		return false;
	frame->fp = caller_fp;
	frame->pc = ret;
	return true;
}

/*
 * <asm/unwind.h>: ARCH_FRAME_LAYOUT, the arch's struct frame_layout,
 * and ARCH_RETURN_TO_CALL, the bytes from a return address back into
 * the call instruction it returns from.
 */
#include <asm/unwind.h>

/* One step up this arch's chain; see unwind_frame(). */
static inline bool stack_prev_frame(struct stack_frame *frame,
				    unsigned long low, unsigned long high)
{
	static const struct frame_layout layout = ARCH_FRAME_LAYOUT;

	return unwind_frame(&layout, frame, low, high);
}

/*
 * The address that names the call site of frame->pc, a return address:
 * inside the call instruction. The return address itself may already be
 * in the next function when the call was the last instruction of its
 * function (a call to a noreturn function).
 */
static inline unsigned long stack_call_address(const struct stack_frame *frame)
{
	return frame->pc - ARCH_RETURN_TO_CALL;
}

/*
 * The stack holding addr: [*low, *high). Knows the boot stack; false for
 * an address on no known stack.
 */
bool stack_bounds_of(unsigned long addr, unsigned long *low,
		     unsigned long *high);
/* The stack the caller runs on. */
bool stack_bounds_of_current(unsigned long *low, unsigned long *high);

/*
 * Fills entries with the call sites of the current call chain: entry 0
 * is in the function that called save_stack_trace, entry 1 in its
 * caller, and so on, after dropping the first `skip`. Returns how many
 * were stored (at most max). The addresses name the call instructions
 * (see stack_call_address()), ready for %pS.
 */
unsigned int save_stack_trace(unsigned long *entries, unsigned int max,
			      unsigned int skip);

/*
 * The same from any point of any stack: entry 0 is pc itself (a trapped
 * or saved pc, printed as is), then the call sites of the chain that
 * starts at fp, inside [low, high).
 */
unsigned int save_stack_trace_from(unsigned long pc, unsigned long fp,
				   unsigned long low, unsigned long high,
				   unsigned long *entries, unsigned int max);

/* Prints one "  [<address>] name+0x../0x.." line per entry. */
void print_stack_trace(const unsigned long *entries, unsigned int count);

/* Prints "Call trace:" and the chain of the caller of dump_stack(). */
void dump_stack(void);

/*
 * Prints "Call trace:" and the chain that starts at a trapped (pc, fp),
 * for exception handlers; the stack is the one holding fp.
 */
void show_backtrace_from(unsigned long pc, unsigned long fp);

#endif
