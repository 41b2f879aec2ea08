/*
 * The ARM generic timer: CNTPCT (at CNTFRQ, 62.5 MHz on QEMU) is the
 * clock, and each CPU's non-secure physical timer (PPI 14, interrupt
 * 30) is its tick. The virtual timer (PPI 11, interrupt 27) would do as
 * well; with no hypervisor below us the two count alike. The compare
 * value advances by whole periods, so the tick does not drift, and a
 * late interrupt tells timer_tick() how many periods went by.
 */
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <asm/gic.h>
#include <asm/irq.h>

#define CNTP_CTL_ENABLE 1u
#define CNTP_CTL_IMASK 2u

static u32 timer_freq;
static u64 period;		/* counter cycles per tick */
static u64 next_deadline[NR_CPUS];

static u32 read_cntfrq(void)
{
	u32 v;

	__asm__ __volatile__("mrc p15, 0, %0, c14, c0, 0" : "=r"(v));
	return v;
}

u64 arch_clock_read(void)
{
	u32 lo, hi;

	__asm__ __volatile__("isb\n\tmrrc p15, 0, %0, %1, c14"
			     : "=r"(lo), "=r"(hi) : : "memory");
	return ((u64)hi << 32) | lo;
}

static void write_cntp_cval(u64 v)
{
	__asm__ __volatile__("mcrr p15, 2, %0, %1, c14"
			     : : "r"((u32)v), "r"((u32)(v >> 32)));
}

static void write_cntp_ctl(u32 v)
{
	__asm__ __volatile__("mcr p15, 0, %0, c14, c2, 1\n\tisb" : : "r"(v));
}

static enum irqreturn timer_interrupt(unsigned int irq, void *data)
{
	unsigned int cpu = smp_processor_id();
	u64 now = arch_clock_read();
	u64 missed = 0;

	(void)irq;
	(void)data;
	if (now < next_deadline[cpu])
		return IRQ_NONE;	/* shared with a test handler */
	missed = (now - next_deadline[cpu]) / period;
	next_deadline[cpu] += (missed + 1) * period;
	write_cntp_cval(next_deadline[cpu]);
	timer_tick((unsigned int)missed + 1);
	return IRQ_HANDLED;
}

void generic_timer_cpu_start(void)
{
	unsigned int cpu = smp_processor_id();

	next_deadline[cpu] = arch_clock_read() + period;
	write_cntp_cval(next_deadline[cpu]);
	write_cntp_ctl(CNTP_CTL_ENABLE);
	arch_irq_unmask(IRQ_TIMER_PHYS);	/* banked: this CPU's PPI */
}

void generic_timer_init(void)
{
	timer_freq = read_cntfrq();
	if (timer_freq < 100u * HZ)
		panic("generic timer frequency %u Hz is unusable (CNTFRQ "
		      "not set?)", timer_freq);
	period = timer_freq / HZ;
	clock_register(timer_freq);
	write_cntp_ctl(CNTP_CTL_IMASK);
	if (request_irq(IRQ_TIMER_PHYS, timer_interrupt,
			IRQF_PERCPU | IRQF_SHARED, "timer", NULL))
		panic("no tick: the timer interrupt is taken");
	tick_irq = IRQ_TIMER_PHYS;
	generic_timer_cpu_start();
	printk("time: generic timer %u kHz, tick %d Hz (interrupt %d)\n",
	       timer_freq / 1000, HZ, IRQ_TIMER_PHYS);
}
