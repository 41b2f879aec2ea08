/*
 * The leak collector, part 3: what users see. The 'memleak' shell
 * command runs scans and prints suspected leaks in the format of Linux's
 * /sys/kernel/debug/kmemleak, which kernel developers already read:
 *
 *   unreferenced object 0x4f0c2e40 (size 32):
 *     comm "shell", pid 2, jiffies 1234 (age 5.120s)
 *     hex dump (first 32 bytes):
 *       6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b 6b  kkkkkkkkkkkkkkkk
 *       ...
 *     backtrace:
 *       [<40104a2c>] kmalloc+0x30/0x90
 *       [<4010c1f0>] leaktest_orphans+0x24/0x80
 */
#include <kernel/memleak.h>
#include <kernel/cycles.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include "memleak.h"

#define HEX_DUMP_BYTES 32
#define HEX_ROW_BYTES 16

/* A copy of what is printed about a block, taken under memleak_lock. */
struct block_snapshot {
	unsigned long start;
	size_t size;
	unsigned long jiffies;
	struct memleak_trace *trace;	/* holds a reference */
	unsigned int nr_bytes;
	u8 bytes[HEX_DUMP_BYTES];
};

/* memleak_lock held; the snapshot must be released with release_snapshot(). */
static void take_snapshot(const struct memleak_block *b,
			  struct block_snapshot *s)
{
	s->start = b->start;
	s->size = b->size;
	s->jiffies = b->jiffies;
	s->trace = b->trace;
	memleak_trace_get(s->trace);
	s->nr_bytes = min(b->size, (size_t)HEX_DUMP_BYTES);
	memcpy(s->bytes, (const void *)b->start, s->nr_bytes);
}

static void release_snapshot(struct block_snapshot *s)
{
	unsigned long flags;

	memleak_enter(&flags);
	memleak_trace_put(s->trace);
	memleak_leave(flags);
}

static void print_hex_row(const u8 *bytes, unsigned int n)
{
	char line[HEX_ROW_BYTES * 3 + 2 + HEX_ROW_BYTES + 1];
	unsigned int pos = 0;

	for (unsigned int i = 0; i < HEX_ROW_BYTES; i++)
		pos += snprintf(line + pos, sizeof(line) - pos,
				i < n ? "%02x " : "   ", i < n ? bytes[i] : 0);
	line[pos++] = ' ';
	for (unsigned int i = 0; i < n; i++)
		line[pos++] = bytes[i] >= 0x20 && bytes[i] < 0x7f ? bytes[i] : '.';
	line[pos] = '\0';
	printk("    %s\n", line);
}

/* Seconds and milliseconds since j, as "S.SSS". */
static void print_age(unsigned long j)
{
	unsigned long ms = (jiffies - j) * 1000 / HZ;

	printk("%lu.%03lus", ms / 1000, ms % 1000);
}

static void print_snapshot(const struct block_snapshot *s)
{
	const struct memleak_trace *t = s->trace;

	printk("unreferenced object 0x%08lx (size %zu):\n", s->start, s->size);
	printk("  comm \"%s\", pid %d, jiffies %lu (age ", t->comm, t->pid,
	       s->jiffies);
	print_age(s->jiffies);
	printk(")\n  hex dump (first %u bytes):\n", s->nr_bytes);
	for (unsigned int i = 0; i < s->nr_bytes; i += HEX_ROW_BYTES)
		print_hex_row(s->bytes + i, min(s->nr_bytes - i,
						(unsigned int)HEX_ROW_BYTES));
	printk("  backtrace:\n");
	for (unsigned int i = 0; i < t->nr_entries; i++)
		printk("    [<%08lx>] %pS\n", t->entries[i],
		       (void *)t->entries[i]);
}

/* For the collector itself (orphan freeing); memleak_lock held. */
void memleak_print_block(const struct memleak_block *b)
{
	struct block_snapshot s;

	take_snapshot(b, &s);
	print_snapshot(&s);
	memleak_trace_put(s.trace);
}

static void collect_if_suspect(struct memleak_block *b, void *ctx)
{
	if ((b->flags & MEMLEAK_SUSPECT) && !memleak_queue_push(ctx, b))
		memleak_disable("out of memory for the list of suspects");
}

/*
 * Prints every suspect still allocated, oldest first; returns how many
 * were printed. The collector stays pinned meanwhile, so the suspects'
 * metadata outlives a free on another CPU.
 */
static unsigned long print_suspects(void)
{
	struct memleak_queue suspects = { NULL, NULL, 0 };
	unsigned long printed = 0, flags;
	struct memleak_block *b;

	memleak_enter(&flags);
	memleak_pin();
	memleak_leave(flags);
	memleak_walk_blocks(collect_if_suspect, &suspects);
	for (;;) {
		struct block_snapshot s;
		bool alive;

		memleak_enter(&flags);
		b = memleak_queue_pop(&suspects);
		alive = b && (b->flags & MEMLEAK_ALLOCATED);
		if (alive)
			take_snapshot(b, &s);
		memleak_leave(flags);
		if (!b)
			break;
		if (!alive)
			continue;	/* freed since the scan: not a leak */
		print_snapshot(&s);
		release_snapshot(&s);
		printed++;
	}
	memleak_enter(&flags);
	memleak_unpin();
	memleak_leave(flags);
	return printed;
}

static void print_summary(void)
{
	printk("memleak: %lu new suspected memory leaks (%lu total)\n",
	       memleak.nr_new, memleak.nr_suspects);
}

static int run_scan(void)
{
	int err = memleak_scan_wait();

	if (err == -EBUSY)
		printk("memleak: the collector is disabled\n");
	return err;
}

static int cmd_list(void)
{
	if (run_scan())
		return 1;
	print_suspects();
	print_summary();
	return 0;
}

static int cmd_scan(void)
{
	if (run_scan())
		return 1;
	print_summary();
	return 0;
}

static void clear_if_reported(struct memleak_block *b, void *ctx)
{
	unsigned long *n = ctx;

	if (!(b->flags & (MEMLEAK_SUSPECT | MEMLEAK_REPORTED)))
		return;
	b->flags |= MEMLEAK_CLEARED;
	b->flags &= ~(MEMLEAK_SUSPECT | MEMLEAK_REPORTED);
	(*n)++;
}

/* Hides what has been reported until its contents change; returns how many. */
unsigned long memleak_clear_reports(void)
{
	unsigned long flags, n = 0;

	memleak_walk_blocks(clear_if_reported, &n);
	memleak_enter(&flags);
	memleak.nr_suspects = 0;
	memleak.nr_new = 0;
	memleak_leave(flags);
	return n;
}

static int cmd_clear(void)
{
	printk("memleak: %lu reported blocks cleared\n", memleak_clear_reports());
	return 0;
}

static const char *color_name(const struct memleak_block *b)
{
	if (block_is_black(b))
		return "black (ignored)";
	if (b->min_count == 0)
		return "gray (never a leak)";
	return block_is_gray(b) ? "gray" : "white";
}

/* Everything known about one block, memleak_lock held (a debug aid). */
static void dump_block(const struct memleak_block *b)
{
	const struct memleak_scan_area *area;

	printk("block 0x%08lx-0x%08lx (size %zu), %s after the last scan\n",
	       b->start, b->start + b->size - 1, b->size, color_name(b));
	printk("  references: %d found, %d needed; flags%s%s%s%s\n", b->count,
	       b->min_count, b->flags & MEMLEAK_REPORTED ? " reported" : "",
	       b->flags & MEMLEAK_SUSPECT ? " suspect" : "",
	       b->flags & MEMLEAK_CLEARED ? " cleared" : "",
	       b->flags & MEMLEAK_CHECKSUM_VALID ? " checksummed" : "");
	printk("  allocated on CPU %u, checksum %08x\n", b->cpu, b->checksum);
	if (b->pad_offset)
		printk("  object starts at +%u (memleak_padding)\n", b->pad_offset);
	for (unsigned int i = 0; b->aliases && i < b->aliases->nr; i++)
		printk("  alias 0x%08lx (+%lu)\n",
		       b->start + b->pad_offset + b->aliases->offsets[i],
		       b->pad_offset + b->aliases->offsets[i]);
	for (area = b->areas; area; area = area->next)
		printk("  scan area +%lu, %zu bytes\n", area->offset,
		       area->length);
	memleak_print_block(b);
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
		dump_block(b);
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
	       memleak.min_age_jiffies * 1000 / HZ);
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

static int cmd_option(const char *arg)
{
	if (strncmp(arg, "stack=", 6) == 0)
		return set_switch("stack scanning", arg + 6, &memleak.stack_scan);
	if (strncmp(arg, "interior=", 9) == 0)
		return set_switch("interior pointers", arg + 9,
				  &memleak.interior);
	if (strncmp(arg, "scan=", 5) == 0)
		return memleak_set_auto_scan(arg + 5);
	return -EINVAL;
}

static int usage(void)
{
	printk("usage: memleak [scan | clear | dump ADDR | stats | off |\n"
	       "               scan=on|off|SECS | stack=on|off | "
	       "interior=on|off]\n");
	return 1;
}

static int run_subcommand(int argc, char **argv)
{
	if (argc == 1)
		return cmd_list();
	if (argc == 3 && strcmp(argv[1], "dump") == 0)
		return cmd_dump(argv[2]);
	if (argc != 2)
		return usage();
	if (strcmp(argv[1], "scan") == 0)
		return cmd_scan();
	if (strcmp(argv[1], "clear") == 0)
		return cmd_clear();
	if (strcmp(argv[1], "stats") == 0)
		return cmd_stats();
	if (strcmp(argv[1], "off") == 0)
		return cmd_off();
	if (strchr(argv[1], '=') && cmd_option(argv[1]) == 0)
		return 0;
	return usage();
}
static int cmd_memleak(int argc, char **argv)
{
	int ret = run_subcommand(argc, argv);

	/* The report held block addresses in frames now dead. */
	memleak_wipe_stack();
	return ret;
}
SHELL_COMMAND("memleak", cmd_memleak,
	      "memleak [scan|clear|dump ADDR|stats|off|scan=on|off|SECS|"
	      "stack=on|off|interior=on|off]",
	      "scan for memory leaks and list the suspected ones");
