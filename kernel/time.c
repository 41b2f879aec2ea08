/*
 * Time keeping: jiffies from CPU 0's tick (which also runs the kernel
 * timers), the nanosecond clock over the arch counter, delays and
 * msleep(), and the 'uptime' and 'sleep' commands.
 */
#include <kernel/time.h>
#include <kernel/arch.h>
#include <kernel/irq.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/shell.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/timer.h>

volatile unsigned long jiffies;
unsigned int tick_irq = NR_IRQS;

static u64 clock_freq;		/* counter cycles per second; 0: no clock */
static u64 clock_base;		/* the counter when the clock was registered */
static unsigned long ticks_taken[NR_CPUS];

/* The longest sleep the shell accepts, in ms (ten minutes). */
#define SLEEP_MAX_MS 600000

u64 clock_cycles_to_ns(u64 cycles, u64 freq_hz)
{
	/* Split so that neither product can overflow 64 bits. */
	return cycles / freq_hz * NSEC_PER_SEC +
	       cycles % freq_hz * NSEC_PER_SEC / freq_hz;
}

void clock_register(u64 freq_hz)
{
	clock_base = arch_clock_read();
	WRITE_ONCE(clock_freq, freq_hz);
}

u64 ktime_get_ns(void)
{
	u64 freq = READ_ONCE(clock_freq);

	if (!freq)
		return 0;
	return clock_cycles_to_ns(arch_clock_read() - clock_base, freq);
}

void udelay(unsigned int us)
{
	u64 end;

	if (!READ_ONCE(clock_freq)) {
		/* No clock yet: a rough spin, about a pause per ns. */
		for (u64 i = (u64)us * 1000; i; i--)
			arch_cpu_relax();
		return;
	}
	end = ktime_get_ns() + (u64)us * 1000;
	while (ktime_get_ns() < end)
		arch_cpu_relax();
}

void mdelay(unsigned int ms)
{
	while (ms--)
		udelay(1000);
}

/* Halts the CPU until jiffies reaches target; interrupts are on. */
static void halt_until(unsigned long target)
{
	while (time_before(jiffies, target)) {
		unsigned long flags = irq_save();

		if (time_before(jiffies, target))
			arch_safe_halt();
		irq_restore(flags);
	}
}

/* Sleeps (or halts, before the scheduler) until jiffies reaches target. */
static void sleep_until(unsigned long target)
{
	if (!READ_ONCE(sched_running)) {
		halt_until(target);
		return;
	}
	while (time_before(jiffies, target)) {
		set_current_state(THREAD_SLEEPING);
		schedule_timeout((long)(target - jiffies));
	}
}

void msleep(unsigned int ms)
{
	u64 end;

	/* Ticks only advance with interrupts on, and not inside a handler. */
	if (!READ_ONCE(irqs_running) || irqs_disabled() || in_irq()) {
		mdelay(ms);
		return;
	}
	end = ktime_get_ns() + (u64)ms * NSEC_PER_MSEC;
	/* + 1: the tick in progress is already partly over. */
	sleep_until(jiffies + msecs_to_jiffies(ms) + 1);
	/*
	 * A late tick leaves jiffies behind the clock until it catches up
	 * (ARM counts the missed periods at once), so the count above may
	 * have started low: top up by whole ticks until the clock agrees.
	 */
	while (ktime_get_ns() < end)
		sleep_until(jiffies + 1);
}

void timer_tick(unsigned int ticks)
{
	unsigned int cpu = smp_processor_id();

	ticks_taken[cpu] += ticks;
	if (cpu == 0) {
		jiffies += ticks;
		timers_run();
	}
	sched_tick();
}

unsigned long tick_count(unsigned int cpu)
{
	return cpu < NR_CPUS ? READ_ONCE(ticks_taken[cpu]) : 0;
}

static int cmd_uptime(int argc, char **argv)
{
	u64 ns = ktime_get_ns();
	u64 ms = ns / NSEC_PER_MSEC;

	(void)argv;
	if (argc != 1) {
		printk("usage: uptime\n");
		return 1;
	}
	printk("uptime: %llu.%03llu s, jiffies %lu (HZ %d)\n",
	       ms / 1000, ms % 1000, jiffies, HZ);
	return 0;
}
SHELL_COMMAND("uptime", cmd_uptime, "uptime",
	      "time since boot (seconds) and the tick count");

static int cmd_sleep(int argc, char **argv)
{
	unsigned long ms;

	if (argc != 2) {
		printk("usage: sleep MS\n");
		return 1;
	}
	if (kstrtoul(argv[1], 10, &ms) || ms > SLEEP_MAX_MS) {
		printk("sleep: '%s' is not a number of milliseconds "
		       "(0..%d)\n", argv[1], SLEEP_MAX_MS);
		return 1;
	}
	msleep(ms);
	return 0;
}
SHELL_COMMAND("sleep", cmd_sleep, "sleep MS", "sleep MS milliseconds");
