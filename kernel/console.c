/*
 * The console: serialises printk and shell output onto the arch UART,
 * and buffers its input in a ring filled by the UART's receive
 * interrupt (see <kernel/serial.h>), where console_getc() waits.
 *
 * Locks: out_lock (output) and rx_lock (input ring) are never held
 * together; rx_wq's lock is taken after rx_lock is released.
 */
#include <kernel/console.h>
#include <kernel/arch.h>
#include <kernel/irq.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/serial.h>
#include <kernel/shell.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/wait.h>

/*
 * Attempts at out_lock before printing without it: a CPU that stopped
 * while holding it (a panic elsewhere) must not silence this one.
 */
#define OUT_LOCK_TRIES (1u << 24)

static DEFINE_SPINLOCK(out_lock);
static int out_owner = -1;	/* CPU holding out_lock */

static DEFINE_SPINLOCK(rx_lock);
static unsigned char rx_ring[CONSOLE_RX_SIZE];
static unsigned int rx_head, rx_tail;	/* free-running; head - tail queued */
static bool rx_irq_mode;	/* the UART interrupt fills the ring */
static bool rx_throttled;	/* its interrupt is off: the ring was full */
static unsigned long rx_received, rx_lost, rx_throttle_count;
static DEFINE_WAIT_QUEUE(rx_wq);	/* readers waiting for input */

static void put_raw(char c)
{
	if (c == '\n')
		arch_console_putc('\r');
	arch_console_putc(c);
}

/*
 * Takes out_lock unless this CPU already holds it (printing from an
 * exception raised while printing); returns whether it must unlock.
 */
static bool out_lock_take(void)
{
	unsigned int cpu = smp_processor_id();

	if (READ_ONCE(out_owner) == (int)cpu)
		return false;
	for (unsigned int i = 0; i < OUT_LOCK_TRIES; i++) {
		if (spin_trylock(&out_lock)) {
			WRITE_ONCE(out_owner, (int)cpu);
			return true;
		}
		arch_cpu_relax();
	}
	return false;
}

static void out_lock_give(bool locked)
{
	if (!locked)
		return;
	WRITE_ONCE(out_owner, -1);
	spin_unlock(&out_lock);
}

void console_write(const char *s, size_t len)
{
	unsigned long flags = arch_irq_save();
	bool locked = out_lock_take();

	while (len--)
		put_raw(*s++);
	out_lock_give(locked);
	arch_irq_restore(flags);
}

void console_putc(char c)
{
	console_write(&c, 1);
}

static bool rx_full(void)
{
	return rx_head - rx_tail == CONSOLE_RX_SIZE;
}

/* Next byte from the ring, or -1; called with rx_lock held. */
static int rx_pop(void)
{
	int c;

	if (rx_head == rx_tail)
		return -1;
	c = rx_ring[rx_tail++ % CONSOLE_RX_SIZE];
	if (rx_throttled) {
		rx_throttled = false;
		arch_console_rx_irq(true);
	}
	return c;
}

void console_rx_interrupt(void)
{
	int c;

	spin_lock(&rx_lock);
	while (!rx_full() && (c = arch_console_getc()) >= 0) {
		rx_ring[rx_head++ % CONSOLE_RX_SIZE] = (unsigned char)c;
		rx_received++;
	}
	if (rx_full() && !rx_throttled) {
		/* Leave the rest in the UART until the reader makes room. */
		rx_throttled = true;
		rx_throttle_count++;
		arch_console_rx_irq(false);
	}
	spin_unlock(&rx_lock);
	wake_up(&rx_wq);
}

/* Lock-free: the arch reports overruns from inside arch_console_getc(). */
void console_rx_lost(unsigned int n)
{
	__atomic_fetch_add(&rx_lost, n, __ATOMIC_RELAXED);
}

void console_rx_ready(void)
{
	WRITE_ONCE(rx_irq_mode, true);
}

void console_rx_get_stats(struct console_rx_stats *st)
{
	unsigned long flags = spin_lock_irqsave(&rx_lock);

	st->received = rx_received;
	st->lost = rx_lost;
	st->throttled = rx_throttle_count;
	st->queued = rx_head - rx_tail;
	spin_unlock_irqrestore(&rx_lock, flags);
}

/* True when the UART interrupt can bring the next byte. */
static bool rx_can_wait(void)
{
	return READ_ONCE(rx_irq_mode) && READ_ONCE(irqs_running) &&
	       !irqs_disabled() && !in_irq();
}

static bool rx_queued(void)
{
	return READ_ONCE(rx_head) != READ_ONCE(rx_tail);
}

/*
 * Waits for input in the ring: the thread sleeps on rx_wq, or before
 * the scheduler runs, the CPU halts until an interrupt.
 */
static void rx_wait(void)
{
	unsigned long flags;
	bool empty;

	if (READ_ONCE(sched_running)) {
		wait_event(rx_wq, rx_queued());
		return;
	}
	flags = spin_lock_irqsave(&rx_lock);
	empty = rx_head == rx_tail;
	spin_unlock(&rx_lock);
	if (empty)
		arch_safe_halt();
	irq_restore(flags);
}

int console_getc(void)
{
	for (;;) {
		unsigned long flags = spin_lock_irqsave(&rx_lock);
		int c = rx_pop();

		spin_unlock_irqrestore(&rx_lock, flags);
		if (c >= 0)
			return c;
		if (rx_can_wait()) {
			rx_wait();
			continue;
		}
		/* Early boot or interrupts off: ask the UART directly. */
		c = arch_console_getc();
		if (c >= 0)
			return c;
		arch_cpu_relax();
	}
}

static int cmd_console(int argc, char **argv)
{
	struct console_rx_stats st;

	(void)argv;
	if (argc != 1) {
		printk("usage: console\n");
		return 1;
	}
	console_rx_get_stats(&st);
	printk("input: %s, ring %u of %d bytes used\n",
	       READ_ONCE(rx_irq_mode) ? "interrupt" : "polled", st.queued,
	       CONSOLE_RX_SIZE);
	printk("received %lu, lost %lu, ring full %lu times\n", st.received,
	       st.lost, st.throttled);
	return 0;
}
SHELL_COMMAND("console", cmd_console, "console",
	      "console input statistics (ring, received and lost bytes)");
