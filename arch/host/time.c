/*
 * Time on the host: no tick, so jiffies only moves when a test moves it
 * (the collector's block ages, say); cycle stamps (<kernel/cycles.h>)
 * are nanoseconds of the monotonic clock.
 */
#include <kernel/time.h>
#include <asm/cycles.h>

#include <time.h>

volatile unsigned long jiffies;

u64 host_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * NSEC_PER_SEC + (u64)ts.tv_nsec;
}
