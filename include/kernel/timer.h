/*
 * Kernel timers: a function run from CPU 0's tick (interrupt context)
 * once jiffies reaches a given value. schedule_timeout() and msleep()
 * sleep on them.
 */
#ifndef KERNEL_TIMER_H
#define KERNEL_TIMER_H

#include <kernel/list.h>
#include <kernel/types.h>

struct timer {
	struct list_head node;	/* in the pending list, sorted; empty when not */
	unsigned long expires;	/* jiffies */
	void (*fn)(struct timer *timer);
	void *data;
};

void timer_init(struct timer *timer, void (*fn)(struct timer *), void *data);

/* Arms (or re-arms) the timer for jiffies value expires. */
void timer_add(struct timer *timer, unsigned long expires);

/*
 * Disarms the timer and waits for its function if it is running on
 * another CPU, so the timer may be freed afterwards. True when it was
 * still pending.
 */
bool timer_del(struct timer *timer);

/* From CPU 0's tick: runs the timers that are due. */
void timers_run(void);

#endif
