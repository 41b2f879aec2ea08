/*
 * Backtraces on the host (<kernel/stacktrace.h>): the host program's
 * frames are not laid out for our frame walker (libc has no frame
 * pointers), so glibc's unwinder finds the return addresses, which are
 * turned into call-site addresses as the kernel's walker does.
 */
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/stacktrace.h>
#include <kernel/stackchain.h>

#include <execinfo.h>

#define HOST_MAX_FRAMES 64

unsigned int save_stack_trace(unsigned long *entries, unsigned int max,
			      unsigned int skip)
{
	void *frames[HOST_MAX_FRAMES];
	unsigned int n, i, count = 0;

	/* frames[0] is in this function: the caller's call site is next. */
	n = (unsigned int)backtrace(frames, HOST_MAX_FRAMES);
	for (i = skip + 1; i < n && count < max; i++)
		entries[count++] = (unsigned long)frames[i] - 1;
	return count;
}

/*
 * glibc cannot start at a given frame, but our host code keeps frame
 * pointers: the return address in fp's record (x86-64: the word above
 * the saved frame pointer) is found among glibc's frames, and the trace
 * starts there. chain[0].fp is set to 0, no frame pointer: the chain
 * cannot be re-checked (the hook would read glibc's frames), so the
 * collector walks every time.
 */
unsigned int save_stack_chain(unsigned long fp, struct chain_record *chain,
			      unsigned int max)
{
	void *frames[HOST_MAX_FRAMES];
	unsigned long ret = ((const unsigned long *)fp)[1];
	unsigned int n, i, count = 0;

	n = (unsigned int)backtrace(frames, HOST_MAX_FRAMES);
	for (i = 0; i < n && (unsigned long)frames[i] != ret; i++)
		;
	for (; i < n && count < max; i++)
		chain[count++].ret = (unsigned long)frames[i];
	chain[0].fp = 0;
	return count;
}

void print_stack_trace(const unsigned long *entries, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++)
		printk("  [<%016lx>] %pS\n", entries[i], (void *)entries[i]);
}

void dump_stack(void)
{
	unsigned long entries[16];
	unsigned int n = save_stack_trace(entries, ARRAY_SIZE(entries), 1);

	printk("Call trace:\n");
	print_stack_trace(entries, n);
}
