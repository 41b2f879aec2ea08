/*
 * Time: the tick (jiffies, HZ per second), a nanosecond clock, delays
 * and sleeps. The arch provides a free-running counter (the TSC on
 * i386, the generic timer's CNTPCT on ARM) and a per-CPU tick
 * interrupt that calls timer_tick().
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <kernel/types.h>

#define HZ CONFIG_HZ
#define NSEC_PER_SEC 1000000000ULL
#define NSEC_PER_MSEC 1000000ULL

/* Ticks since interrupts came on; advanced by CPU 0's tick only. */
extern volatile unsigned long jiffies;

/* The interrupt the tick arrives on; NR_IRQS until the arch set it up. */
extern unsigned int tick_irq;

/* True when jiffies value a is after b (wrap-safe). */
#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)

/* Rounds up: a sleep of ms is never shorter than asked. */
static inline unsigned long msecs_to_jiffies(unsigned int ms)
{
	return (unsigned long)(((u64)ms * HZ + 999) / 1000);
}

static inline unsigned long jiffies_to_msecs(unsigned long j)
{
	return (unsigned long)((u64)j * 1000 / HZ);
}

/*
 * Nanoseconds since the clock was set up in early boot; monotonic.
 * 0 until then (the arch has not measured its counter yet).
 */
u64 ktime_get_ns(void);

/* Busy-waits at least us microseconds (interrupt handlers, early boot). */
void udelay(unsigned int us);
void mdelay(unsigned int ms);

/*
 * Sleeps at least ms milliseconds: the thread sleeps once the scheduler
 * runs; before that the CPU halts until jiffies passes; with interrupts
 * still off (early boot) it busy-waits.
 */
void msleep(unsigned int ms);

/*
 * Called by the arch's tick handler on every CPU, interrupts off; ticks
 * is normally 1, more when the arch noticed it missed some.
 */
void timer_tick(unsigned int ticks);

/* Ticks this CPU has taken. */
unsigned long tick_count(unsigned int cpu);

/*
 * The arch clock: arch_clock_read() returns the free-running counter,
 * which clock_register() declares to count freq_hz per second (the
 * arch measured or read it). The clock reads 0 before that.
 */
u64 arch_clock_read(void);
void clock_register(u64 freq_hz);

/* ns for a number of counter cycles at freq_hz, without overflow. */
u64 clock_cycles_to_ns(u64 cycles, u64 freq_hz);

#endif
