/* The generic boot sequence: initcalls, autorun commands, then the shell. */
#include <kernel/init.h>
#include <kernel/initcall.h>
#include <kernel/bootinfo.h>
#include <kernel/cmdline.h>
#include <kernel/mm.h>
#include <kernel/module.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/string.h>
#include <kernel/version.h>
#include <kernel/mmu.h>

bool test_mode;

#define AUTORUN_MAX 512

/* Runs the commands of autorun="cmd1;cmd2" before the prompt appears. */
static void run_autorun(void)
{
	static char commands[AUTORUN_MAX];
	int found = cmdline_get(boot_info.cmdline, "autorun", commands,
				sizeof(commands));

	if (found < 0) {
		printk("autorun: value too long or unclosed quote, ignored\n");
		return;
	}
	if (found == 0 || commands[0] == '\0')
		return;
	printk("autorun: %s\n", commands);
	shell_run_line(commands);
}

void kernel_main(void)
{
	if (boot_info.cmdline[0] == '\0')
		strlcpy(boot_info.cmdline, CONFIG_CMDLINE_DEFAULT,
			sizeof(boot_info.cmdline));
	test_mode = cmdline_has(boot_info.cmdline, "test");

	printk("%s\n", kernel_banner);
	printk("command line: %s\n", boot_info.cmdline);

	do_initcalls(INITCALL_EARLY);
	mm_init();
	setup_per_cpu_areas();
	paging_init();
	for (int level = INITCALL_CORE; level <= INITCALL_LATE; level++)
		do_initcalls(level);
	/* Last: every CPU is up (smp_init is a late initcall). */
	free_initmem();
	/* The freed code was overwritten: instruction fetch must see that. */
	module_arch_sync_code(__init_begin, __init_end - __init_begin);

	run_autorun();
	shell_main();
}
