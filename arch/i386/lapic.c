/*
 * The local APIC (xAPIC, memory-mapped at the address in the APIC base
 * MSR): one per CPU at the same address, each CPU seeing its own. It
 * delivers the I/O APIC's interrupts, runs the per-CPU tick, and will
 * carry the inter-processor interrupts.
 */
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/smp.h>
#include <kernel/time.h>
#include <asm/apic.h>
#include <asm/irq.h>

#define MSR_APIC_BASE 0x1b
#define APIC_BASE_ENABLE (1u << 11)
#define APIC_BASE_ADDR_MASK 0xfffff000u

#define LAPIC_ID 0x20
#define LAPIC_TPR 0x80
#define LAPIC_EOI 0xb0
#define LAPIC_SVR 0xf0
#define LAPIC_ESR 0x280
#define LAPIC_LVT_THERMAL 0x330
#define LAPIC_LVT_PERF 0x340
#define LAPIC_LVT_LINT0 0x350
#define LAPIC_LVT_ERROR 0x370

#define SVR_ENABLE (1u << 8)

static volatile u32 *lapic_base;
u32 lapic_timer_hz;

u32 lapic_read(u32 reg)
{
	return lapic_base[reg / 4];
}

void lapic_write(u32 reg, u32 val)
{
	lapic_base[reg / 4] = val;
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

u32 lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

/* Finds the APIC through CPUID and its MSR, and switches it on. */
static void lapic_find(void)
{
	u32 a, b, c, d;
	u64 base;

	cpuid(1, &a, &b, &c, &d);
	if (!(d & CPUID1_EDX_APIC) || !(d & CPUID1_EDX_MSR))
		panic("this CPU has no local APIC (CPUID 1 edx=%08x); "
		      "the kernel needs one", d);
	base = rdmsr(MSR_APIC_BASE);
	if (!(base & APIC_BASE_ENABLE))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_ENABLE);
	lapic_base = (volatile u32 *)(unsigned long)(base & APIC_BASE_ADDR_MASK);
}

/* The APIC found an error (a bad vector, a lost message): say which. */
static enum irqreturn lapic_error(unsigned int irq, void *data)
{
	u32 esr;

	(void)irq;
	(void)data;
	lapic_write(LAPIC_ESR, 0);	/* latch the current errors */
	esr = lapic_read(LAPIC_ESR);
	printk("warning: local APIC %u error, ESR %08x\n", lapic_id(), esr);
	return IRQ_HANDLED;
}

void lapic_cpu_init(void)
{
	if (!lapic_base)
		lapic_find();
	lapic_write(LAPIC_TPR, 0);
	lapic_write(LAPIC_LVT_LINT0, LAPIC_LVT_MASKED);	/* the 8259s' path */
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED);
	lapic_write(LAPIC_LVT_THERMAL, LAPIC_LVT_MASKED);
	lapic_write(LAPIC_LVT_PERF, LAPIC_LVT_MASKED);
	lapic_write(LAPIC_LVT_ERROR, VECTOR_LAPIC_ERROR);
	lapic_write(LAPIC_ESR, 0);
	lapic_write(LAPIC_ESR, 0);
	lapic_write(LAPIC_SVR, SVR_ENABLE | VECTOR_SPURIOUS);
	if (smp_processor_id() == 0)
		request_irq(IRQ_LAPIC_ERROR, lapic_error, IRQF_PERCPU,
			    "lapic-error", NULL);
}

static enum irqreturn lapic_timer_interrupt(unsigned int irq, void *data)
{
	(void)irq;
	(void)data;
	timer_tick(1);
	return IRQ_HANDLED;
}

void lapic_timer_cpu_start(void)
{
	u32 count = lapic_timer_hz / HZ;

	if (count == 0)
		panic("local APIC timer not calibrated (%u Hz)", lapic_timer_hz);
	if (smp_processor_id() == 0) {
		if (request_irq(IRQ_LAPIC_TIMER, lapic_timer_interrupt,
				IRQF_PERCPU | IRQF_SHARED, "timer", NULL))
			panic("no tick: the timer interrupt is taken");
		tick_irq = IRQ_LAPIC_TIMER;
	}
	lapic_write(LAPIC_TIMER_DIVIDE, LAPIC_DIVIDE_16);
	lapic_write(LAPIC_LVT_TIMER, VECTOR_LAPIC_TIMER | LAPIC_TIMER_PERIODIC);
	lapic_write(LAPIC_TIMER_INIT, count);
}
