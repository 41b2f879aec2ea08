/*
 * Kernel timers: one list sorted by expiry, run by CPU 0's tick. A
 * timer's function runs with the lock dropped (it may re-arm timers or
 * wake threads); running_timer lets timer_del() wait for it.
 */
#include <kernel/timer.h>
#include <kernel/arch.h>
#include <kernel/spinlock.h>
#include <kernel/time.h>

static DEFINE_SPINLOCK(timer_lock);
static LIST_HEAD(pending);
static struct timer *running_timer;

void timer_init(struct timer *timer, void (*fn)(struct timer *), void *data)
{
	INIT_LIST_HEAD(&timer->node);
	timer->expires = 0;
	timer->fn = fn;
	timer->data = data;
}

/* Inserts after every timer that expires no later: FIFO among equals. */
static void insert_sorted(struct timer *timer)
{
	struct list_head *pos = pending.prev;

	while (pos != &pending &&
	       time_after(list_entry(pos, struct timer, node)->expires,
			  timer->expires))
		pos = pos->prev;
	list_add(&timer->node, pos);
}

void timer_add(struct timer *timer, unsigned long expires)
{
	unsigned long flags = spin_lock_irqsave(&timer_lock);

	if (!list_empty(&timer->node))
		list_del_init(&timer->node);
	timer->expires = expires;
	insert_sorted(timer);
	spin_unlock_irqrestore(&timer_lock, flags);
}

bool timer_del(struct timer *timer)
{
	unsigned long flags = spin_lock_irqsave(&timer_lock);
	bool was_pending = !list_empty(&timer->node);

	list_del_init(&timer->node);
	while (running_timer == timer) {
		spin_unlock_irqrestore(&timer_lock, flags);
		arch_cpu_relax();
		flags = spin_lock_irqsave(&timer_lock);
	}
	spin_unlock_irqrestore(&timer_lock, flags);
	return was_pending;
}

void timers_run(void)
{
	struct timer *timer;

	spin_lock(&timer_lock);
	while (!list_empty(&pending)) {
		timer = list_first_entry(&pending, struct timer, node);
		if (time_before(jiffies, timer->expires))
			break;
		list_del_init(&timer->node);
		running_timer = timer;
		spin_unlock(&timer_lock);
		timer->fn(timer);
		spin_lock(&timer_lock);
		running_timer = NULL;
	}
	spin_unlock(&timer_lock);
}
