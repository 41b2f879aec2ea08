/*
 * Backtraces of the running kernel: which stack an address is on,
 * save_stack_trace() for the leak collector, dump_stack() for panic,
 * show_backtrace_from() for exception handlers, and the 'bt' command.
 * The walking itself is unwind_frame() with the arch's record layout.
 */
#include <kernel/stacktrace.h>
#include <kernel/thread.h>
#include <kernel/kallsyms.h>
#include <kernel/initcall.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <asm/unwind.h>

/* Frames dump_stack() and show_backtrace_from() print at most. */
#define PRINT_DEPTH 32

/* The stack of boot/<arch>/: the boot CPU runs on it until threads exist. */
extern char boot_stack[], boot_stack_top[];

bool stack_bounds_of(unsigned long addr, unsigned long *low,
		     unsigned long *high)
{
	unsigned long lo = (unsigned long)boot_stack;
	unsigned long hi = (unsigned long)boot_stack_top;

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

/* Stores the call sites above frame, after dropping skip of them. */
static unsigned int walk(struct stack_frame frame, unsigned long low,
			 unsigned long high, unsigned long *entries,
			 unsigned int max, unsigned int skip)
{
	unsigned int n = 0;

	while (n < max && arch_prev_frame(&frame, low, high)) {
		if (skip) {
			skip--;
			continue;
		}
		entries[n++] = arch_call_address(&frame);
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
	return walk(frame, low, high, entries, max, skip);
}

unsigned int save_stack_trace_from(unsigned long pc, unsigned long fp,
				   unsigned long low, unsigned long high,
				   unsigned long *entries, unsigned int max)
{
	struct stack_frame frame = { .fp = fp, .pc = pc };

	if (max == 0)
		return 0;
	entries[0] = pc;
	return 1 + walk(frame, low, high, entries + 1, max - 1, 0);
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
