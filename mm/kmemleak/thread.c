/*
 * The leak collector's automatic scans. 'memleak scan=SECS'
 * starts a kernel thread that scans every SECS seconds and says so on
 * the console when a scan finds new suspects (like Linux's kmemleak
 * thread); 'memleak scan=off' stops it. memleak_scan_wait() lets a caller
 * that needs a scan of its own (the command, self-tests) wait for one
 * that runs; memleak_hold_scans() keeps them all out for a while (a
 * self-test that takes every free page).
 */
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include <kernel/thread.h>
#include <kernel/time.h>
#include <kernel/wait.h>
#include "internal.h"

#define AUTO_SCAN_DEFAULT_SECS 600
#define AUTO_SCAN_MAX_SECS 86400

static struct thread *scan_thread;
static unsigned long scan_period_secs = AUTO_SCAN_DEFAULT_SECS;
static bool stop_requested;
static DEFINE_WAIT_QUEUE(scan_wait);

static int scan_thread_fn(void *arg)
{
	(void)arg;
	while (!READ_ONCE(stop_requested)) {
		wait_event_timeout(scan_wait, READ_ONCE(stop_requested),
				   (long)(scan_period_secs * HZ));
		if (READ_ONCE(stop_requested) || memleak_scan())
			continue;
		if (memleak.nr_new)
			printk("memleak: %lu new suspected memory leaks "
			       "(run 'memleak' to list them)\n", memleak.nr_new);
		/*
		 * The scan left block addresses in this stack's dead slots;
		 * the frames of the wait will lie there, and the next scan
		 * (another thread's, too) reads them live: wipe them first.
		 */
		task_wipe_dead_stack();
	}
	return 0;
}

static void stop_auto_scan(void)
{
	if (!scan_thread)
		return;
	WRITE_ONCE(stop_requested, true);
	wake_up(&scan_wait);
	kthread_join(scan_thread, NULL);
	scan_thread = NULL;
	printk("memleak: automatic scanning off\n");
}

static int start_auto_scan(unsigned long secs)
{
	stop_auto_scan();
	scan_period_secs = secs;
	stop_requested = false;
	scan_thread = kthread_run(scan_thread_fn, NULL, "memleak");
	if (!scan_thread) {
		printk("memleak: cannot start the scan thread\n");
		return -ENOMEM;
	}
	printk("memleak: scanning every %lu s\n", secs);
	return 0;
}

int memleak_scan_wait(void)
{
	int err;

	while ((err = memleak_scan()) == -EBUSY && READ_ONCE(memleak.enabled))
		msleep(1);
	return err;
}

/* Whether memleak_hold_scans() holds the claim (not when disabled). */
static bool scans_held;

/* The holder owns the scan's claim: every other scan is refused. */
void memleak_hold_scans(void)
{
	while (!(scans_held = memleak_claim_scan()) &&
	       READ_ONCE(memleak.enabled))
		msleep(1);
}

void memleak_allow_scans(void)
{
	if (scans_held)
		memleak_release_scan();
	scans_held = false;
}

/* 'on', 'off' or a number of seconds between scans. */
int memleak_set_auto_scan(const char *value)
{
	unsigned long secs;

	if (strcmp(value, "off") == 0) {
		stop_auto_scan();
		return 0;
	}
	if (strcmp(value, "on") == 0)
		return start_auto_scan(scan_period_secs);
	if (kstrtoul(value, 10, &secs) || secs == 0 ||
	    secs > AUTO_SCAN_MAX_SECS)
		return -EINVAL;
	return start_auto_scan(secs);
}
