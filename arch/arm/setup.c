/* ARM early setup: console, boot info from the device tree, then the kernel. */
#include <kernel/init.h>
#include <asm/arm.h>

void arch_start(const void *dtb);

void arch_start(const void *dtb)
{
	pl011_init();
	devtree_parse(dtb);
	kernel_main();
}
