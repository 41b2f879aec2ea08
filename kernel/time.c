/* The 'uptime' command. */
#include <kernel/printk.h>
#include <kernel/shell.h>

static int cmd_uptime(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	/* jiffies arrive with the timer interrupt (the kernel-core work). */
	printk("uptime: not available yet, this kernel has no timer\n");
	return 1;
}
SHELL_COMMAND("uptime", cmd_uptime, "uptime", "time since boot");
