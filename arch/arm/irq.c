/*
 * ARM interrupt bring-up: the GIC, then the clock and tick. Runs before
 * memory management (the device region is mapped when the MMU comes
 * on); the CPU keeps IRQs masked until irq_boot_enable().
 */
#include <kernel/initcall.h>
#include <asm/gic.h>

static int arm_irq_time_init(void)
{
	gic_init();
	generic_timer_init();
	return 0;
}
early_initcall(arm_irq_time_init);
