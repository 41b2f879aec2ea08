/* The 'poweroff' and 'reboot' commands. */
#include <kernel/arch.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/shell.h>

static int cmd_poweroff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("powering off\n");
	/* Tests tell a clean exit from a crash by the test device's status. */
	if (test_mode)
		arch_test_exit(0);
	arch_poweroff();
}
SHELL_COMMAND("poweroff", cmd_poweroff, "poweroff",
	      "power the machine off (QEMU exits with status 0)");

static int cmd_reboot(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("rebooting\n");
	arch_reboot();
}
SHELL_COMMAND("reboot", cmd_reboot, "reboot", "reset the machine");
