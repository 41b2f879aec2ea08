/*
 * A saved call chain, for the leak collector's allocation hook: it keeps
 * the frame records one walk read, so that instead of walking the stack
 * on every allocation it can check that they still hold the same words
 * (chain_unchanged() in mm/kmemleak/log.c).
 */
#ifndef KERNEL_STACKCHAIN_H
#define KERNEL_STACKCHAIN_H

#include <kernel/compiler.h>
#include <kernel/stacktrace.h>

/*
 * One frame record of a saved chain, as save_stack_chain() read it:
 * where it was (a frame pointer) and the return address it held. Kept
 * side by side, as the hook that re-checks a chain reads them.
 */
struct chain_record {
	unsigned long fp;
	unsigned long ret;
};

/*
 * Walks the chain from the frame record at fp, a live frame of the
 * caller's (__builtin_frame_address(0) of a function that is not
 * inlined), as save_stack_trace() does, but keeps what it read as it was
 * in the records: chain[i].ret the return address in record i
 * (chain[0].ret goes back into the caller of fp's function;
 * stack_chain_call_site() turns one into the call site a trace names)
 * and chain[i].fp where record i was (chain[0].fp = fp, then the frame
 * pointer saved in the record before). Returns how many it stored.
 */
unsigned int save_stack_chain(unsigned long fp, struct chain_record *chain,
			      unsigned int max);

/* The call site (as in save_stack_trace()'s entries) of a saved return. */
static inline unsigned long stack_chain_call_site(unsigned long ret)
{
	const struct stack_frame frame = { .pc = ret };

	return stack_call_address(&frame);
}

#endif
