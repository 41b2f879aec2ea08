/*
 * Preemption on the host: there is no scheduler to hold back, so it is
 * only the nesting count that spinlocks keep; an unbalanced
 * preempt_enable() (an unlock without its lock) is a bug and panics.
 */
#include <kernel/printk.h>
#include <kernel/spinlock.h>

static unsigned int host_preempt_count;

void preempt_disable(void)
{
	host_preempt_count++;
}

void preempt_enable(void)
{
	if (host_preempt_count == 0)
		panic("preempt_enable() without preempt_disable()");
	host_preempt_count--;
}
