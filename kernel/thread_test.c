/* Self-tests of kernel threads: exit codes, join, stacks and their memory. */
#include <kernel/memleak.h>
#include <kernel/ktest.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/sched.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/thread.h>
#include <kernel/time.h>

#define NR_BATCH 8
/* Polls of 10 ms before a detached thread must be gone. */
#define REAP_POLLS 100

static int return_arg(void *arg)
{
	return (int)(long)arg;
}

static int exit_early(void *arg)
{
	(void)arg;
	kthread_exit(7);
}

static void test_exit_codes(struct ktest *t)
{
	struct thread *a = kthread_run(return_arg, (void *)1234L, "kt-ret");
	struct thread *b = kthread_run(exit_early, NULL, "kt-exit");
	int code = 0;

	KEXPECT(t, a && b);
	if (!a || !b)
		return;
	KEXPECT_EQ(t, kthread_join(a, &code), 0);
	KEXPECT_EQ(t, code, 1234);
	KEXPECT_EQ(t, kthread_join(b, &code), 0);
	KEXPECT_EQ(t, code, 7);
}

static void test_join_errors(struct ktest *t)
{
	struct thread *n = kthread_create(return_arg, NULL, "kt-never");

	KEXPECT_EQ(t, kthread_join(current, NULL), -EINVAL);
	KEXPECT(t, n != NULL);
	if (!n)
		return;
	KEXPECT_EQ(t, kthread_join(n, NULL), -EINVAL);	/* not started */
	kthread_start(n);
	KEXPECT_EQ(t, kthread_join(n, NULL), 0);
}

/*
 * Free pages once every CPU has handed its cached slab objects back
 * (slab_shrink_all() empties every CPU's arrays): threads allocate on
 * one CPU and are freed on another, so objects drift between the CPUs'
 * caches, and the pages under them with them.
 */
static unsigned long free_pages_settled(void)
{
	slab_shrink_all();
	return memleak_nr_free_pages();
}

/* Runs a batch of threads, joins them; true if all went well. */
static bool run_batch(void)
{
	struct thread *ts[NR_BATCH];
	bool ok = true;

	for (int i = 0; i < NR_BATCH; i++)
		ts[i] = kthread_run(return_arg, (void *)(long)i, "kt-batch");
	for (int i = 0; i < NR_BATCH; i++) {
		int code = -1;

		ok &= ts[i] && kthread_join(ts[i], &code) == 0 && code == i;
	}
	return ok;
}

static void test_exit_frees_stack(struct ktest *t)
{
	unsigned long free0, threads0;

	KEXPECT(t, run_batch());	/* warm up the thread cache */
	free0 = free_pages_settled();
	threads0 = nr_threads();
	for (int round = 0; round < 4; round++)
		KEXPECT(t, run_batch());
	KEXPECT_EQ(t, free_pages_settled(), free0);
	KEXPECT_EQ(t, nr_threads(), threads0);
}

static void test_detached_thread_is_freed(struct ktest *t)
{
	unsigned long free0, threads0;
	struct thread *d;
	int polls = 0;

	KEXPECT(t, run_batch());
	free0 = free_pages_settled();
	threads0 = nr_threads();
	d = kthread_create(return_arg, NULL, "kt-detach");
	KEXPECT(t, d != NULL);
	if (!d)
		return;
	KEXPECT_EQ(t, nr_threads(), threads0 + 1);
	KEXPECT(t, memleak_nr_free_pages() < free0);
	kthread_detach(d);
	kthread_start(d);
	while (nr_threads() != threads0 && polls++ < REAP_POLLS)
		msleep(10);
	KEXPECT_EQ(t, nr_threads(), threads0);
	KEXPECT_EQ(t, free_pages_settled(), free0);
}

static int use_stack(void *arg)
{
	volatile char buf[2048];

	memset((char *)buf, 1, sizeof(buf));
	(void)arg;
	return (int)thread_stack_used(current);
}

static void test_stack_high_water_mark(struct ktest *t)
{
	struct thread *th = kthread_run(use_stack, NULL, "kt-stack");
	int used = 0;

	KEXPECT(t, th != NULL);
	if (!th)
		return;
	KEXPECT_EQ(t, th->stack_size, THREAD_STACK_SIZE);
	KEXPECT_EQ(t, kthread_join(th, &used), 0);
	KEXPECT(t, used >= 2048 && used < THREAD_STACK_SIZE);
	KEXPECT(t, thread_stack_used(current) > 0);
	KEXPECT(t, thread_stack_used(current) <= current->stack_size);
}

/*
 * task_wipe_dead_stack(), in a thread of its own (a fresh stack):
 * marks left in a returned frame are gone after it, but for the wipe's
 * own frame at the top, and the stack's high-water mark has not moved.
 */
#define STALE_MARK 0x5a1e5a1eUL
#define NR_MARKS 768
/* The wipe's own frame, at the top of the marks: no function wipes its own. */
#define WIPER_FRAME_WORDS 32

static unsigned long marks_low;

/*
 * Leaves NR_MARKS copies of STALE_MARK in its frame, dead once it
 * returns; calls nothing, so its array is the deepest the stack goes.
 */
static void __noinline leave_marks(void)
{
	volatile unsigned long area[NR_MARKS];

	for (unsigned int i = 0; i < NR_MARKS; i++)
		area[i] = STALE_MARK;
	marks_low = (unsigned long)area;
}

/*
 * The marks still there among words [from, to) of the array (0: its
 * lowest address). Inline: a frame of its own would lie on the marks.
 */
static __always_inline unsigned int marks_left(unsigned int from,
					       unsigned int to)
{
	const volatile unsigned long *p = (const unsigned long *)marks_low;
	unsigned int left = 0;

	for (unsigned int i = from; i < to; i++)
		left += p[i] == STALE_MARK;
	return left;
}

struct wipe_result {
	unsigned int marks_before, marks_after;
	size_t used_before, used_after;
};

static int wipe_in_thread(void *arg)
{
	struct wipe_result *r = arg;

	leave_marks();
	r->marks_before = marks_left(0, NR_MARKS);
	r->used_before = thread_stack_used(current);
	task_wipe_dead_stack();
	r->marks_after = marks_left(0, NR_MARKS - WIPER_FRAME_WORDS);
	r->used_after = thread_stack_used(current);
	return 0;
}

static void test_wipe_dead_stack(struct ktest *t)
{
	struct wipe_result r = { 0 };
	struct thread *th = kthread_run(wipe_in_thread, &r, "kt-wipe");

	KEXPECT(t, th != NULL);
	if (!th)
		return;
	KEXPECT_EQ(t, kthread_join(th, NULL), 0);
	KEXPECT_EQ(t, r.marks_before, NR_MARKS);
	KEXPECT_EQ(t, r.marks_after, 0);
	KEXPECT_EQ(t, r.used_after, r.used_before);
}

static bool in_stack(const struct thread *th, unsigned long addr)
{
	unsigned long low = (unsigned long)th->stack;

	return addr >= low && addr < low + th->stack_size;
}

static void test_saved_frame(struct ktest *t)
{
	struct thread *th = kthread_create(return_arg, NULL, "kt-frame");
	unsigned long pc = 0, fp = 1, sp = 0;

	KEXPECT(t, !thread_saved_frame(current, &pc, &fp, &sp));
	KEXPECT(t, th != NULL);
	if (!th)
		return;
	/* Never ran: its entry point, and a frame chain that ends at once. */
	KEXPECT(t, thread_saved_frame(th, &pc, &fp, &sp));
	KEXPECT_EQ(t, pc, (unsigned long)arch_thread_start);
	KEXPECT_EQ(t, fp, 0);
	KEXPECT(t, in_stack(th, sp - 1));
	kthread_start(th);
	KEXPECT_EQ(t, kthread_join(th, NULL), 0);
}

static void test_identity(struct ktest *t)
{
	char comm[THREAD_NAME_LEN];
	unsigned long flags;
	struct thread *th;
	bool found = false;
	int pid = -1;

	task_current_identity(comm, sizeof(comm), &pid);
	KEXPECT(t, strcmp(comm, current->name) == 0);
	KEXPECT_EQ(t, pid, current->pid);
	flags = thread_list_lock();
	for_each_thread(th)
		found |= th == current;
	thread_list_unlock(flags);
	KEXPECT(t, found);
}

static const struct ktest_case thread_cases[] = {
	KTEST_CASE(test_exit_codes),
	KTEST_CASE(test_join_errors),
	KTEST_CASE(test_exit_frees_stack),
	KTEST_CASE(test_detached_thread_is_freed),
	KTEST_CASE(test_stack_high_water_mark),
	KTEST_CASE(test_wipe_dead_stack),
	KTEST_CASE(test_saved_frame),
	KTEST_CASE(test_identity),
	{ 0 },
};
KTEST_SUITE("thread", thread_cases);
