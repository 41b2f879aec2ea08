/*
 * The i386 interrupt hardware, for the arch files only: the legacy
 * 8259 PICs (masked), the local APIC of each CPU (xAPIC, MMIO), the
 * I/O APIC that routes device lines, and the PIT used to measure the
 * TSC and the local APIC timer.
 */
#ifndef ASM_APIC_H
#define ASM_APIC_H

#include <kernel/types.h>

/* QEMU's (and most PCs') I/O APIC; real hardware lists it in ACPI MADT. */
#define IOAPIC_BASE 0xfec00000u

/* Remaps the 8259s to vectors 0x20-0x2f and masks every line. */
void pic_init(void);
/* An IRQ 15 spurious interrupt still needs an EOI at the master. */
void pic_spurious_eoi(unsigned int vector);

/*
 * Enables this CPU's local APIC (spurious vector, error vector, LINT0
 * masked). Every CPU calls it once; the boot CPU first.
 */
void lapic_cpu_init(void);
void lapic_eoi(void);
/* This CPU's APIC ID. */
u32 lapic_id(void);
/* Starts this CPU's periodic tick at HZ (needs pit_calibrate() first). */
void lapic_timer_cpu_start(void);
/* Timer counts per second at the divider lapic_timer_cpu_start() uses. */
extern u32 lapic_timer_hz;
/* Local APIC register access, for the timer code and SMP bring-up. */
u32 lapic_read(u32 reg);
void lapic_write(u32 reg, u32 val);

#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CURRENT 0x390
#define LAPIC_TIMER_DIVIDE 0x3e0
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_LVT_MASKED (1u << 16)
#define LAPIC_TIMER_PERIODIC (1u << 17)
#define LAPIC_DIVIDE_16 0x3

/* Finds the I/O APIC, masks every input and points it at vector 0x30+n. */
void ioapic_init(void);
/* Number of inputs (GSIs) the I/O APIC has. */
unsigned int ioapic_nr_inputs(void);
void ioapic_mask(unsigned int gsi);
void ioapic_unmask(unsigned int gsi);
/* The GSI an ISA IRQ arrives on (QEMU: IRQ 0 on GSI 2, others same). */
unsigned int isa_irq_to_gsi(unsigned int isa_irq);

/*
 * Measures the TSC and the local APIC timer (divide by 16) against the
 * PIT over PIT_CALIBRATE_MS; sets tsc_hz and lapic_timer_hz.
 */
#define PIT_CALIBRATE_MS 25
void pit_calibrate(void);
extern u64 tsc_hz;

static inline u64 rdtsc(void)
{
	u64 v;

	__asm__ __volatile__("rdtsc" : "=A"(v));
	return v;
}

static inline u64 rdmsr(u32 msr)
{
	u64 v;

	__asm__ __volatile__("rdmsr" : "=A"(v) : "c"(msr));
	return v;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ __volatile__("wrmsr" : : "c"(msr), "A"(v));
}

static inline void cpuid(u32 leaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ __volatile__("cpuid"
			     : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			     : "a"(leaf), "c"(0));
}

#define CPUID1_EDX_TSC (1u << 4)
#define CPUID1_EDX_MSR (1u << 5)
#define CPUID1_EDX_APIC (1u << 9)

#endif
