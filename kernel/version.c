/* The boot banner and the 'version' command. */
#include <kernel/version.h>
#include <kernel/arch.h>
#include <kernel/printk.h>
#include <kernel/shell.h>

const char kernel_banner[] = KERNEL_NAME " " KERNEL_VERSION " (" ARCH_NAME
	") built with gcc " __VERSION__ " on " __DATE__;

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printk("%s\n", kernel_banner);
	return 0;
}
SHELL_COMMAND("version", cmd_version, "version",
	      "print the kernel name, version, architecture and compiler");
