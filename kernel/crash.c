/* The 'crash' command: takes the exception and panic paths on purpose. */
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/string.h>

static int cmd_crash(int argc, char **argv)
{
	if (argc != 2)
		goto usage;
	if (strcmp(argv[1], "undef") == 0) {
		printk("crash: executing an undefined instruction\n");
		__builtin_trap();
	}
	if (strcmp(argv[1], "panic") == 0)
		panic("crash command");
usage:
	printk("usage: crash undef|panic\n");
	return 1;
}
SHELL_COMMAND("crash", cmd_crash, "crash undef|panic",
	      "crash the kernel on purpose (to see the exception report)");
