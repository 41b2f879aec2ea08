/*
 * Shell commands. A command registers itself from its own file with
 * SHELL_COMMAND(); the shell finds every command through the
 * "shell_cmds" linker section, so adding one never edits the shell.
 */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#include <kernel/compiler.h>

struct shell_command {
	const char *name;
	const char *usage;	/* e.g. "memleak [scan|clear|dump ADDR]" */
	const char *help;	/* one line for 'help' */
	/* argv[0] is the command name; returns 0 on success. */
	int (*run)(int argc, char **argv);
};

#define SHELL_COMMAND(cmd_name, fn, usage_text, help_text)               \
	static const struct shell_command __shell_cmd_##fn __used         \
		__section("shell_cmds") __aligned(sizeof(void *)) = {      \
			.name = cmd_name,                                 \
			.usage = usage_text,                              \
			.help = help_text,                                \
			.run = fn,                                        \
		}

extern const struct shell_command __start_shell_cmds[];
extern const struct shell_command __stop_shell_cmds[];

#define for_each_shell_command(cmd) \
	for (cmd = __start_shell_cmds; cmd < __stop_shell_cmds; cmd++)

/* Looks a command up by name; NULL when there is none. */
const struct shell_command *shell_find_command(const char *name);

/*
 * Splits one line into commands separated by ';' and runs each.
 * Returns the status of the last command.
 */
int shell_run_line(const char *line);

/* Reads lines from the console and runs them, forever. */
void shell_main(void) __noreturn;

#endif
