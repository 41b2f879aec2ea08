/*
 * Wait queues. A sleeper uses the wait entry inside its struct thread,
 * so a thread waits on one queue at a time. Entries stay queued after a
 * wake-up until their thread leaves with finish_wait().
 *
 * Lock order: the queue's lock, then a run queue's (wake_up_thread).
 */
#include <kernel/wait.h>
#include <kernel/sched.h>

void init_waitqueue_head(struct wait_queue_head *wq)
{
	spin_lock_init(&wq->lock);
	INIT_LIST_HEAD(&wq->waiters);
}

void prepare_to_wait(struct wait_queue_head *wq)
{
	struct thread *t = current;
	unsigned long flags = spin_lock_irqsave(&wq->lock);

	if (list_empty(&t->wait.node))
		list_add_tail(&t->wait.node, &wq->waiters);
	set_current_state(THREAD_SLEEPING);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(struct wait_queue_head *wq)
{
	struct thread *t = current;
	unsigned long flags;

	set_current_state(THREAD_RUNNING);
	flags = spin_lock_irqsave(&wq->lock);
	if (!list_empty(&t->wait.node))
		list_del_init(&t->wait.node);
	spin_unlock_irqrestore(&wq->lock, flags);
}

int wake_up(struct wait_queue_head *wq)
{
	unsigned long flags = spin_lock_irqsave(&wq->lock);
	struct wait_queue_entry *w;
	int woken = 0;

	list_for_each_entry(w, &wq->waiters, node)
		woken += wake_up_thread(w->thread);
	spin_unlock_irqrestore(&wq->lock, flags);
	return woken;
}
