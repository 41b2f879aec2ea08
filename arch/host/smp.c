/*
 * Cross-CPU calls on the host: the one thread of a host program plays
 * every CPU in turn (host_cpu_id, what smp_processor_id() returns), as
 * the host tests that play another CPU do. No locking: one thread.
 */
#include <kernel/smp.h>
#include <asm/host.h>

void on_each_cpu(void (*func)(void *info), void *info, bool wait)
{
	unsigned int self = host_cpu_id;

	(void)wait;	/* every call has run when the loop ends */
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		host_cpu_id = cpu;
		func(info);
	}
	host_cpu_id = self;
}
