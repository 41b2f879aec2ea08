/*
 * Kernel threads: creation, exit and join, their stacks, the list of
 * every thread, the reaper that frees the stacks of dead threads, the
 * 'ps' command and the leak collector's view (<kernel/task.h>).
 *
 * A thread cannot free the stack it runs on, so a dying thread only
 * marks itself dead and switches away; the scheduler hands it to the
 * reaper thread, which frees the stack and, for a detached thread, the
 * struct thread too (a joined one is freed by kthread_join()).
 *
 * Lock order: thread_list_lock and reap_lock are never held together;
 * under either, only a run queue's lock (through wake_up()) is taken.
 */
#include <kernel/thread.h>
#include <kernel/errno.h>
#include <kernel/initcall.h>
#include <kernel/irq.h>
#include <kernel/memleak.h>
#include <kernel/memleak_type.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/shell.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include "sched_internal.h"

/*
 * What the leak collector reads of a thread (<kernel/memleak_type.h>):
 * its saved stack pointer, stack, argument and wait entry may point to
 * blocks; fn is code; the two list nodes link threads only.
 */
MEMLEAK_TYPE(thread,
	     MEMLEAK_ANY(ctx),
	     MEMLEAK_DATA_TO(pid, slice),
	     MEMLEAK_ANY(stack),
	     MEMLEAK_DATA_TO(stack_size, fn),
	     MEMLEAK_ANY(arg),
	     MEMLEAK_DATA_TO(exit_code, switches),
	     MEMLEAK_LIST(run_node, thread, run_node),
	     MEMLEAK_LIST(all_node, thread, all_node),
	     MEMLEAK_ANY(wait));

extern char boot_stack[], boot_stack_top[];

/* Left unfilled below the boot thread's stack pointer when it is painted. */
#define BOOT_STACK_MARGIN 256

/* Holds the boot thread from the start (see below). */
struct list_head thread_list = { &boot_thread.all_node, &boot_thread.all_node };
static DEFINE_SPINLOCK(thread_list_spinlock);

/*
 * The boot thread exists from the first instruction: it is in the list
 * and is CPU 0's current thread before the scheduler starts.
 */
struct thread boot_thread = {
	.pid = 1,
	.name = "shell",
	.state = THREAD_RUNNING,
	.flags = THREAD_BOOT,
	.stack = boot_stack,
	.run_node = LIST_HEAD_INIT(boot_thread.run_node),
	.all_node = { &thread_list, &thread_list },
};

static struct kmem_cache *thread_cache;
static int next_pid = 2;

static DEFINE_SPINLOCK(reap_lock);
static LIST_HEAD(reap_list);
static DEFINE_WAIT_QUEUE(reap_wq);	/* the reaper waits for work */
static DEFINE_WAIT_QUEUE(exit_wq);	/* joiners wait for reaped threads */

unsigned long thread_list_lock(void)
{
	return spin_lock_irqsave(&thread_list_spinlock);
}

void thread_list_unlock(unsigned long flags)
{
	spin_unlock_irqrestore(&thread_list_spinlock, flags);
}

unsigned int nr_threads(void)
{
	unsigned long flags = thread_list_lock();
	unsigned int n = 0;
	struct thread *t;

	for_each_thread(t)
		n++;
	thread_list_unlock(flags);
	return n;
}

/*
 * The one place thread stacks come from, so the leak collector sees
 * every stack allocated and freed here and nowhere else.
 */
void *alloc_thread_info(void)
{
	struct page *page = alloc_pages(GFP_KERNEL,
					get_order(THREAD_STACK_SIZE));
	void *stack;

	if (!page)
		return NULL;
	stack = page_address(page);
	memleak_alloc(stack, THREAD_STACK_SIZE, 1);
	/* Reached only through its struct thread; its live part is a root. */
	memleak_ignore(stack);
	return stack;
}

void free_thread_info(void *stack)
{
	if (!stack)
		return;
	memleak_free(stack);
	free_pages((unsigned long)stack, get_order(THREAD_STACK_SIZE));
}

/* Fills [low, high) with the pattern and marks the bottom word. */
static void paint_stack(void *low, void *high)
{
	u32 *p = low;

	*p++ = STACK_END_MAGIC;
	while ((void *)p < high)
		*p++ = STACK_FILL;
}

size_t thread_stack_used(const struct thread *t)
{
	const u32 *p, *end;

	if (!t->stack)
		return 0;
	p = (const u32 *)t->stack + 1;
	end = (const u32 *)((const char *)t->stack + t->stack_size);
	while (p < end && *p == STACK_FILL)
		p++;
	return max(t->stack_deepest,
		   (size_t)((const char *)end - (const char *)p));
}

/*
 * The wipe never goes this close to the bottom of a stack: an interrupt
 * taken meanwhile lands below it, and must still find room there.
 */
#define WIPE_BOTTOM_GAP 1024

/*
 * The dead part is claimed with alloca() and repainted: one contiguous
 * block below this frame, holes and padding of old frames included
 * (arrays in frames of their own would skip the words between them).
 * Repainted, not zeroed, so that the paint still tells how deep the
 * stack goes from now on; how deep it went before is kept in the thread.
 */
void __noinline task_wipe_dead_stack(void)
{
	struct thread *t = current;
	unsigned long here = (unsigned long)__builtin_frame_address(0);
	unsigned long low, floor;
	volatile u32 *dead;
	size_t words;

	if (!t || !t->stack)
		return;
	low = (unsigned long)t->stack;
	/* Not on its own stack (an interrupt stack): nothing of it to wipe. */
	if (here < low || here >= low + t->stack_size)
		return;
	t->stack_deepest = thread_stack_used(t);
	floor = max(low + t->stack_size - t->stack_deepest,
		    low + WIPE_BOTTOM_GAP);
	if (here <= floor)
		return;
	words = (here - floor) / sizeof(u32);
	dead = __builtin_alloca(words * sizeof(u32));
	for (size_t i = 0; i < words; i++)
		dead[i] = STACK_FILL;
}

/*
 * The first frame: arch_switch_to() pops zeros (fp = 0 ends the frame
 * chain) and returns into arch_thread_start(), with the stack aligned
 * as the ABI wants at the call of thread_entry().
 */
static void setup_first_frame(struct thread *t)
{
	unsigned long top = (unsigned long)t->stack + t->stack_size;
	unsigned long after = ALIGN_DOWN(top - sizeof(long), STACK_ALIGN);
	unsigned long *frame = (unsigned long *)after - SWITCH_FRAME_WORDS;

	for (int i = 0; i < SWITCH_FRAME_WORDS; i++)
		frame[i] = 0;
	frame[SWITCH_FRAME_PC] = (unsigned long)arch_thread_start;
	t->ctx.sp = (unsigned long)frame;
}

static void list_add_thread(struct thread *t)
{
	unsigned long flags = thread_list_lock();

	list_add_tail(&t->all_node, &thread_list);
	thread_list_unlock(flags);
}

static struct thread *thread_alloc(int (*fn)(void *), void *arg,
				   const char *name)
{
	struct thread *t;

	if (!thread_cache) {
		printk("kthread_create(%s): threads are not set up yet\n",
		       name);
		return NULL;
	}
	t = kmem_cache_zalloc(thread_cache, GFP_KERNEL);
	if (!t)
		goto nomem;
	t->stack = alloc_thread_info();
	if (!t->stack) {
		kmem_cache_free(thread_cache, t);
		goto nomem;
	}
	t->stack_size = THREAD_STACK_SIZE;
	paint_stack(t->stack, (char *)t->stack + t->stack_size);
	strlcpy(t->name, name, sizeof(t->name));
	t->fn = fn;
	t->arg = arg;
	t->state = THREAD_NEW;
	t->cpu = smp_processor_id();
	t->wait.thread = t;
	INIT_LIST_HEAD(&t->wait.node);
	INIT_LIST_HEAD(&t->run_node);
	setup_first_frame(t);
	return t;
nomem:
	printk("kthread_create(%s): out of memory\n", name);
	return NULL;
}

struct thread *kthread_create(int (*fn)(void *), void *arg, const char *name)
{
	struct thread *t = thread_alloc(fn, arg, name);

	if (!t)
		return NULL;
	t->pid = __atomic_fetch_add(&next_pid, 1, __ATOMIC_RELAXED);
	list_add_thread(t);
	return t;
}

void kthread_start(struct thread *t)
{
	if (t->state != THREAD_NEW) {
		printk("kthread_start: thread %s (pid %d) already started\n",
		       t->name, t->pid);
		return;
	}
	sched_start_thread(t);
}

int kthread_bind(struct thread *t, unsigned int cpu)
{
	if (t->state != THREAD_NEW || !cpu_online(cpu)) {
		printk("kthread_bind(%s, %u): %s\n", t->name, cpu,
		       t->state != THREAD_NEW ? "already started" :
						"no such CPU online");
		return -EINVAL;
	}
	t->cpu = cpu;
	t->flags |= THREAD_PINNED;
	return 0;
}

struct thread *kthread_run(int (*fn)(void *), void *arg, const char *name)
{
	struct thread *t = kthread_create(fn, arg, name);

	if (t)
		kthread_start(t);
	return t;
}

struct thread *thread_create_idle(unsigned int cpu, int (*fn)(void *))
{
	char name[THREAD_NAME_LEN];
	struct thread *t;

	snprintf(name, sizeof(name), "idle/%u", cpu);
	t = thread_alloc(fn, NULL, name);
	if (!t)
		return NULL;
	t->pid = 0;
	t->cpu = cpu;
	t->flags = THREAD_IDLE | THREAD_PINNED;
	t->state = THREAD_RUNNING;
	list_add_thread(t);
	return t;
}

void kthread_exit(int code)
{
	struct thread *t = current;

	if (t->flags & (THREAD_IDLE | THREAD_BOOT))
		panic("thread %s (pid %d) may not exit", t->name, t->pid);
	irq_disable();
	t->exit_code = code;
	t->state = THREAD_DEAD;
	schedule();
	panic("dead thread %s (pid %d) ran again", t->name, t->pid);
}

void thread_reap_later(struct thread *t)
{
	spin_lock(&reap_lock);
	list_add_tail(&t->run_node, &reap_list);
	spin_unlock(&reap_lock);
	wake_up(&reap_wq);
}

static void reap(struct thread *t)
{
	unsigned long flags = thread_list_lock();
	bool detached;

	list_del_init(&t->all_node);
	thread_list_unlock(flags);
	free_thread_info(t->stack);
	t->stack = NULL;
	flags = spin_lock_irqsave(&reap_lock);
	detached = t->detached;
	t->reaped = true;
	spin_unlock_irqrestore(&reap_lock, flags);
	if (detached)
		kmem_cache_free(thread_cache, t);
	else
		wake_up(&exit_wq);	/* t belongs to its joiner from here */
}

static struct thread *next_to_reap(void)
{
	unsigned long flags = spin_lock_irqsave(&reap_lock);
	struct thread *t = NULL;

	if (!list_empty(&reap_list)) {
		t = list_first_entry(&reap_list, struct thread, run_node);
		list_del_init(&t->run_node);
	}
	spin_unlock_irqrestore(&reap_lock, flags);
	return t;
}

static int reaper_main(void *unused)
{
	struct thread *t;

	(void)unused;
	for (;;) {
		wait_event(reap_wq, !list_empty(&reap_list));
		while ((t = next_to_reap()))
			reap(t);
	}
	return 0;
}

int kthread_join(struct thread *t, int *exit_code)
{
	unsigned long flags;
	const char *why = NULL;

	flags = spin_lock_irqsave(&reap_lock);
	if (t == current)
		why = "itself";
	else if (t->detached)
		why = "a detached thread";
	else if (t->state == THREAD_NEW)
		why = "a thread never started";
	spin_unlock_irqrestore(&reap_lock, flags);
	if (why) {
		printk("kthread_join: %s cannot join %s (%s, pid %d)\n",
		       current->name, why, t->name, t->pid);
		return -EINVAL;
	}
	wait_event(exit_wq, READ_ONCE(t->reaped));
	if (exit_code)
		*exit_code = t->exit_code;
	kmem_cache_free(thread_cache, t);
	return 0;
}

void kthread_detach(struct thread *t)
{
	unsigned long flags = spin_lock_irqsave(&reap_lock);
	bool free_now = t->reaped;

	t->detached = true;
	spin_unlock_irqrestore(&reap_lock, flags);
	if (free_now)
		kmem_cache_free(thread_cache, t);
}

static bool on_cpu(const struct thread *t)
{
	return READ_ONCE(cpu_curr[t->cpu]) == t;
}

bool thread_saved_frame(const struct thread *t, unsigned long *pc,
			unsigned long *fp, unsigned long *sp)
{
	const unsigned long *frame;

	if (on_cpu(t) || !t->stack)
		return false;
	frame = (const unsigned long *)t->ctx.sp;
	*pc = frame[SWITCH_FRAME_PC];
	*fp = frame[SWITCH_FRAME_FP];
	*sp = t->ctx.sp + SWITCH_FRAME_WORDS * sizeof(long);
	return true;
}

/*
 * Paints the unused part of the boot stack, so its high-water mark
 * counts from here, makes the thread cache and starts the reaper.
 */
void thread_boot_init(void)
{
	char *sp = (char *)__builtin_frame_address(0) - BOOT_STACK_MARGIN;

	boot_thread.stack_size = boot_stack_top - boot_stack;
	boot_thread.slice = 1;
	boot_thread.wait.thread = &boot_thread;
	INIT_LIST_HEAD(&boot_thread.wait.node);
	paint_stack(boot_stack, (void *)ALIGN_DOWN((unsigned long)sp, 4));
	thread_cache = KMEM_CACHE_TYPED(thread, 0);
	if (!thread_cache || !kthread_run(reaper_main, NULL, "reaper"))
		panic("no memory for the thread cache and the reaper");
}

static bool stack_holds(const struct thread *t, unsigned long addr,
			unsigned long *low, unsigned long *high)
{
	unsigned long lo = (unsigned long)t->stack;

	if (!t->stack || addr < lo || addr >= lo + t->stack_size)
		return false;
	*low = lo;
	*high = lo + t->stack_size;
	return true;
}

/* Tries for the list lock a while: a crash may have happened under it. */
#define LIST_LOCK_TRIES 100000

bool thread_stack_bounds(unsigned long addr, unsigned long *low,
			 unsigned long *high)
{
	const struct thread *self = current, *t;
	unsigned long flags;
	bool found = false;
	int tries = 0;

	if (self && stack_holds(self, addr, low, high))
		return true;
	flags = irq_save();
	while (!spin_trylock(&thread_list_spinlock))
		if (++tries == LIST_LOCK_TRIES)
			goto out;
	for_each_thread(t)
		if (stack_holds(t, addr, low, high)) {
			found = true;
			break;
		}
	spin_unlock(&thread_list_spinlock);
out:
	irq_restore(flags);
	return found;
}

static const char *state_name(const struct thread *t)
{
	switch (t->state) {
	case THREAD_NEW:
		return "new";
	case THREAD_RUNNING:
		if (on_cpu(t))
			return "running";
		return t->flags & THREAD_IDLE ? "idle" : "ready";
	case THREAD_SLEEPING:
		return "sleeping";
	case THREAD_DEAD:
		return "dead";
	}
	return "?";
}

static int cmd_ps(int argc, char **argv)
{
	unsigned long flags;
	struct thread *t;

	(void)argv;
	if (argc != 1) {
		printk("usage: ps\n");
		return 1;
	}
	printk("  PID NAME             STATE     CPU  STACK   USED  SWITCHES\n");
	flags = thread_list_lock();
	for_each_thread(t)
		printk("%5d %-16s %-9s %3u %6zu %6zu %9lu\n", t->pid, t->name,
		       state_name(t), t->cpu, t->stack_size,
		       thread_stack_used(t), t->switches);
	thread_list_unlock(flags);
	return 0;
}
SHELL_COMMAND("ps", cmd_ps, "ps",
	      "threads: state, CPU, stack size and deepest use, switches");

void task_for_each_live_stack(void (*fn)(const void *, const void *, void *),
			      void *ctx)
{
	unsigned long flags = thread_list_lock();
	const char *here = __builtin_frame_address(0);
	struct thread *t;

	for_each_thread(t) {
		const char *low = t->stack, *high;

		if (!low)
			continue;
		high = low + t->stack_size;
		if (t == current && here >= low && here < high)
			low = here;
		else if (!on_cpu(t))
			low = (const char *)t->ctx.sp;
		fn(low, high, ctx);
	}
	thread_list_unlock(flags);
}

u64 task_switch_count[NR_CPUS] = { [0 ... NR_CPUS - 1] = 1 };
u64 task_switch_count_irq_saved[NR_CPUS];

void task_current_identity(char *comm, size_t size, int *pid)
{
	const struct thread *t = current;

	if (in_irq() || !t) {
		strlcpy(comm, in_irq() ? "hardirq" : "?", size);
		*pid = 0;
		return;
	}
	/*
	 * The leak collector asks on every allocation, into a word-aligned
	 * buffer of this size: copy words, not bytes.
	 */
	if (size == sizeof(t->name) &&
	    (unsigned long)comm % sizeof(long) == 0) {
		struct words {
			unsigned long w[THREAD_NAME_LEN / sizeof(long)];
		};

		*(struct words *)comm = *(const struct words *)t->name;
		comm[size - 1] = '\0';
	} else {
		strlcpy(comm, t->name, size);
	}
	*pid = t->pid;
}
