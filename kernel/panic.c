/* panic: the last words, with a backtrace, and every other CPU stopped. */
#include <kernel/printk.h>
#include <kernel/arch.h>
#include <kernel/init.h>
#include <kernel/smp.h>
#include <kernel/stacktrace.h>
#include <kernel/export.h>

/* Set once a panic starts; from then on only the panicking CPU prints. */
static volatile int panic_in_progress;

void panic(const char *fmt, ...)
{
	va_list ap;

	arch_irq_save();
	if (__atomic_exchange_n(&panic_in_progress, 1, __ATOMIC_SEQ_CST))
		smp_stop_this_cpu();	/* panicking again: stop quietly */
	smp_send_stop();

	printk("panic: ");
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
	dump_stack();
	if (test_mode)
		arch_test_exit(1);
	arch_halt();
}
EXPORT_SYMBOL(panic);
