/*
 * The generic interrupt layer: a table of lines, each with up to
 * IRQ_MAX_SHARED handlers, per-CPU counts, the nesting count behind
 * in_irq(), the 'irqs' command, and the initcall that turns interrupts
 * on at the end of boot.
 *
 * Each line has its own lock, held (interrupts off) while its handlers
 * run, so free_irq() cannot pull a handler out from under another CPU.
 * A handler must therefore not call request_irq()/free_irq() on its own
 * line. Lock order: a line's lock, then whatever its handlers take.
 */
#include <kernel/irq.h>
#include <kernel/errno.h>
#include <kernel/initcall.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/shell.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/task.h>

struct irq_action {
	irq_handler_t handler;
	void *data;
	const char *name;
};

struct irq_line {
	struct spinlock lock;
	unsigned int flags;		/* of the registered handlers */
	int nr_actions;
	struct irq_action actions[IRQ_MAX_SHARED];
	unsigned long count[NR_CPUS];
	unsigned long unhandled;	/* taken, but no handler claimed it */
};

static struct irq_line irq_lines[NR_IRQS];
static unsigned long spurious_count[NR_CPUS];

unsigned int irq_nesting[NR_CPUS];
/* The interrupted thread's preempt_count(), read at the outermost entry. */
static unsigned int irq_interrupted_preempt[NR_CPUS];
bool irqs_running;

static int check_request(unsigned int irq, irq_handler_t handler,
			 const char *name)
{
	if (irq >= NR_IRQS) {
		printk("request_irq: no interrupt %u (%s): there are %d\n",
		       irq, name, NR_IRQS);
		return -EINVAL;
	}
	if (!handler) {
		printk("request_irq: interrupt %u (%s): no handler\n", irq,
		       name);
		return -EINVAL;
	}
	return 0;
}

/* Can one more handler with these flags join the line? 0 or an error. */
static int check_sharing(const struct irq_line *line, unsigned int irq,
			 unsigned int flags, const char *name)
{
	if (line->nr_actions == 0)
		return 0;
	if (!(line->flags & flags & IRQF_SHARED)) {
		printk("request_irq: interrupt %u (%s) is taken by %s and "
		       "not shared\n", irq, name, line->actions[0].name);
		return -EBUSY;
	}
	if ((line->flags ^ flags) & IRQF_PERCPU) {
		printk("request_irq: interrupt %u (%s): per-CPU flag differs "
		       "from %s's\n", irq, name, line->actions[0].name);
		return -EBUSY;
	}
	if (line->nr_actions == IRQ_MAX_SHARED) {
		printk("request_irq: interrupt %u (%s): already %d handlers\n",
		       irq, name, IRQ_MAX_SHARED);
		return -ENOSPC;
	}
	return 0;
}

int request_irq(unsigned int irq, irq_handler_t handler, unsigned int flags,
		const char *name, void *data)
{
	struct irq_line *line;
	unsigned long irqflags;
	int err = check_request(irq, handler, name);

	if (err)
		return err;
	line = &irq_lines[irq];
	irqflags = spin_lock_irqsave(&line->lock);
	err = check_sharing(line, irq, flags, name);
	if (!err && line->nr_actions == 0) {
		err = arch_irq_unmask(irq);
		if (err)
			printk("request_irq: interrupt %u (%s) cannot be "
			       "routed\n", irq, name);
	}
	if (!err) {
		line->flags = flags;
		line->actions[line->nr_actions++] =
			(struct irq_action){ handler, data, name };
	}
	spin_unlock_irqrestore(&line->lock, irqflags);
	return err;
}

static int find_action(const struct irq_line *line, void *data)
{
	for (int i = 0; i < line->nr_actions; i++)
		if (line->actions[i].data == data)
			return i;
	return -1;
}

void free_irq(unsigned int irq, void *data)
{
	struct irq_line *line;
	unsigned long flags;
	int i;

	if (irq >= NR_IRQS) {
		printk("free_irq: no interrupt %u\n", irq);
		return;
	}
	line = &irq_lines[irq];
	flags = spin_lock_irqsave(&line->lock);
	i = find_action(line, data);
	if (i < 0) {
		printk("free_irq: interrupt %u has no handler with data %p\n",
		       irq, data);
	} else {
		for (; i < line->nr_actions - 1; i++)
			line->actions[i] = line->actions[i + 1];
		if (--line->nr_actions == 0)
			arch_irq_mask(irq);
	}
	spin_unlock_irqrestore(&line->lock, flags);
}

unsigned long irq_count(unsigned int irq, unsigned int cpu)
{
	if (irq >= NR_IRQS || cpu >= NR_CPUS)
		return 0;
	return READ_ONCE(irq_lines[irq].count[cpu]);
}

void irq_enter(void)
{
	unsigned int cpu = smp_processor_id();

	if (irq_nesting[cpu]++ == 0) {
		task_irq_entered(cpu);
		irq_interrupted_preempt[cpu] = preempt_count();
	}
}

bool irq_interrupted_preemptible(void)
{
	if (in_irq())
		return irq_interrupted_preempt[smp_processor_id()] == 0;
	return preempt_count() == 0;
}

void irq_exit(void)
{
	unsigned int cpu = smp_processor_id();

	if (irq_nesting[cpu] == 1)
		smp_irq_exit();
	if (--irq_nesting[cpu] == 0) {
		task_irq_left(cpu);
		sched_preempt_irq();
	}
}

void irq_handle(unsigned int irq)
{
	struct irq_line *line;
	enum irqreturn ret = IRQ_NONE;

	if (irq >= NR_IRQS) {
		irq_spurious();
		return;
	}
	line = &irq_lines[irq];
	spin_lock(&line->lock);
	line->count[smp_processor_id()]++;
	for (int i = 0; i < line->nr_actions; i++)
		if (line->actions[i].handler(irq, line->actions[i].data) ==
		    IRQ_HANDLED)
			ret = IRQ_HANDLED;
	if (ret == IRQ_NONE)
		line->unhandled++;
	spin_unlock(&line->lock);
}

void irq_spurious(void)
{
	spurious_count[smp_processor_id()]++;
}

/*
 * Interrupts come on here, after every driver initcall has set up its
 * device with them off. Before this point msleep() busy-waits and
 * console_getc() polls.
 */
static int irq_boot_enable(void)
{
	WRITE_ONCE(irqs_running, true);
	irq_enable();
	return 0;
}
late_initcall(irq_boot_enable);

static void print_line(unsigned int irq, const struct irq_line *line)
{
	printk("%4u:", irq);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		printk(" %10lu", line->count[cpu]);
	printk("  %s", line->flags & IRQF_PERCPU ? "per-cpu" : "       ");
	for (int i = 0; i < line->nr_actions; i++)
		printk("%s%s", i ? ", " : "  ", line->actions[i].name);
	if (line->unhandled)
		printk("  (%lu unhandled)", line->unhandled);
	printk("\n");
}

static bool line_in_use(const struct irq_line *line)
{
	if (line->nr_actions || line->unhandled)
		return true;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (line->count[cpu])
			return true;
	return false;
}

static int cmd_irqs(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		printk("usage: irqs\n");
		return 1;
	}
	printk(" irq:");
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		printk("       CPU%d", cpu);
	printk("\n");
	for (unsigned int irq = 0; irq < NR_IRQS; irq++)
		if (line_in_use(&irq_lines[irq]))
			print_line(irq, &irq_lines[irq]);
	printk(" spu:");
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		printk(" %10lu", spurious_count[cpu]);
	printk("  spurious\n");
	return 0;
}
SHELL_COMMAND("irqs", cmd_irqs, "irqs",
	      "interrupt lines: counts per CPU and handlers");
