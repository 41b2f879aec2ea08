/*
 * CPU numbering and the sets of CPUs: how many there may be, which one
 * we run on, which exist (possible) and which run (online).
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <kernel/arch.h>
#include <kernel/types.h>

#define NR_CPUS CONFIG_NR_CPUS

/*
 * The number of the CPU running this code, 0..NR_CPUS-1: one
 * instruction that reads a per-CPU register (<asm/arch.h>:
 * arch_cpu_id()). A thread may move to another CPU right after, so the
 * answer is only stable while interrupts or preemption are off.
 */
static inline unsigned int smp_processor_id(void)
{
	return arch_cpu_id();
}

/*
 * One bit per CPU. "possible": the firmware described it (ACPI MADT on
 * i386, the device tree on ARM), so it has a per-CPU area and an idle
 * thread; numbers are given densely from 0 (the boot CPU). "online":
 * it runs the scheduler. CPU 0 is both from the first instruction.
 */
extern unsigned long cpu_possible_mask;
extern unsigned long cpu_online_mask;

static inline bool cpu_possible(unsigned int cpu)
{
	return cpu < NR_CPUS && (READ_ONCE(cpu_possible_mask) >> cpu) & 1;
}

static inline bool cpu_online(unsigned int cpu)
{
	return cpu < NR_CPUS && (READ_ONCE(cpu_online_mask) >> cpu) & 1;
}

/* The first CPU of mask after cpu (-1: from the start), NR_CPUS if none. */
static inline unsigned int cpumask_next(int cpu, unsigned long mask)
{
	for (cpu++; cpu < NR_CPUS; cpu++)
		if ((mask >> cpu) & 1)
			return cpu;
	return NR_CPUS;
}

#define for_each_cpu_in(cpu, mask)                                    \
	for ((cpu) = cpumask_next(-1, (mask)); (cpu) < NR_CPUS;       \
	     (cpu) = cpumask_next((cpu), (mask)))
#define for_each_possible_cpu(cpu) \
	for_each_cpu_in(cpu, READ_ONCE(cpu_possible_mask))
#define for_each_online_cpu(cpu) \
	for_each_cpu_in(cpu, READ_ONCE(cpu_online_mask))

static inline unsigned int num_possible_cpus(void)
{
	return __builtin_popcountl(READ_ONCE(cpu_possible_mask));
}

static inline unsigned int num_online_cpus(void)
{
	return __builtin_popcountl(READ_ONCE(cpu_online_mask));
}

/*
 * The arch's CPU enumeration calls this once for each CPU it finds
 * besides the boot CPU (which is CPU 0), before mm_init(); returns the
 * number given to it, or -1 (with a message) past NR_CPUS.
 */
int smp_add_possible_cpu(void);

/*
 * What each possible CPU is doing, for 'cpus' and for bring-up and
 * panic to watch: offline (not started), starting (the boot CPU sent
 * it on its way), online, failed (did not come up in time), stopped
 * (halted by a panic).
 */
enum cpu_state {
	CPU_OFFLINE,
	CPU_STARTING,
	CPU_ONLINE,
	CPU_FAILED,
	CPU_STOPPED,
};

enum cpu_state smp_cpu_state(unsigned int cpu);
const char *smp_cpu_state_name(enum cpu_state state);

/*
 * Cross calls: func(info) runs on other CPUs, from their interrupt
 * handler (interrupts off: it must not sleep, nor make cross calls of
 * its own). With wait, the call returns once func has returned
 * everywhere; without, once every target has taken the request (info
 * must stay valid until then). The caller may have interrupts off: it
 * serves calls aimed at its own CPU while it waits. Not from interrupt
 * handlers.
 *
 * smp_call_function(): every other online CPU; returns how many.
 * smp_call_function_single(): one CPU (this one runs func directly);
 *   0, or -ENODEV for a CPU that is not online.
 * on_each_cpu(): every online CPU, this one included.
 */
int smp_call_function(void (*func)(void *info), void *info, bool wait);
int smp_call_function_single(unsigned int cpu, void (*func)(void *info),
			     void *info, bool wait);
void on_each_cpu(void (*func)(void *info), void *info, bool wait);

/*
 * Stops the world for a moment: smp_park_others() returns true, with
 * interrupts off here, once every other online CPU spins in a cross
 * call with interrupts off; smp_unpark_others() lets them go and
 * restores interrupts. A CPU parks only where it could be preempted, so
 * it holds no spinlock, and its registers are saved on its stack at
 * sp[cpu] and above (0 for a CPU not parked). In between the caller
 * must not wait for another CPU, nor sleep. A CPU that stays
 * unpreemptible for half a second makes it give up: false, nothing
 * parked, interrupts as they were. Not from interrupt handlers. park
 * must be static: a late CPU may still look at it after a give-up.
 */
struct smp_park {
	unsigned long sp[NR_CPUS];
	int state[NR_CPUS];	/* kernel/smp.c: enum park_state */
	unsigned long mask;	/* the CPUs to park */
	unsigned int nr;
	unsigned long flags;
	int release;
};

bool smp_park_others(struct smp_park *park);
void smp_unpark_others(struct smp_park *park);
/*
 * Set by the GDB commands (tools/gdb/kleakgdb/kcall.py) while they call
 * into the kernel: the debugger keeps the other CPUs stopped, so they
 * cannot park, and need not. Their registers stay in the debugger.
 */
extern bool smp_debugger_stopped;

/*
 * Where a CPU asked to park does so: irq_exit() when the outermost
 * handler is done, and preempt_enable() when preemption comes back on
 * with interrupts on.
 */
void smp_irq_exit(void);
void smp_preempt_point(void);

/* Makes cpu look at its run queue now (it may be halted in idle). */
void smp_send_reschedule(unsigned int cpu);

/*
 * From panic(): halts every other online CPU, waits a moment for them
 * and says which ones stopped. Takes no lock.
 */
void smp_send_stop(void);

/* Cross calls this CPU has served, and IPIs it has sent (for 'cpus'). */
unsigned long smp_calls_served(unsigned int cpu);

/*
 * The interprocessor interrupts. IPI_STOP bypasses the interrupt layer
 * (it must get through even where a line lock is held): the arch calls
 * smp_stop_this_cpu() straight from its trap path. The others arrive as
 * interrupt lines arch_ipi_irq(ipi), with handlers from kernel/smp.c.
 */
enum ipi_type {
	IPI_RESCHEDULE,
	IPI_CALL_FUNC,
	IPI_STOP,
	NR_IPI_TYPES,
};

/* Called by the arch on a CPU that received IPI_STOP; never returns. */
void smp_stop_this_cpu(void) __noreturn;

/*
 * The arch's last step of bring-up, on the new CPU with interrupts off,
 * once its MMU, exception vectors, interrupt controller and tick are
 * set up: marks it online and enters the scheduler.
 */
void smp_secondary_start(void) __noreturn;

struct thread;

/*
 * Implemented by the arch (arch/<arch>/smp.c):
 *
 * arch_boot_cpu() starts CPU cpu (INIT-SIPI-SIPI, PSCI CPU_ON) on the
 * stack of its idle thread; the new CPU ends in smp_secondary_start().
 * Returns 0 once the CPU was sent on its way, or a negative error.
 *
 * arch_send_ipi() raises ipi on cpu; safe from any context, lock-free.
 *
 * arch_cpu_hwid() is the firmware's name for the CPU (APIC ID, MPIDR),
 * ARCH_CPU_HWID (<asm/arch.h>) says which.
 */
int arch_boot_cpu(unsigned int cpu, struct thread *idle);
void arch_send_ipi(unsigned int cpu, enum ipi_type ipi);
unsigned long arch_cpu_hwid(unsigned int cpu);

#endif
