/*
 * Interrupts: handlers registered per interrupt number, the per-CPU
 * "in interrupt" nesting count, and the interrupt-flag wrappers. The
 * arch numbers its interrupt lines (see <asm/irq.h>: NR_IRQS and the
 * names of fixed lines), decodes them in its trap path and calls
 * irq_handle() between irq_enter() and irq_exit().
 */
#ifndef KERNEL_IRQ_H
#define KERNEL_IRQ_H

#include <kernel/arch.h>
#include <kernel/compiler.h>
#include <kernel/smp.h>
#include <kernel/types.h>
#include <asm/irq.h>

enum irqreturn {
	IRQ_NONE,	/* not our device's interrupt */
	IRQ_HANDLED,
};

typedef enum irqreturn (*irq_handler_t)(unsigned int irq, void *data);

/* request_irq() flags */
#define IRQF_SHARED 0x01u	/* other handlers may share the line */
#define IRQF_PERCPU 0x02u	/* one line per CPU (local timer, PPI) */

/* Handlers one line may have; raise it to share a line more widely. */
#define IRQ_MAX_SHARED 4

/*
 * Registers handler for irq and unmasks the line (the first time).
 * Every handler of a shared line must pass IRQF_SHARED. Handlers run
 * with interrupts off on the CPU that took the interrupt and must not
 * sleep. Returns 0, -EINVAL (no such line, NULL handler), -EBUSY (the
 * line is taken and not shared) or -ENOSPC (IRQ_MAX_SHARED reached);
 * every error also prints why.
 */
int request_irq(unsigned int irq, irq_handler_t handler, unsigned int flags,
		const char *name, void *data);
/* Removes the handler registered with this data; masks an unused line. */
void free_irq(unsigned int irq, void *data);

/* How often irq was taken on cpu; 0 for a bad number. */
unsigned long irq_count(unsigned int irq, unsigned int cpu);

/* Arch trap path: brackets the handling of one interrupt. */
void irq_enter(void);
/* Ends it; may switch threads when the tick asked to (preemption). */
void irq_exit(void);
/* Arch trap path: runs the handlers of irq (between enter and exit). */
void irq_handle(unsigned int irq);
/* Arch trap path: an interrupt nobody raised (counted and shown by 'irqs'). */
void irq_spurious(void);

extern unsigned int irq_nesting[NR_CPUS];

/*
 * Inside a handler: whether the code it interrupted could have been
 * preempted there (preemption on, so it held no spinlock). Outside a
 * handler: whether this thread can be preempted now, interrupts aside.
 */
bool irq_interrupted_preemptible(void);

/*
 * True while this CPU runs an interrupt handler. Handlers run with
 * interrupts off, so with them on this is a thread, and the count is
 * only read when the thread cannot move to a CPU that is in a handler.
 */
static inline bool in_irq(void)
{
	return arch_irqs_disabled() &&
	       READ_ONCE(irq_nesting[smp_processor_id()]) != 0;
}

/*
 * The interrupt flag of this CPU. irq_save() turns interrupts off and
 * returns the old state for irq_restore(); irq_enable() and
 * irq_disable() set it outright.
 */
static inline unsigned long irq_save(void)
{
	return arch_irq_save();
}

static inline void irq_restore(unsigned long flags)
{
	arch_irq_restore(flags);
}

static inline void irq_enable(void)
{
	arch_irq_enable();
}

static inline void irq_disable(void)
{
	arch_irq_disable();
}

static inline bool irqs_disabled(void)
{
	return arch_irqs_disabled();
}

/* True once the boot has switched interrupts on (the late initcall). */
extern bool irqs_running;

/*
 * The arch's interrupt controller, called by the generic layer with
 * the line's lock held: unmask returns 0 or -EINVAL when the line
 * cannot be routed.
 */
int arch_irq_unmask(unsigned int irq);
void arch_irq_mask(unsigned int irq);

#endif
