/*
 * A saved call chain and its cheap re-check, for the leak collector's
 * allocation hook: instead of walking the stack on every allocation, it
 * checks that the frame records one walk read still hold the same words.
 */
#ifndef KERNEL_STACKCHAIN_H
#define KERNEL_STACKCHAIN_H

#include <kernel/compiler.h>
#include <kernel/stacktrace.h>

/*
 * Walks the chain from the frame record at fp, a live frame of the
 * caller's (__builtin_frame_address(0) of a function that is not
 * inlined), as save_stack_trace() does, but keeps what it read as it was
 * in the records: rets[i] the return address in record i (rets[0] goes
 * back into the caller of fp's function; stack_chain_call_site() turns
 * one into the call site a trace names) and fps[i] where record i was
 * (fps[0] = fp, then the frame pointer saved in the record before).
 * Returns how many of each it stored.
 */
unsigned int save_stack_chain(unsigned long fp, unsigned long *rets,
			      unsigned long *fps, unsigned int max);

/* The call site (as in save_stack_trace()'s entries) of a saved return. */
static inline unsigned long stack_chain_call_site(unsigned long ret)
{
	const struct stack_frame frame = { .pc = ret };

	return stack_call_address(&frame);
}

/*
 * True when the n records that save_stack_chain() read (it returned n,
 * all it was asked for) still hold the same words: then a walk from
 * fps[0] gives rets[] again. Record i must still hold return address
 * rets[i] and, but for the last, still lead to record i + 1 at
 * fps[i + 1]. No bounds are checked: the records were inside the stack
 * when they were saved, and where the words are the same the next record
 * is the same one; call it only with fps[0] a live frame of the caller's
 * stack. Inline and unrolled for a constant n: the collector runs it on
 * every allocation, where a call and a loop cost a third of the check.
 */
static __always_inline bool stack_chain_unchanged(const unsigned long *rets,
						  const unsigned long *fps,
						  unsigned int n)
{
	static const struct frame_layout layout = ARCH_FRAME_LAYOUT;
	const unsigned long *words = (const unsigned long *)fps[0];

#pragma GCC unroll 16
	for (unsigned int i = 0; i < n; i++) {
		unsigned long caller_fp;

		if (words[layout.return_address] != rets[i])
			return false;
		if (i + 1 == n)
			break;
		caller_fp = words[layout.saved_fp];
		if (caller_fp != fps[i + 1])
			return false;
		words = (const unsigned long *)caller_fp;
	}
	return true;
}

#endif
