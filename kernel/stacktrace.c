/*
 * Backtraces of the running kernel: which stack an address is on,
 * save_stack_chain() for the leak collector, dump_stack() for panic,
 * show_backtrace_from() for exception handlers, and the 'bt' command.
 * The walking follows unwind_frame()'s rules with the arch's record
 * layout (<asm/unwind.h>), in the fewer instructions of walk().
 */
#include <kernel/stacktrace.h>
#include <kernel/stackchain.h>
#include <kernel/sched.h>
#include <kernel/thread.h>
#include <kernel/kallsyms.h>
#include <kernel/initcall.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/shell.h>

/* Frames dump_stack() and show_backtrace_from() print at most. */
#define PRINT_DEPTH 32

/* The stack of boot/<arch>/: the boot CPU runs on it until threads exist. */
extern char boot_stack[], boot_stack_top[];

/* Most often asked: the running thread's own stack, found without a search. */
static inline bool on_current_stack(unsigned long addr, unsigned long *low,
				    unsigned long *high)
{
	const struct thread *self = current;

	if (!self || !self->stack ||
	    addr - (unsigned long)self->stack >= self->stack_size)
		return false;
	*low = (unsigned long)self->stack;
	*high = *low + self->stack_size;
	return true;
}

bool stack_bounds_of(unsigned long addr, unsigned long *low,
		     unsigned long *high)
{
	unsigned long lo = (unsigned long)boot_stack;
	unsigned long hi = (unsigned long)boot_stack_top;

	if (on_current_stack(addr, low, high))
		return true;
	if (addr >= lo && addr < hi) {
		*low = lo;
		*high = hi;
		return true;
	}
	/* Thread stacks (and later the other CPUs' boot stacks). */
	return thread_stack_bounds(addr, low, high);
}

bool stack_bounds_of_current(unsigned long *low, unsigned long *high)
{
	return stack_bounds_of((unsigned long)__builtin_frame_address(0), low,
			       high);
}

/*
 * Stores the call sites above the frame at fp in entries[] or, for a
 * chain, each record as it was (where it was and its return address) in
 * chain[]. What repeated stack_prev_frame() steps give, in fewer
 * instructions, as the leak collector walks on allocations. The bounds
 * of a record become one compare per frame: [low, high) is
 * word-aligned, so the record at fp lies inside it exactly when fp is
 * in [lo, top] (both layouts have words above fp, so fp < high
 * follows), and each record must lie strictly higher than the one
 * before, so once the first is inside, only top is left to check.
 */
static __always_inline unsigned int
walk(unsigned long fp, unsigned long low, unsigned long high,
     unsigned long *entries, struct chain_record *chain, unsigned int max,
     bool as_chain)
{
	static const struct frame_layout layout = ARCH_FRAME_LAYOUT;
	const unsigned long word = sizeof(unsigned long);
	const unsigned long record = (layout.below + layout.above) * word;
	unsigned long lo = low + layout.below * word, top;
	unsigned int n = 0;

	/* lo above 0, for any real stack: a frame pointer of 0 is outside. */
	if (high - low < record || lo == 0)
		return 0;
	top = high - layout.above * word;
	if (fp - lo > top - lo || fp % word)
		return 0;
	while (n < max) {
		const unsigned long *words = (const unsigned long *)fp;
		struct stack_frame caller = {
			.pc = words[layout.return_address],
			.fp = words[layout.saved_fp],
		};

		/* 0 ends the chain; anything else must lie strictly higher. */
		if (caller.pc == 0 || caller.fp - 1 < fp)
			break;
		if (as_chain)
			chain[n] = (struct chain_record){ fp, caller.pc };
		else
			entries[n] = stack_call_address(&caller);
		n++;
		/* Above fp, so inside unless past top (or 0, which wraps). */
		if (caller.fp - 1 >= top || caller.fp % word)
			break;
		fp = caller.fp;
	}
	return n;
}

/*
 * Not inlined: the walk starts at this function's own frame record,
 * whose return address is the call site in the caller.
 */
__noinline unsigned int save_stack_trace(unsigned long *entries,
					 unsigned int max, unsigned int skip)
{
	struct stack_frame frame = {
		.fp = (unsigned long)__builtin_frame_address(0),
	};
	unsigned long low, high;

	if (!stack_bounds_of(frame.fp, &low, &high))
		return 0;
	while (skip && stack_prev_frame(&frame, low, high))
		skip--;
	return skip ? 0 : walk(frame.fp, low, high, entries, NULL, max, false);
}

unsigned int save_stack_chain(unsigned long fp, struct chain_record *chain,
			      unsigned int max)
{
	unsigned long low, high;

	/* The common case inline: stack_bounds_of() is a call (~25 more). */
	if (!on_current_stack(fp, &low, &high) &&
	    !stack_bounds_of(fp, &low, &high))
		return 0;
	return walk(fp, low, high, NULL, chain, max, true);
}

unsigned int save_stack_trace_from(unsigned long pc, unsigned long fp,
				   unsigned long low, unsigned long high,
				   unsigned long *entries, unsigned int max)
{
	if (max == 0)
		return 0;
	entries[0] = pc;
	return 1 + walk(fp, low, high, entries + 1, NULL, max - 1, false);
}

void print_stack_trace(const unsigned long *entries, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++)
		printk("  [<%08lx>] %pS\n", entries[i], (void *)entries[i]);
}

/* Prints count entries of a trace saved into PRINT_DEPTH + 1 slots. */
static void print_trace(const unsigned long *entries, unsigned int count)
{
	printk("Call trace:\n");
	print_stack_trace(entries, min(count, (unsigned int)PRINT_DEPTH));
	if (count > PRINT_DEPTH)
		printk("  ... (more than %d frames)\n", PRINT_DEPTH);
}

__noinline void dump_stack(void)
{
	unsigned long entries[PRINT_DEPTH + 1], low, high;
	/* Skip the call site in dump_stack itself: start at its caller. */
	unsigned int n = save_stack_trace(entries, ARRAY_SIZE(entries), 1);

	print_trace(entries, n);
	if (n == 0 && !stack_bounds_of_current(&low, &high))
		printk("  (not running on a known stack)\n");
	else if (n == 0)
		printk("  (no frame record where one was expected)\n");
}

void show_backtrace_from(unsigned long pc, unsigned long fp)
{
	unsigned long entries[PRINT_DEPTH + 1], low, high;
	unsigned int n;

	if (!stack_bounds_of(fp, &low, &high)) {
		print_trace(&pc, 1);
		printk("  (frame pointer %08lx is on no known stack)\n", fp);
		return;
	}
	n = save_stack_trace_from(pc, fp, low, high, entries,
				  ARRAY_SIZE(entries));
	print_trace(entries, n);
}

/*
 * A corrupt table would only give wrong names, but say so once at boot
 * rather than let anyone trust them.
 */
static int kallsyms_boot_check(void)
{
	struct kallsyms_table t;
	const char *err = kallsyms_builtin(&t);

	if (!err)
		err = kallsyms_table_check(&t);
	if (err) {
		printk("kallsyms: kernel symbol table unusable (%s)\n", err);
		return -1;
	}
	return 0;
}
early_initcall(kallsyms_boot_check);

static int cmd_bt(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		printk("usage: bt\n");
		return 1;
	}
	dump_stack();
	return 0;
}
SHELL_COMMAND("bt", cmd_bt, "bt",
	      "print the call trace of the shell (frame pointers, kallsyms)");
