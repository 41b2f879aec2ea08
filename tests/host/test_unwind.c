/*
 * Host tests of both arch unwinders on synthetic stacks: the generic
 * walker of <kernel/stacktrace.h> with the real <asm/unwind.h> layouts
 * of i386 and of ARM, taken here one after the other, walking frame
 * records laid out by hand in an array of host words.
 */
#include <kernel/stacktrace.h>
#include <kernel/string.h>

#undef ASM_UNWIND_H
#undef ARCH_FRAME_LAYOUT
#undef ARCH_RETURN_TO_CALL
#include "../../arch/i386/include/asm/unwind.h"
static const struct frame_layout i386_layout = ARCH_FRAME_LAYOUT;
static const unsigned long i386_return_to_call = ARCH_RETURN_TO_CALL;

#undef ASM_UNWIND_H
#undef ARCH_FRAME_LAYOUT
#undef ARCH_RETURN_TO_CALL
#include "../../arch/arm/include/asm/unwind.h"
static const struct frame_layout arm_layout = ARCH_FRAME_LAYOUT;
static const unsigned long arm_return_to_call = ARCH_RETURN_TO_CALL;

static bool i386_prev_frame(struct stack_frame *f, unsigned long low,
			    unsigned long high)
{
	return unwind_frame(&i386_layout, f, low, high);
}

static bool arm_prev_frame(struct stack_frame *f, unsigned long low,
			   unsigned long high)
{
	return unwind_frame(&arm_layout, f, low, high);
}

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#define STACK_WORDS 64
#define MAX_STEPS 16

/* One arch: its unwinder and, independently, where its records go. */
struct arch {
	const char *name;
	bool (*prev)(struct stack_frame *, unsigned long, unsigned long);
	int saved_fp, ret;	/* word indexes from fp, per the docs */
	int below, above;	/* record words below fp, and fp's word on */
};

static const struct arch arches[] = {
	{ "i386", i386_prev_frame, 0, 1, 0, 2 },
	{ "arm", arm_prev_frame, -3, -1, 3, 1 },
};

static unsigned long stack[STACK_WORDS];

/* The address of stack[index], also for indexes outside the array. */
static unsigned long addr_of(int index)
{
	return (unsigned long)stack + index * (long)sizeof(stack[0]);
}

/* Writes the record whose frame pointer is &stack[at]. */
static void put_record(const struct arch *a, int at, unsigned long caller_fp,
		       unsigned long ret)
{
	stack[at + a->saved_fp] = caller_fp;
	stack[at + a->ret] = ret;
}

/* Walks from fp over the whole array; returns the steps, pcs in pcs. */
static int walk(const struct arch *a, unsigned long fp, unsigned long *pcs)
{
	struct stack_frame f = { .fp = fp, .pc = 0 };
	int n = 0;

	while (n < MAX_STEPS &&
	       a->prev(&f, addr_of(0), addr_of(STACK_WORDS)))
		pcs[n++] = f.pc;
	return n;
}

static void clear_stack(void)
{
	memset(stack, 0x5a, sizeof(stack));
}

/* frames at 10 -> 20 -> 30 -> (fp 0) */
static void test_good_chain(void **state)
{
	unsigned long pcs[MAX_STEPS];

	(void)state;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		const struct arch *a = &arches[i];

		clear_stack();
		put_record(a, 10, addr_of(20), 0x1111);
		put_record(a, 20, addr_of(30), 0x2222);
		put_record(a, 30, 0, 0x3333);
		assert_int_equal(walk(a, addr_of(10), pcs), 3);
		assert_int_equal(pcs[0], 0x1111);
		assert_int_equal(pcs[1], 0x2222);
		assert_int_equal(pcs[2], 0x3333);
	}
}

/* A step that succeeds leaves fp at the caller's, pc at the return. */
static void test_one_step_updates_frame(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		const struct arch *a = &arches[i];
		struct stack_frame f = { .fp = addr_of(10), .pc = 0x99 };

		clear_stack();
		put_record(a, 10, addr_of(40), 0x1234);
		assert_true(a->prev(&f, addr_of(0), addr_of(STACK_WORDS)));
		assert_int_equal(f.fp, addr_of(40));
		assert_int_equal(f.pc, 0x1234);
	}
}

/* 10 -> 20 -> back to 10, and a record pointing at itself. */
static void test_loop_stops(void **state)
{
	unsigned long pcs[MAX_STEPS];

	(void)state;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		const struct arch *a = &arches[i];

		clear_stack();
		put_record(a, 10, addr_of(20), 0x1111);
		put_record(a, 20, addr_of(10), 0x2222);
		assert_int_equal(walk(a, addr_of(10), pcs), 1);
		assert_int_equal(pcs[0], 0x1111);
		put_record(a, 30, addr_of(30), 0x3333);
		assert_int_equal(walk(a, addr_of(30), pcs), 0);
	}
}

/* A saved fp past the top, below the bottom, or a record astride an end. */
static void test_leaving_bounds_stops(void **state)
{
	unsigned long pcs[MAX_STEPS];
	struct stack_frame f;

	(void)state;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		const struct arch *a = &arches[i];

		clear_stack();
		put_record(a, 10, addr_of(20), 0x1111);
		put_record(a, 20, addr_of(STACK_WORDS + 8), 0x2222);
		assert_int_equal(walk(a, addr_of(10), pcs), 2);
		/* Its record would end one word past the top (never read). */
		put_record(a, 20, addr_of(STACK_WORDS - a->above + 1), 0x2222);
		assert_int_equal(walk(a, addr_of(10), pcs), 2);
		/* The last record that fits exactly is still walked. */
		put_record(a, 20, addr_of(STACK_WORDS - a->above), 0x2222);
		put_record(a, STACK_WORDS - a->above, 0, 0x4444);
		assert_int_equal(walk(a, addr_of(10), pcs), 3);
		assert_int_equal(pcs[2], 0x4444);
		/* A record starting below the bottom of the stack. */
		f = (struct stack_frame){ .fp = addr_of(a->below - 1) };
		assert_false(a->prev(&f, addr_of(0), addr_of(STACK_WORDS)));
		f = (struct stack_frame){ .fp = addr_of(a->below) };
		put_record(a, a->below, 0, 0x5555);
		assert_true(a->prev(&f, addr_of(0), addr_of(STACK_WORDS)));
		/* A frame pointer entirely outside. */
		f = (struct stack_frame){ .fp = addr_of(0) - 64 };
		assert_false(a->prev(&f, addr_of(0), addr_of(STACK_WORDS)));
	}
}

static void test_misaligned_stops(void **state)
{
	unsigned long pcs[MAX_STEPS];

	(void)state;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		const struct arch *a = &arches[i];

		clear_stack();
		put_record(a, 10, addr_of(20) + 2, 0x1111);
		put_record(a, 20, 0, 0x2222);
		assert_int_equal(walk(a, addr_of(10), pcs), 1);
		assert_int_equal(walk(a, addr_of(10) + 1, pcs), 0);
	}
}

/* fp 0 ends the chain after its frame; a return address 0 before. */
static void test_zero_ends(void **state)
{
	unsigned long pcs[MAX_STEPS];
	struct stack_frame f = { .fp = 0, .pc = 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		const struct arch *a = &arches[i];

		clear_stack();
		put_record(a, 10, 0, 0x1111);
		assert_int_equal(walk(a, addr_of(10), pcs), 1);
		put_record(a, 10, addr_of(20), 0);
		put_record(a, 20, 0, 0x2222);
		assert_int_equal(walk(a, addr_of(10), pcs), 0);
		assert_false(a->prev(&f, addr_of(0), addr_of(STACK_WORDS)));
		/* Even when the stack itself starts at address 0. */
		assert_false(a->prev(&f, 0, addr_of(STACK_WORDS)));
	}
}

static void test_call_address(void **state)
{
	struct stack_frame f = { .fp = 0, .pc = 0x1000 };

	(void)state;
	/* x86: inside the call before; ARM: the bl, 4 bytes before. */
	assert_int_equal(f.pc - i386_return_to_call, 0xfff);
	assert_int_equal(f.pc - arm_return_to_call, 0xffc);
	/* The generic step, with the host's layout (one byte, as x86). */
	assert_int_equal(stack_call_address(&f), 0xfff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_chain),
		cmocka_unit_test(test_one_step_updates_frame),
		cmocka_unit_test(test_loop_stops),
		cmocka_unit_test(test_leaving_bounds_stops),
		cmocka_unit_test(test_misaligned_stops),
		cmocka_unit_test(test_zero_ends),
		cmocka_unit_test(test_call_address),
	};

	return cmocka_run_group_tests_name("unwind", tests, NULL, NULL);
}
