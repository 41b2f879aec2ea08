/*
 * The 'memleak' shell command: runs the subcommand named by its first
 * argument. Each subcommand registers itself with MEMLEAK_COMMAND()
 * from the file that implements it; the ones here scan, list the
 * suspects (report.c), dump a block, clear reports, print statistics
 * and set the collector's switches. 'memleak help' lists them all.
 * "memleak NAME=VALUE" is "memleak NAME VALUE", so Linux's spellings of
 * /sys/kernel/debug/kmemleak work too ("scan", "clear", "dump=ADDR",
 * "scan=on|off|SECS", "stack=on|off").
 *
 * Locking: none of its own; the subcommands take memleak_lock.
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
	if (memleak.nr_suppressed)
		printk("memleak: %lu suspect%s (%lu bytes) suppressed (memleak "
		       "suppressions)\n", memleak.nr_suppressed,
		       plural(memleak.nr_suppressed), memleak.suppressed_bytes);
	if (memleak.nr_young)
		printk("memleak: %lu blocks younger than %lu ms not reported "
		       "(memleak age=MS)\n", memleak.nr_young, min_age_ms());
	if (memleak.nr_type_findings)
		printk("memleak: %lu pointer%s of typed blocks point%s where "
		       "their type forbids\n", memleak.nr_type_findings,
		       plural(memleak.nr_type_findings),
		       memleak.nr_type_findings == 1 ? "s" : "");
}

void memleak_say_disabled(const char *cmd)
{
	printk("memleak%s%s: the collector is disabled (%s)\n",
	       cmd ? " " : "", cmd ? cmd : "",
	       memleak.disabled_why ? memleak.disabled_why : "not started");
}

int memleak_scan_and_claim(const char *cmd)
{
	for (int tries = 0; tries < 100; tries++) {
		if (memleak_scan_wait()) {
			memleak_say_disabled(cmd);
			return -EBUSY;
		}
		if (memleak_claim_scan())
			return 0;
	}
	printk("memleak %s: other scans keep running, try again\n", cmd);
	return -EBUSY;
}

static int run_scan(void)
{
	int err = memleak_scan_wait();

	if (err == -EBUSY)
		memleak_say_disabled(NULL);
	return err;
}

static int scan_and_list(void (*print_after)(void))
{
	if (run_scan())
		return 1;
	memleak_print_suspects();
	print_after();
	return 0;
}

/*
 * 'memleak': every suspect, the pointers typed blocks should not hold,
 * the summary by tier and the digest by site.
 */
static void print_findings_and_summary(void)
{
	memleak_print_type_findings();
	print_summary();
}

static int report_all(void)
{
	return scan_and_list(print_findings_and_summary);
}

/* 'memleak list': only the per-block list, as Linux's debugfs file. */
static int cmd_list(int argc, char **argv)
{
	(void)argc, (void)argv;
	return scan_and_list(print_counts);
}

/* 'memleak scan': a scan and its summary; with an argument, auto scans. */
static int cmd_scan(int argc, char **argv)
{
	if (argc == 2) {
		if (memleak_set_auto_scan(argv[1]) == 0)
			return 0;
		printk("memleak scan: '%s' is not on, off or a number of "
		       "seconds\n", argv[1]);
		return 1;
	}
	if (run_scan())
		return 1;
	print_summary();
	return 0;
}

static int cmd_clear(int argc, char **argv)
{
	(void)argc, (void)argv;
	printk("memleak: %lu reported blocks cleared\n", memleak_clear_reports());
	return 0;
}

static int cmd_dump(int argc, char **argv)
{
	struct memleak_block *b;
	unsigned long addr, flags;

	(void)argc;
	if (kstrtoul(argv[1], 16, &addr)) {
		printk("memleak dump: '%s' is not a hex address\n", argv[1]);
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

/* The last scan's time, step by step (a phase may be 0 us). */
static void print_phases(void)
{
	printk("scan phases:   ");
	for (unsigned int i = 0; i < MEMLEAK_NR_PHASES; i++) {
		u64 ns = cycles_to_ns(memleak.phase_cycles[i]);

		printk(" %s %llu us%s", memleak_phase_names[i],
		       (unsigned long long)ns / 1000,
		       i + 1 < MEMLEAK_NR_PHASES ? "," : "\n");
	}
}

/*
 * The collector's memory, part by part, and what the records cost per
 * tracked slab block (in tenths of a byte): issue 15's figure.
 */
static void print_metadata(void)
{
	struct memleak_metadata m;
	unsigned long tenths;

	memleak_metadata(&m);
	tenths = m.slab_blocks ? m.records * 10 / m.slab_blocks : 0;
	printk("metadata:       %lu bytes: records %lu (%lu.%lu per tracked "
	       "slab block, %lu blocks), tables %lu, blocks outside slabs "
	       "%lu, traces %lu, scan areas %lu, queues %lu, checksums %lu, "
	       "scan bitmaps %lu\n",
	       memleak_metadata_bytes(), m.records, tenths / 10, tenths % 10,
	       m.slab_blocks, m.tables, m.tree, m.traces, m.extra, m.queues,
	       m.checksums, m.scan);
}

static int cmd_stats(int argc, char **argv)
{
	(void)argc, (void)argv;
	memleak_flush_pending();
	if (memleak.enabled)
		printk("state:          enabled\n");
	else
		printk("state:          disabled (%s)\n",
		       memleak.disabled_why ? memleak.disabled_why :
					      "not started");
	printk("blocks tracked: %lu (%lu backtraces, %lu alias offsets)\n",
	       memleak.nr_blocks, memleak.nr_traces, memleak.nr_aliases);
	printk("index:          %lu bytes of slab records, %lu of page tables "
	       "and bits\n", memleak.index_bytes,
	       memleak_index_table_pages() * PAGE_SIZE);
	print_metadata();
	printk("checksums:      %lu blocks (white at a scan), %lu bytes\n",
	       memleak_checksum_entries(),
	       memleak_checksum_pages() * PAGE_SIZE);
	printk("scans:          %lu, the last at jiffies %lu, took %llu us\n",
	       memleak.scans, memleak.scan_jiffies,
	       (unsigned long long)cycles_to_ns(memleak.scan_cycles) / 1000);
	print_phases();
	printk("bytes scanned:  %lu (last scan): %lu precisely (typed blocks' "
	       "pointer fields), %lu conservatively; %lu bytes of typed "
	       "blocks' data skipped; typed scanning %s\n",
	       memleak.bytes_scanned, memleak.bytes_precise,
	       memleak.bytes_scanned - memleak.bytes_precise,
	       memleak.bytes_skipped, memleak.typed ? "on" : "off");
	memleak_print_typed_share();
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
	if (memleak.pause_knew_writes)
		printk("pause rereads:  only the pages written since the mark "
		       "began: %lu blocks passed over in the last (%lu by "
		       "their read bits alone)\n",
		       memleak.pause_unwritten, memleak.pause_passed);
	else
		printk("pause rereads:  everything the mark read (written "
		       "pages not tracked)\n");
	printk("stack scanning: %s, pointers: %s, minimum age: %lu ms\n",
	       memleak.stack_scan ? "on" : "off",
	       memleak.interior ? "any interior pointer" : "start or alias",
	       min_age_ms());
	return 0;
}

/* "on" or "off" into *flag; 1 (and a message) for anything else. */
static int set_switch(const char *what, const char *value, bool *flag)
{
	if (strcmp(value, "on") == 0) {
		*flag = true;
	} else if (strcmp(value, "off") == 0) {
		*flag = false;
	} else {
		printk("memleak: '%s' is not on or off\n", value);
		return 1;
	}
	printk("memleak: %s %s\n", what, value);
	return 0;
}

static int cmd_stack(int argc, char **argv)
{
	(void)argc;
	return set_switch("stack scanning", argv[1], &memleak.stack_scan);
}

static int cmd_interior(int argc, char **argv)
{
	(void)argc;
	return set_switch("interior pointers", argv[1], &memleak.interior);
}

static int cmd_off(int argc, char **argv)
{
	unsigned long flags;

	(void)argc, (void)argv;
	memleak_enter(&flags);
	memleak_disable("turned off by the user");
	memleak_leave(flags);
	return 0;
}

/* The minimum age of a reported block, in ms (rounded up to a jiffy). */
static int cmd_age(int argc, char **argv)
{
	unsigned long ms;

	(void)argc;
	if (kstrtoul(argv[1], 10, &ms) || ms > 24UL * 3600 * 1000) {
		printk("memleak age: '%s' is not a number of milliseconds "
		       "(0 .. 86400000)\n", argv[1]);
		return 1;
	}
	memleak.min_age_jiffies = DIV_ROUND_UP(ms * HZ, 1000);
	printk("memleak: minimum age %lu ms\n", min_age_ms());
	return 0;
}

#define for_each_memleak_command(c) \
	for (c = __start_memleak_cmds; c < __stop_memleak_cmds; c++)

static void print_usage_of(const struct memleak_command *c)
{
	printk("usage: memleak %s%s%s\n", c->name, *c->args ? " " : "",
	       c->args);
}

static int cmd_help(int argc, char **argv)
{
	const struct memleak_command *c;
	char line[40];

	(void)argc, (void)argv;
	printk("memleak                   scan, list the suspects, summary "
	       "and digest\n");
	for_each_memleak_command(c) {
		snprintf(line, sizeof(line), "memleak %s %s", c->name, c->args);
		printk("%-25s %s\n", line, c->help);
	}
	printk("('memleak NAME=VALUE' is 'memleak NAME VALUE')\n");
	return 0;
}

MEMLEAK_COMMAND("scan", cmd_scan, 0, 1, "[on|off|SECS]",
		"scan and print the summary; or background scans");
MEMLEAK_COMMAND("list", cmd_list, 0, 0, "",
		"scan and list every suspect, as Linux's debugfs file");
MEMLEAK_COMMAND("clear", cmd_clear, 0, 0, "",
		"hide the suspects reported so far");
MEMLEAK_COMMAND("dump", cmd_dump, 1, 1, "ADDR",
		"print the tracked block holding ADDR");
MEMLEAK_COMMAND("stats", cmd_stats, 0, 0, "", "the collector's statistics");
MEMLEAK_COMMAND("off", cmd_off, 0, 0, "", "turn the collector off for good");
MEMLEAK_COMMAND("stack", cmd_stack, 1, 1, "on|off",
		"scan thread stacks as roots");
MEMLEAK_COMMAND("interior", cmd_interior, 1, 1, "on|off",
		"any interior pointer keeps a block (else: start, alias)");
MEMLEAK_COMMAND("age", cmd_age, 1, 1, "MS",
		"report only blocks at least MS milliseconds old");
MEMLEAK_COMMAND("help", cmd_help, 0, 0, "", "this list");

static const struct memleak_command *find_command(const char *name)
{
	const struct memleak_command *c;

	for_each_memleak_command(c)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static int usage(void)
{
	printk("usage: memleak [SUBCOMMAND [ARG...]] ('memleak help' lists "
	       "them)\n");
	return 1;
}

/* argv[0] is the subcommand: "NAME" or "NAME=VALUE". */
static int run_subcommand(int argc, char **argv)
{
	const struct memleak_command *c;
	char *value = strchr(argv[0], '=');
	char *split[2];

	if (value && argc == 1) {
		*value = '\0';
		split[0] = argv[0];
		split[1] = value + 1;
		argv = split;
		argc = 2;
	}
	c = find_command(argv[0]);
	if (!c) {
		printk("memleak: no subcommand '%s'\n", argv[0]);
		return usage();
	}
	if (argc - 1 < c->min_args || argc - 1 > c->max_args) {
		print_usage_of(c);
		return 1;
	}
	return c->run(argc, argv);
}

static int memleak_command(int argc, char **argv)
{
	/* The shell wipes the dead frames, which held block addresses. */
	return argc == 1 ? report_all() : run_subcommand(argc - 1, argv + 1);
}
SHELL_COMMAND("memleak", memleak_command, "memleak [SUBCOMMAND [ARG...]]",
	      "scan for memory leaks and list the suspected ones "
	      "('memleak help')");
