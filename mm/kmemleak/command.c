/*
 * The 'memleak' shell command: scans, lists the suspects (report.c),
 * dumps a block, clears reports, prints statistics and sets the
 * collector's switches. 'memleak help' lists the subcommands. Linux's
 * spellings of /sys/kernel/debug/kmemleak work too ("scan", "clear",
 * "dump=ADDR", "scan=on|off|SECS", "stack=on|off").
 */
#include <kernel/memleak.h>
#include <kernel/cycles.h>
#include <kernel/errno.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include "internal.h"

static unsigned long min_age_ms(void)
{
	return memleak.min_age_jiffies * 1000 / HZ;
}

static const char *plural(unsigned long n)
{
	return n == 1 ? "" : "s";
}

/* Valgrind's LEAK SUMMARY in one line, then the digest by site. */
static void print_tiers(void)
{
	unsigned long *n = memleak.tier_blocks, *bytes = memleak.tier_bytes;

	if (!memleak.nr_suspects)
		return;
	printk("memleak: leak summary: direct %lu block%s (%lu bytes), "
	       "indirect %lu block%s (%lu bytes), possibly lost %lu block%s "
	       "(%lu bytes)\n",
	       n[MEMLEAK_DIRECT_LEAK], plural(n[MEMLEAK_DIRECT_LEAK]),
	       bytes[MEMLEAK_DIRECT_LEAK],
	       n[MEMLEAK_INDIRECT_LEAK], plural(n[MEMLEAK_INDIRECT_LEAK]),
	       bytes[MEMLEAK_INDIRECT_LEAK],
	       n[MEMLEAK_POSSIBLY_LOST], plural(n[MEMLEAK_POSSIBLY_LOST]),
	       bytes[MEMLEAK_POSSIBLY_LOST]);
	memleak_print_digest();
}

static void print_counts(void)
{
	printk("memleak: %lu new suspected memory leaks (%lu total)\n",
	       memleak.nr_new, memleak.nr_suspects);
}

/* Also what was left out: nothing is hidden silently. */
static void print_summary(void)
{
	print_counts();
	print_tiers();
	if (memleak.nr_young)
		printk("memleak: %lu blocks younger than %lu ms not reported "
		       "(memleak age=MS)\n", memleak.nr_young, min_age_ms());
}

static int run_scan(void)
{
	int err = memleak_scan_wait();

	if (err == -EBUSY)
		printk("memleak: the collector is disabled\n");
	return err;
}

/* 'memleak': every suspect, the summary by tier and the digest by site. */
static int cmd_report(void)
{
	if (run_scan())
		return 1;
	memleak_print_suspects();
	print_summary();
	return 0;
}

/* 'memleak list': only the per-block list, as Linux's debugfs file. */
static int cmd_list(void)
{
	if (run_scan())
		return 1;
	memleak_print_suspects();
	print_counts();
	return 0;
}

static int cmd_scan(void)
{
	if (run_scan())
		return 1;
	print_summary();
	return 0;
}

static int cmd_clear(void)
{
	printk("memleak: %lu reported blocks cleared\n", memleak_clear_reports());
	return 0;
}

static int cmd_dump(const char *arg)
{
	struct memleak_block *b;
	unsigned long addr, flags;

	if (kstrtoul(arg, 16, &addr)) {
		printk("memleak dump: '%s' is not a hex address\n", arg);
		return 1;
	}
	memleak_flush_pending();
	memleak_enter(&flags);
	b = memleak_index_find(addr);
	if (b)
		memleak_dump_block(b);
	memleak_leave(flags);
	if (!b) {
		printk("memleak dump: 0x%08lx is not inside any tracked block\n",
		       addr);
		return 1;
	}
	return 0;
}

static int cmd_stats(void)
{
	memleak_flush_pending();
	printk("state:          %s\n", memleak.enabled ? "enabled" : "disabled");
	printk("blocks tracked: %lu (%lu backtraces, %lu alias offsets)\n",
	       memleak.nr_blocks, memleak.nr_traces, memleak.nr_aliases);
	printk("index:          %lu bytes of slot arrays\n",
	       memleak.index_bytes);
	printk("scans:          %lu, the last at jiffies %lu, took %llu us\n",
	       memleak.scans, memleak.scan_jiffies,
	       (unsigned long long)cycles_to_ns(memleak.scan_cycles) / 1000);
	printk("bytes scanned:  %lu (last scan)\n", memleak.bytes_scanned);
	printk("suspected:      %lu (%lu new at the last scan)\n",
	       memleak.nr_suspects, memleak.nr_new);
	printk("freed after reported: %lu\n", memleak.nr_freed_after_report);
	printk("longest irq-off window: %llu us in the last scan, %llu us in "
	       "any (%llu/%llu cycles at %llu Hz)\n",
	       (unsigned long long)cycles_to_ns(memleak.scan_irqoff_cycles) / 1000,
	       (unsigned long long)cycles_to_ns(memleak.max_irqoff_cycles) / 1000,
	       (unsigned long long)memleak.scan_irqoff_cycles,
	       (unsigned long long)memleak.max_irqoff_cycles,
	       (unsigned long long)arch_cycles_hz());
	printk("world stopped:  %lu times to confirm white blocks, the last "
	       "for %llu us (%lu bytes read), the longest %llu us; %lu blocks "
	       "found referenced then; %lu times it could not be\n",
	       memleak.pauses,
	       (unsigned long long)cycles_to_ns(memleak.pause_cycles) / 1000,
	       memleak.pause_bytes,
	       (unsigned long long)cycles_to_ns(memleak.max_pause_cycles) / 1000,
	       memleak.nr_rescued, memleak.pause_failures);
	printk("stack scanning: %s, pointers: %s, minimum age: %lu ms\n",
	       memleak.stack_scan ? "on" : "off",
	       memleak.interior ? "any interior pointer" : "start or alias",
	       min_age_ms());
	return 0;
}

static int set_switch(const char *what, const char *value, bool *flag)
{
	if (strcmp(value, "on") == 0)
		*flag = true;
	else if (strcmp(value, "off") == 0)
		*flag = false;
	else
		return -EINVAL;
	printk("memleak: %s %s\n", what, value);
	return 0;
}

static int cmd_off(void)
{
	unsigned long flags;

	memleak_enter(&flags);
	memleak_disable("turned off by the user");
	memleak_leave(flags);
	return 0;
}

/* The minimum age of a reported block, in ms (rounded up to a jiffy). */
static int set_min_age(const char *value)
{
	unsigned long ms;

	if (kstrtoul(value, 10, &ms) || ms > 24UL * 3600 * 1000) {
		printk("memleak age: '%s' is not a number of milliseconds "
		       "(0 .. 86400000)\n", value);
		return 1;
	}
	memleak.min_age_jiffies = DIV_ROUND_UP(ms * HZ, 1000);
	printk("memleak: minimum age %lu ms\n", min_age_ms());
	return 0;
}

static int cmd_option(const char *arg)
{
	if (strncmp(arg, "stack=", 6) == 0)
		return set_switch("stack scanning", arg + 6, &memleak.stack_scan);
	if (strncmp(arg, "interior=", 9) == 0)
		return set_switch("interior pointers", arg + 9,
				  &memleak.interior);
	if (strncmp(arg, "scan=", 5) == 0)
		return memleak_set_auto_scan(arg + 5);
	if (strncmp(arg, "age=", 4) == 0)
		return set_min_age(arg + 4);
	if (strncmp(arg, "dump=", 5) == 0)
		return cmd_dump(arg + 5);
	return -EINVAL;
}

static int usage(void)
{
	printk("usage: memleak [scan | list | clear | dump ADDR | dump=ADDR | "
	       "stats | off |\n"
	       "               scan=on|off|SECS | stack=on|off | "
	       "interior=on|off | age=MS]\n");
	return 1;
}

static int run_subcommand(int argc, char **argv)
{
	if (argc == 1)
		return cmd_report();
	if (argc == 3 && strcmp(argv[1], "dump") == 0)
		return cmd_dump(argv[2]);
	if (argc != 2)
		return usage();
	if (strcmp(argv[1], "scan") == 0)
		return cmd_scan();
	if (strcmp(argv[1], "list") == 0)
		return cmd_list();
	if (strcmp(argv[1], "clear") == 0)
		return cmd_clear();
	if (strcmp(argv[1], "stats") == 0)
		return cmd_stats();
	if (strcmp(argv[1], "off") == 0)
		return cmd_off();
	if (strchr(argv[1], '=')) {
		int err = cmd_option(argv[1]);

		if (err != -EINVAL)
			return err ? 1 : 0;
	}
	return usage();
}
int memleak_command(int argc, char **argv)
{
	int ret = run_subcommand(argc, argv);

	/* The report held block addresses in frames now dead. */
	memleak_wipe_stack();
	return ret;
}
SHELL_COMMAND("memleak", memleak_command,
	      "memleak [scan|list|clear|dump ADDR|dump=ADDR|stats|off|"
	      "scan=on|off|SECS|stack=on|off|interior=on|off|age=MS]",
	      "scan for memory leaks and list the suspected ones");
