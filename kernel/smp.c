/*
 * SMP: the sets of possible and online CPUs, starting the secondary
 * CPUs at boot (through the arch), the interprocessor interrupts
 * (reschedule, cross calls, stop on panic) and the 'cpus' command.
 *
 * Cross calls go through one queue per CPU: the caller puts a request
 * (on its own stack) on each target's queue, raises IPI_CALL_FUNC and
 * waits, serving its own queue meanwhile, so two CPUs calling each
 * other with interrupts off both get through.
 *
 * Parking: smp_park_others() sends every other CPU a cross call that
 * spins until smp_unpark_others(), so that for a moment nothing but the
 * caller runs, and every other CPU's registers lie on its stack (the
 * leak collector reads them there).
 *
 * Lock order: a call queue's lock is taken alone (func runs without it).
 */
#include <kernel/smp.h>
#include <kernel/errno.h>
#include <kernel/initcall.h>
#include <kernel/irq.h>
#include <kernel/list.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/shell.h>
#include <kernel/spinlock.h>
#include <kernel/thread.h>
#include <kernel/time.h>

/* How long the boot CPU waits for a secondary to come online. */
#define BOOT_TIMEOUT_MS 3000
/* How long panic waits for the others to stop. */
#define STOP_TIMEOUT_MS 100
/* A cross call unanswered this long gets a warning (it keeps waiting). */
#define CALL_WARN_MS 1000

unsigned long cpu_possible_mask = 1;
unsigned long cpu_online_mask = 1;

/* The boot CPU is 0; the arch adds the others in the order it finds them. */
static unsigned int nr_possible = 1;

static enum cpu_state cpu_states[NR_CPUS] = { [0] = CPU_ONLINE };

/* Set by smp_send_stop(): CPUs busy-waiting with interrupts off look. */
static bool stopping;

struct call_request {
	struct list_head node;
	void (*func)(void *info);
	void *info;
	bool wait;	/* the caller waits for done, else only for taken */
	int taken;	/* the target copied func and info */
	int done;	/* func returned there */
};

struct call_queue {
	struct spinlock lock;
	struct list_head requests;
	unsigned long served;
};

/* Initialised in smp_init(): a list head cannot point at its template. */
static DEFINE_PER_CPU(struct call_queue, call_queues);
static bool calls_ready;

int smp_add_possible_cpu(void)
{
	unsigned int cpu = nr_possible;

	if (cpu >= NR_CPUS) {
		printk("smp: more CPUs than NR_CPUS (%d): one left out\n",
		       NR_CPUS);
		return -1;
	}
	nr_possible++;
	__atomic_or_fetch(&cpu_possible_mask, 1ul << cpu, __ATOMIC_RELAXED);
	return cpu;
}

enum cpu_state smp_cpu_state(unsigned int cpu)
{
	return cpu < NR_CPUS ? READ_ONCE(cpu_states[cpu]) : CPU_OFFLINE;
}

const char *smp_cpu_state_name(enum cpu_state state)
{
	static const char *const names[] = {
		[CPU_OFFLINE] = "offline", [CPU_STARTING] = "starting",
		[CPU_ONLINE] = "online", [CPU_FAILED] = "failed",
		[CPU_STOPPED] = "stopped",
	};

	return (unsigned int)state < ARRAY_SIZE(names) ? names[state] : "?";
}

static void set_online(unsigned int cpu, bool online)
{
	if (online)
		__atomic_or_fetch(&cpu_online_mask, 1ul << cpu,
				  __ATOMIC_SEQ_CST);
	else
		__atomic_and_fetch(&cpu_online_mask, ~(1ul << cpu),
				   __ATOMIC_SEQ_CST);
}

/* ------------------------------------------------------------------ */
/* Cross calls                                                         */

/* Runs the requests queued for this CPU; interrupts are off. */
static void serve_calls(void)
{
	struct call_queue *q = this_cpu_ptr(&call_queues);

	for (;;) {
		struct call_request *req = NULL;
		void (*func)(void *);
		void *info;

		raw_spin_lock(&q->lock);
		if (!list_empty(&q->requests)) {
			req = list_first_entry(&q->requests,
					       struct call_request, node);
			list_del_init(&req->node);
			q->served++;
		}
		raw_spin_unlock(&q->lock);
		if (!req)
			return;
		func = req->func;
		info = req->info;
		/*
		 * A caller that does not wait returns once taken is set and
		 * its request (on its stack) is gone: no store after that.
		 */
		if (!req->wait) {
			__atomic_store_n(&req->taken, 1, __ATOMIC_RELEASE);
			func(info);
			continue;
		}
		func(info);
		__atomic_store_n(&req->done, 1, __ATOMIC_RELEASE);
	}
}

static void queue_call(unsigned int cpu, struct call_request *req)
{
	struct call_queue *q = per_cpu_ptr(&call_queues, cpu);

	raw_spin_lock(&q->lock);
	list_add_tail(&req->node, &q->requests);
	raw_spin_unlock(&q->lock);
	arch_send_ipi(cpu, IPI_CALL_FUNC);
}

static void wait_for_call(struct call_request *req, unsigned int cpu,
			  bool wait)
{
	int *flag = wait ? &req->done : &req->taken;
	u64 start = ktime_get_ns();
	bool warned = false;

	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
		/* The target may have panicked: the stop IPI cannot get in. */
		if (READ_ONCE(stopping))
			smp_stop_this_cpu();
		/* Nor can a request to park. */
		smp_irq_exit();
		serve_calls();
		arch_cpu_relax();
		if (!warned && ktime_get_ns() - start >
				       CALL_WARN_MS * NSEC_PER_MSEC) {
			printk("warning: CPU %u has not answered a cross call "
			       "from CPU %u for %d ms\n", cpu,
			       smp_processor_id(), CALL_WARN_MS);
			warned = true;
		}
	}
}

/*
 * func(info) on the online CPUs of mask other than this one; with
 * interrupts off throughout, so this CPU stays the same.
 */
static int call_on_cpus(unsigned long mask, void (*func)(void *), void *info,
			bool wait)
{
	struct call_request reqs[NR_CPUS];
	unsigned long flags = irq_save();
	unsigned int self = smp_processor_id(), cpu;
	int n = 0;

	if (!READ_ONCE(calls_ready))
		mask = 0;
	mask &= READ_ONCE(cpu_online_mask) & ~(1ul << self);
	for_each_cpu_in(cpu, mask) {
		reqs[cpu] = (struct call_request){ .func = func, .info = info,
						   .wait = wait };
		INIT_LIST_HEAD(&reqs[cpu].node);
		queue_call(cpu, &reqs[cpu]);
		n++;
	}
	for_each_cpu_in(cpu, mask)
		wait_for_call(&reqs[cpu], cpu, wait);
	irq_restore(flags);
	return n;
}

static void check_caller(const char *what)
{
	if (in_irq())
		panic("%s() from an interrupt handler", what);
}

int smp_call_function(void (*func)(void *), void *info, bool wait)
{
	check_caller("smp_call_function");
	return call_on_cpus(~0ul, func, info, wait);
}

int smp_call_function_single(unsigned int cpu, void (*func)(void *),
			     void *info, bool wait)
{
	unsigned long flags;

	check_caller("smp_call_function_single");
	if (!cpu_online(cpu))
		return -ENODEV;
	flags = irq_save();
	if (cpu == smp_processor_id())
		func(info);
	else
		call_on_cpus(1ul << cpu, func, info, wait);
	irq_restore(flags);
	return 0;
}

void on_each_cpu(void (*func)(void *), void *info, bool wait)
{
	unsigned long flags;

	check_caller("on_each_cpu");
	flags = irq_save();
	call_on_cpus(~0ul, func, info, wait);
	func(info);
	irq_restore(flags);
}

/* ------------------------------------------------------------------ */
/* Parking the other CPUs                                              */

/* How long smp_park_others() tries before it gives up. */
#define PARK_TIMEOUT_MS 500

/* Each CPU's, in smp_park.state: asked, said no, parked, gone again. */
enum park_state { PARK_NONE, PARK_SENT, PARK_DECLINED, PARK_PARKED, PARK_LEFT };

/*
 * Spins until released. Its own frame lies below everything the CPU
 * was doing, so sp[cpu] marks where that starts on the stack.
 */
static void __noinline park_spin(struct smp_park *park, unsigned int cpu)
{
	WRITE_ONCE(park->sp[cpu], (unsigned long)__builtin_frame_address(0));
	__atomic_store_n(&park->state[cpu], PARK_PARKED, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&park->release, __ATOMIC_ACQUIRE)) {
		if (READ_ONCE(stopping))
			smp_stop_this_cpu();
		arch_cpu_relax();
	}
}

bool smp_debugger_stopped;

/* Each CPU's request to park, until it is somewhere it may. */
static struct smp_park *park_requests[NR_CPUS];

/*
 * Parks this CPU if asked to and if it may here, interrupts off: the
 * registers of the code it was running are then in its trap frame above
 * or in its callers' frames, and __builtin_unwind_init() spills the
 * callee-saved ones into this frame. Code that holds a spinlock runs
 * with preemption off: parked there, it would hold up every CPU that
 * wants the lock, perhaps with interrupts off and deaf to cross calls.
 * Such a CPU keeps the request and parks at its next preemption point.
 */
static void __noinline park_if_asked(unsigned int cpu)
{
	struct smp_park *park = park_requests[cpu];

	__builtin_unwind_init();
	if (!park)
		return;
	if (!irq_interrupted_preemptible()) {
		__atomic_store_n(&park->state[cpu], PARK_DECLINED,
				 __ATOMIC_RELEASE);
		return;
	}
	park_requests[cpu] = NULL;
	park_spin(park, cpu);
	__atomic_store_n(&park->state[cpu], PARK_LEFT, __ATOMIC_RELEASE);
}

void smp_irq_exit(void)
{
	park_if_asked(smp_processor_id());
}

void smp_preempt_point(void)
{
	unsigned long flags;

	if (!READ_ONCE(park_requests[smp_processor_id()]))
		return;
	flags = irq_save();
	park_if_asked(smp_processor_id());
	irq_restore(flags);
}

/*
 * Asks every CPU not asked yet, through its park_requests[] and a
 * reschedule IPI: it parks on its way out of the interrupt (not inside:
 * the interrupt layer holds the line's lock, which every CPU needs for
 * its next IPI), or later where it may. Returns how many are parked.
 */
static unsigned int ask_to_park(struct smp_park *park)
{
	unsigned int cpu, parked = 0;

	for_each_cpu_in(cpu, park->mask) {
		int state = __atomic_load_n(&park->state[cpu], __ATOMIC_ACQUIRE);

		if (state == PARK_PARKED) {
			parked++;
		} else if (state == PARK_NONE) {
			park->state[cpu] = PARK_SENT;
			__atomic_store_n(&park_requests[cpu], park,
					 __ATOMIC_RELEASE);
			arch_send_ipi(cpu, IPI_RESCHEDULE);
		}
	}
	return parked;
}

/* Whether some CPU is parked, or may be about to. */
static bool parking_busy(struct smp_park *park)
{
	unsigned int cpu;

	for_each_cpu_in(cpu, park->mask) {
		int state = __atomic_load_n(&park->state[cpu], __ATOMIC_ACQUIRE);

		if (state == PARK_SENT || state == PARK_PARKED)
			return true;
	}
	return false;
}

static void unpark(struct smp_park *park)
{
	unsigned int cpu;

	/* Requests not acted on yet are withdrawn. */
	for_each_cpu_in(cpu, park->mask) {
		struct smp_park *expected = park;

		__atomic_compare_exchange_n(&park_requests[cpu], &expected, NULL,
					    false, __ATOMIC_ACQ_REL,
					    __ATOMIC_RELAXED);
	}
	__atomic_store_n(&park->release, 1, __ATOMIC_RELEASE);
	/* park may live on the caller's stack: wait until it is unused. */
	while (parking_busy(park))
		arch_cpu_relax();
	irq_restore(park->flags);
}

bool smp_park_others(struct smp_park *park)
{
	u64 deadline = ktime_get_ns() + PARK_TIMEOUT_MS * NSEC_PER_MSEC;
	unsigned int self;

	check_caller("smp_park_others");
	park->flags = irq_save();
	self = smp_processor_id();
	park->mask = READ_ONCE(calls_ready) && !READ_ONCE(smp_debugger_stopped) ?
			     READ_ONCE(cpu_online_mask) & ~(1ul << self) : 0;
	park->nr = __builtin_popcountl(park->mask);
	park->release = 0;
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		park->sp[cpu] = 0;
		park->state[cpu] = PARK_NONE;
	}
	while (ask_to_park(park) < park->nr) {
		if (READ_ONCE(stopping))
			smp_stop_this_cpu();
		if (ktime_get_ns() > deadline) {
			unpark(park);
			return false;
		}
		serve_calls();
		arch_cpu_relax();
	}
	return true;
}

void smp_unpark_others(struct smp_park *park)
{
	unpark(park);
}

unsigned long smp_calls_served(unsigned int cpu)
{
	return cpu_possible(cpu) && READ_ONCE(calls_ready) ?
		       READ_ONCE(per_cpu_ptr(&call_queues, cpu)->served) : 0;
}

/* ------------------------------------------------------------------ */
/* IPIs                                                                */

void smp_send_reschedule(unsigned int cpu)
{
	if (cpu_online(cpu))
		arch_send_ipi(cpu, IPI_RESCHEDULE);
}

static enum irqreturn ipi_interrupt(unsigned int irq, void *data)
{
	(void)irq;
	/* A reschedule needs nothing more: irq_exit() switches. */
	if ((enum ipi_type)(unsigned long)data == IPI_CALL_FUNC)
		serve_calls();
	return IRQ_HANDLED;
}

void smp_stop_this_cpu(void)
{
	unsigned int cpu = smp_processor_id();

	irq_disable();
	set_online(cpu, false);
	WRITE_ONCE(cpu_states[cpu], CPU_STOPPED);
	arch_halt();
}

void smp_send_stop(void)
{
	unsigned int self = smp_processor_id(), cpu, left;
	unsigned long others = READ_ONCE(cpu_online_mask) & ~(1ul << self);
	u64 deadline;

	WRITE_ONCE(stopping, true);
	if (!others)
		return;
	for_each_cpu_in(cpu, others)
		arch_send_ipi(cpu, IPI_STOP);
	deadline = ktime_get_ns() + STOP_TIMEOUT_MS * NSEC_PER_MSEC;
	do {
		left = 0;
		for_each_cpu_in(cpu, others)
			left += READ_ONCE(cpu_states[cpu]) != CPU_STOPPED;
	} while (left && ktime_get_ns() < deadline);
	printk("smp: CPU %u stopped the other CPUs:", self);
	for_each_cpu_in(cpu, others)
		printk(" %u%s", cpu, READ_ONCE(cpu_states[cpu]) == CPU_STOPPED ?
				     "" : " (did not answer)");
	printk("\n");
}

/* ------------------------------------------------------------------ */
/* Bring-up                                                            */

void smp_secondary_start(void)
{
	unsigned int cpu = smp_processor_id();
	enum cpu_state starting = CPU_STARTING;

	/* The boot CPU may have given up on us: then stay out of the way. */
	if (!__atomic_compare_exchange_n(&cpu_states[cpu], &starting,
					 CPU_ONLINE, false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		arch_halt();
	set_online(cpu, true);
	sched_enter_cpu();
}

static bool wait_online(unsigned int cpu)
{
	u64 deadline = ktime_get_ns() + BOOT_TIMEOUT_MS * NSEC_PER_MSEC;

	while (ktime_get_ns() < deadline)
		if (cpu_online(cpu))
			return true;
	return false;
}

static void boot_cpu(unsigned int cpu)
{
	enum cpu_state starting = CPU_STARTING;
	int err = sched_init_cpu(cpu);

	if (err) {
		printk("smp: no idle thread for CPU %u (%d)\n", cpu, err);
		WRITE_ONCE(cpu_states[cpu], CPU_FAILED);
		return;
	}
	WRITE_ONCE(cpu_states[cpu], CPU_STARTING);
	err = arch_boot_cpu(cpu, sched_idle_thread(cpu));
	if (!err && wait_online(cpu))
		return;
	if (!err)
		printk("smp: CPU %u did not come online within %d ms\n", cpu,
		       BOOT_TIMEOUT_MS);
	/* Unless it made it just now, it must not come online later. */
	__atomic_compare_exchange_n(&cpu_states[cpu], &starting, CPU_FAILED,
				    false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

static void register_ipi(enum ipi_type ipi, const char *name)
{
	if (request_irq(arch_ipi_irq(ipi), ipi_interrupt, IRQF_PERCPU, name,
			(void *)(unsigned long)ipi))
		panic("smp: the %s IPI line is taken", name);
}

/*
 * Last of the boot: every subsystem is ready for threads to run
 * anywhere. The CPUs come up one at a time.
 */
static int smp_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct call_queue *q = per_cpu_ptr(&call_queues, cpu);

		spin_lock_init(&q->lock);
		INIT_LIST_HEAD(&q->requests);
	}
	WRITE_ONCE(calls_ready, true);
	register_ipi(IPI_RESCHEDULE, "ipi-resched");
	register_ipi(IPI_CALL_FUNC, "ipi-call");
	for_each_possible_cpu(cpu)
		if (cpu != 0)
			boot_cpu(cpu);
	printk("smp: %u of %u CPU%s online\n", num_online_cpus(),
	       num_possible_cpus(), num_possible_cpus() == 1 ? "" : "s");
	return 0;
}
late_initcall(smp_init);

/* ------------------------------------------------------------------ */
/* The 'cpus' command                                                  */

/* The name and pid of what cpu runs, if that thread is still listed. */
static void describe_running(unsigned int cpu, char *buf, size_t size)
{
	struct thread *running = READ_ONCE(cpu_curr[cpu]), *t;
	unsigned long flags = thread_list_lock();

	snprintf(buf, size, "-");
	for_each_thread(t)
		if (t == running) {
			snprintf(buf, size, "%s (pid %d)", t->name, t->pid);
			break;
		}
	thread_list_unlock(flags);
}

static int cmd_cpus(int argc, char **argv)
{
	unsigned int cpu;
	char running[THREAD_NAME_LEN + 16];

	(void)argv;
	if (argc != 1) {
		printk("usage: cpus\n");
		return 1;
	}
	printk("CPU STATE    %-5s     TICKS  SWITCHES READY  MOVED  CALLS  "
	       "RUNNING\n", ARCH_CPU_HWID);
	for_each_possible_cpu(cpu) {
		enum cpu_state state = smp_cpu_state(cpu);

		describe_running(cpu, running, sizeof(running));
		printk("%3u %-8s %#5lx %9lu %9lu %5u %6lu %6lu  %s\n", cpu,
		       smp_cpu_state_name(state), arch_cpu_hwid(cpu),
		       tick_count(cpu), sched_switches(cpu),
		       sched_nr_ready(cpu), sched_migrations(cpu),
		       smp_calls_served(cpu),
		       state == CPU_ONLINE ? running : "-");
	}
	printk("%u of %u CPUs online (NR_CPUS %d)\n", num_online_cpus(),
	       num_possible_cpus(), NR_CPUS);
	return 0;
}
SHELL_COMMAND("cpus", cmd_cpus, "cpus",
	      "each CPU: state, hardware ID, ticks, switches, what it runs");
