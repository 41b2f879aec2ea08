/*
 * The 8254 PIT, only as a known clock (1193182 Hz): channel 2 counts
 * down once with its output polled through port 0x61, while we watch
 * how far the TSC and the local APIC timer move meanwhile. Its own
 * interrupt (IRQ 0) is never used.
 */
#include <kernel/printk.h>
#include <kernel/time.h>
#include <asm/apic.h>
#include <asm/io.h>

#define PIT_HZ 1193182u
#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PIT_PORT_B 0x61
#define PORT_B_GATE2 0x01
#define PORT_B_SPEAKER 0x02
#define PORT_B_OUT2 0x20
/* Channel 2, low then high byte, mode 0 (interrupt on terminal count). */
#define PIT_CMD_CH2_ONESHOT 0xb0

#define PIT_LATCH (PIT_HZ * PIT_CALIBRATE_MS / 1000)
/* Polls before deciding the PIT does not count (far beyond 25 ms). */
#define PIT_MAX_POLLS 50000000u

u64 tsc_hz;

static void pit_start_oneshot(u16 count)
{
	u8 b = inb(PIT_PORT_B);

	/* Gate on, speaker off: the count starts once it is written. */
	outb(PIT_PORT_B, (b & ~PORT_B_SPEAKER) | PORT_B_GATE2);
	outb(PIT_CMD, PIT_CMD_CH2_ONESHOT);
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
}

static bool pit_wait_done(void)
{
	for (u32 i = 0; i < PIT_MAX_POLLS; i++)
		if (inb(PIT_PORT_B) & PORT_B_OUT2)
			return true;
	return false;
}

void pit_calibrate(void)
{
	u64 tsc0, tsc1;
	u32 apic0, apic1;

	lapic_write(LAPIC_TIMER_DIVIDE, LAPIC_DIVIDE_16);
	lapic_write(LAPIC_LVT_TIMER, LAPIC_LVT_MASKED);
	lapic_write(LAPIC_TIMER_INIT, 0xffffffffu);
	pit_start_oneshot(PIT_LATCH);
	tsc0 = rdtsc();
	apic0 = lapic_read(LAPIC_TIMER_CURRENT);
	if (!pit_wait_done())
		panic("PIT channel 2 never reached zero: cannot measure the "
		      "TSC and the APIC timer");
	tsc1 = rdtsc();
	apic1 = lapic_read(LAPIC_TIMER_CURRENT);
	lapic_write(LAPIC_TIMER_INIT, 0);
	tsc_hz = (tsc1 - tsc0) * PIT_HZ / PIT_LATCH;
	lapic_timer_hz = (u32)((u64)(apic0 - apic1) * PIT_HZ / PIT_LATCH);
	if (tsc_hz == 0 || lapic_timer_hz < 100u * HZ)
		panic("implausible calibration: TSC %llu Hz, APIC timer %u Hz",
		      tsc_hz, lapic_timer_hz);
}
