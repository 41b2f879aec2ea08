/*
 * The thread identity of <kernel/task.h> on the host: a host program is
 * one thread, named like the program, with the process id as its pid.
 * (Thread stacks are no scan root on the host: the program registers
 * its own roots, see arch/host/memleak.c.)
 */
#define _GNU_SOURCE /* program_invocation_short_name */
#include <kernel/string.h>
#include <kernel/task.h>

#include <errno.h>
#include <unistd.h>

void task_current_identity(char *comm, size_t size, int *pid)
{
	strlcpy(comm, program_invocation_short_name, size);
	*pid = (int)getpid();
}

/* No stack is a root here, so nothing stale in one can hide a block. */
void task_wipe_dead_stack(void)
{
}

/* One thread, never in an interrupt handler: the count never moves. */
u64 task_switch_count[NR_CPUS] = { [0 ... NR_CPUS - 1] = 1 };
u64 task_switch_count_irq_saved[NR_CPUS];
