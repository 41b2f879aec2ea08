/* Shell commands for modules: insmod, rmmod, lsmod (docs/modules.md). */
#include <kernel/module.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/string.h>

static int cmd_insmod(int argc, char **argv)
{
	if (argc < 2) {
		printk("usage: insmod NAME [PARAM=VALUE...]\n");
		return 1;
	}
	return module_load(argv[1], argc - 2, argv + 2) ? 1 : 0;
}
SHELL_COMMAND("insmod", cmd_insmod, "insmod NAME [PARAM=VALUE...]",
	      "load a module from the boot archive and run its init");

static int cmd_rmmod(int argc, char **argv)
{
	if (argc != 2) {
		printk("usage: rmmod NAME\n");
		return 1;
	}
	return module_unload(argv[1]) ? 1 : 0;
}
SHELL_COMMAND("rmmod", cmd_rmmod, "rmmod NAME",
	      "run a module's exit and free it (refused while in use)");

static int cmd_lsmod(int argc, char **argv)
{
	if (argc == 1) {
		module_print_list();
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "-a") == 0) {
		module_print_archive();
		return 0;
	}
	printk("usage: lsmod [-a]\n");
	return 1;
}
SHELL_COMMAND("lsmod", cmd_lsmod, "lsmod [-a]",
	      "list loaded modules (name, size, users, state); -a: the boot archive's");
