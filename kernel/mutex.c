/*
 * Sleeping mutexes with FIFO hand-off: unlock gives the mutex directly
 * to the first waiter, so a thread that keeps relocking cannot starve
 * the others.
 *
 * Lock order: the mutex's spinlock, then a run queue's (wake_up_thread).
 */
#include <kernel/mutex.h>
#include <kernel/errno.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/sched.h>

/* A waiter, on its own stack while it sleeps in mutex_lock(). */
struct mutex_waiter {
	struct list_head node;
	struct thread *thread;
};

static unsigned long misuse_count;

void mutex_init(struct mutex *m, const char *name)
{
	spin_lock_init(&m->lock);
	m->owner = NULL;
	INIT_LIST_HEAD(&m->waiters);
	m->name = name;
	m->contended = 0;
}

static void check_context(const struct mutex *m, const char *op)
{
	if (in_irq())
		panic("%s(%s) from an interrupt handler", op, m->name);
}

void mutex_lock(struct mutex *m)
{
	struct mutex_waiter w = { .thread = current };
	unsigned long flags;

	check_context(m, "mutex_lock");
	flags = spin_lock_irqsave(&m->lock);
	if (m->owner == current)
		panic("mutex_lock(%s): %s (pid %d) already holds it", m->name,
		      current->name, current->pid);
	if (!m->owner) {
		m->owner = current;
		spin_unlock_irqrestore(&m->lock, flags);
		return;
	}
	m->contended++;
	list_add_tail(&w.node, &m->waiters);
	while (m->owner != current) {	/* unlock hands it over */
		set_current_state(THREAD_SLEEPING);
		spin_unlock_irqrestore(&m->lock, flags);
		schedule();
		flags = spin_lock_irqsave(&m->lock);
	}
	set_current_state(THREAD_RUNNING);
	spin_unlock_irqrestore(&m->lock, flags);
}

bool mutex_trylock(struct mutex *m)
{
	unsigned long flags;
	bool taken;

	check_context(m, "mutex_trylock");
	flags = spin_lock_irqsave(&m->lock);
	taken = !m->owner;
	if (taken)
		m->owner = current;
	spin_unlock_irqrestore(&m->lock, flags);
	return taken;
}

int mutex_unlock(struct mutex *m)
{
	struct mutex_waiter *w;
	struct thread *owner;
	unsigned long flags;

	check_context(m, "mutex_unlock");
	flags = spin_lock_irqsave(&m->lock);
	owner = m->owner;
	if (owner != current) {
		misuse_count++;
		spin_unlock_irqrestore(&m->lock, flags);
		printk("warning: mutex_unlock(%s) by %s (pid %d), but %s%s "
		       "holds it: not unlocked\n", m->name, current->name,
		       current->pid, owner ? owner->name : "nobody",
		       owner ? "" : " (it is free)");
		return -EPERM;
	}
	if (list_empty(&m->waiters)) {
		m->owner = NULL;
	} else {
		w = list_first_entry(&m->waiters, struct mutex_waiter, node);
		list_del(&w->node);
		m->owner = w->thread;
		wake_up_thread(w->thread);
	}
	spin_unlock_irqrestore(&m->lock, flags);
	return 0;
}

bool mutex_is_locked(struct mutex *m)
{
	return READ_ONCE(m->owner) != NULL;
}

unsigned long mutex_misuse_count(void)
{
	return READ_ONCE(misuse_count);
}
