/*
 * The 'crash' debug command (CONFIG_DEBUG_CRASH): takes the exception
 * and panic paths on purpose, also on another CPU, to see the report
 * and the other CPUs stopped (tests/boot/exceptions.t, smp.t). Public
 * interfaces only (panic(), smp_call_function_single()); no state, so
 * no locking.
 */
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/smp.h>
#include <kernel/string.h>

static void crash_here(void *unused)
{
	(void)unused;
	panic("crash command on CPU %u", smp_processor_id());
}

static int crash_on_cpu(const char *arg)
{
	unsigned long cpu;

	if (kstrtoul(arg, 10, &cpu) || !cpu_online(cpu)) {
		printk("crash: '%s' is not an online CPU (%u online)\n", arg,
		       num_online_cpus());
		return 1;
	}
	printk("crash: panicking on CPU %lu\n", cpu);
	smp_call_function_single(cpu, crash_here, NULL, true);
	return 1;	/* not reached */
}

static int cmd_crash(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "cpu") == 0)
		return crash_on_cpu(argv[2]);
	if (argc != 2)
		goto usage;
	if (strcmp(argv[1], "undef") == 0) {
		printk("crash: executing an undefined instruction\n");
		__builtin_trap();
	}
	if (strcmp(argv[1], "panic") == 0)
		panic("crash command");
usage:
	printk("usage: crash undef|panic|cpu N\n");
	return 1;
}
SHELL_COMMAND("crash", cmd_crash, "crash undef|panic|cpu N",
	      "crash the kernel on purpose (to see the exception report)");
