/*
 * Suppressions: known leaks the reports leave out, as Valgrind's and
 * LeakSanitizer's suppressions do. A pattern matches a suspect when one
 * frame of its allocation trace matches it:
 *
 *   leaktest_*          a function name, with * and ? wildcards
 *   [memleak_test]      any frame in that module (also after rmmod)
 *   leaktest.c, mm/l*.c a source file of the kernel (a '/' or .c/.S/.h)
 *   leak:PATTERN        LeakSanitizer's spelling of the same
 *
 * When several patterns match, the one matching the frame nearest the
 * allocation is credited with the block (the earliest added on a tie).
 * A suppressed block is not a suspect: it is neither listed nor
 * classified nor counted in the digest, but the summary says how many
 * blocks and bytes the patterns hid, and 'memleak suppressions' how
 * many each one did, so nothing is hidden silently. Patterns come from
 * 'memleak suppress', the command line (memleak.suppress=A,B) and the
 * file memleak.supp of the boot archive (one a line, # comments).
 * 'memleak not-leak ADDR' and 'memleak ignore ADDR' are here too: the
 * run-time forms of the annotations.
 *
 * Locking: the patterns and their counts are under memleak_lock; the
 * scan matches with it held (memleak_suppressed()).
 */
#include <kernel/memleak.h>
#include <kernel/bootinfo.h>
#include <kernel/cmdline.h>
#include <kernel/cpio.h>
#include <kernel/kallsyms.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include "internal.h"

#define MAX_PATTERNS 16
/* memleak.suppress=A,B,...: room for a few patterns. */
#define CMDLINE_PATTERNS_LEN 256

struct suppression {
	char pattern[MEMLEAK_PATTERN_LEN];
	bool file;		/* matched against source files */
	unsigned long blocks, bytes;	/* hidden at the last scan */
};

static struct suppression suppressions[MAX_PATTERNS];
static unsigned int nr_suppressions;

/* A frame as kallsyms prints it, and its source file (NULL: not known). */
static bool suppression_matches(const struct suppression *s,
				const char *frame, const char *file)
{
	if (s->file)
		return file && memleak_file_matches(s->pattern, file);
	return memleak_frame_matches(s->pattern, frame);
}

/*
 * The pattern matching the frame nearest the allocation, each frame
 * printed by kallsyms once (module frames name their module, also
 * after rmmod); NULL when none does.
 */
static struct suppression *matching_suppression(const struct memleak_trace *t)
{
	char frame[KSYM_PRINT_MAX];

	for (unsigned int f = 0; f < t->nr_entries; f++) {
		const char *file = kallsyms_lookup_file(t->entries[f]);

		if (!kallsyms_snprint(frame, sizeof(frame), t->entries[f]))
			continue;
		for (unsigned int i = 0; i < nr_suppressions; i++)
			if (suppression_matches(&suppressions[i], frame, file))
				return &suppressions[i];
	}
	return NULL;
}

void memleak_suppress_new_scan(void)
{
	for (unsigned int i = 0; i < nr_suppressions; i++)
		suppressions[i].blocks = suppressions[i].bytes = 0;
	memleak.nr_suppressed = memleak.suppressed_bytes = 0;
}

bool memleak_suppressed(const struct memleak_block *b)
{
	struct suppression *s;

	if (!nr_suppressions || !b->trace)
		return false;
	s = matching_suppression(block_trace(b));
	if (!s)
		return false;
	s->blocks++;
	s->bytes += block_size(b);
	memleak.nr_suppressed++;
	memleak.suppressed_bytes += block_size(b);
	return true;
}

static struct suppression *find_pattern(const char *pattern)
{
	for (unsigned int i = 0; i < nr_suppressions; i++)
		if (strcmp(suppressions[i].pattern, pattern) == 0)
			return &suppressions[i];
	return NULL;
}

static void store_pattern(struct suppression *s, const char *pattern)
{
	strlcpy(s->pattern, pattern, MEMLEAK_PATTERN_LEN);
	s->file = memleak_pattern_is_file(pattern);
}

/* Adds one pattern; 0, or -1 after saying why not. */
int memleak_add_suppression(const char *arg)
{
	const char *why, *pattern = memleak_check_pattern(arg, &why);
	unsigned long flags;
	int err = 0;

	if (!pattern) {
		printk("memleak suppress: '%s' %s\n", arg, why);
		return -1;
	}
	memleak_enter(&flags);
	if (find_pattern(pattern))
		why = "is already there";
	else if (nr_suppressions == MAX_PATTERNS)
		why = "does not fit: 16 patterns at most";
	else
		store_pattern(&suppressions[nr_suppressions++], pattern);
	memleak_leave(flags);
	if (why) {
		printk("memleak suppress: '%s' %s\n", pattern, why);
		err = -1;
	}
	return err;
}

static int cmd_suppress(int argc, char **argv)
{
	(void)argc;
	if (memleak_add_suppression(argv[1]))
		return 1;
	printk("memleak: suppressing leaks allocated through '%s' (from the "
	       "next scan)\n", argv[1]);
	return 0;
}
MEMLEAK_COMMAND("suppress", cmd_suppress, 1, 1, "FUNC|[MODULE]|FILE",
		"leave out leaks with a frame matching (* and ? wildcards)");

static int cmd_unsuppress(int argc, char **argv)
{
	const char *why, *pattern = memleak_check_pattern(argv[1], &why);
	struct suppression *s;
	unsigned long flags;

	(void)argc;
	memleak_enter(&flags);
	s = pattern ? find_pattern(pattern) : NULL;
	/* The others keep their order: it decides ties (see above). */
	if (s) {
		memmove(s, s + 1, (char *)&suppressions[nr_suppressions] -
				  (char *)(s + 1));
		memset(&suppressions[--nr_suppressions], 0, sizeof(*s));
	}
	memleak_leave(flags);
	if (!s) {
		printk("memleak unsuppress: no pattern '%s'\n", argv[1]);
		return 1;
	}
	printk("memleak: '%s' no longer suppressed\n", pattern);
	return 0;
}
MEMLEAK_COMMAND("unsuppress", cmd_unsuppress, 1, 1, "PATTERN",
		"remove a suppression");

static int cmd_suppressions(int argc, char **argv)
{
	struct suppression copy[MAX_PATTERNS];
	unsigned long flags;
	unsigned int n;

	(void)argc, (void)argv;
	memleak_enter(&flags);
	n = nr_suppressions;
	memcpy(copy, suppressions, sizeof(copy));
	memleak_leave(flags);
	for (unsigned int i = 0; i < n; i++)
		printk("  %-32s %lu block%s (%lu bytes) at the last scan\n",
		       copy[i].pattern, copy[i].blocks,
		       copy[i].blocks == 1 ? "" : "s", copy[i].bytes);
	printk("memleak: %u suppression%s\n", n, n == 1 ? "" : "s");
	return 0;
}
MEMLEAK_COMMAND("suppressions", cmd_suppressions, 0, 0, "",
		"the patterns, and how many leaks each hid");

/* memleak.supp in the boot archive, if there is one. */
static void read_suppressions_file(void)
{
	size_t size = boot_info.initrd_end - boot_info.initrd_start;
	struct cpio_entry e;

	if (boot_info.initrd_end <= boot_info.initrd_start ||
	    cpio_find(__va(boot_info.initrd_start), size, "memleak.supp", &e) ||
	    !cpio_is_regular(&e))
		return;
	memleak_parse_suppressions(e.data, e.size, "memleak.supp",
				   memleak_add_suppression);
	printk("memleak: %u suppression%s after the boot archive's "
	       "memleak.supp\n", nr_suppressions,
	       nr_suppressions == 1 ? "" : "s");
}

/*
 * memleak.supp of the boot archive and memleak.suppress=A,B on the
 * command line; at memleak_init().
 */
void memleak_suppress_init(void)
{
	char list[CMDLINE_PATTERNS_LEN], *pattern = list, *comma;
	int found = cmdline_get(boot_info.cmdline, "memleak.suppress", list,
				sizeof(list));

	read_suppressions_file();
	if (found < 0)
		printk("memleak: memleak.suppress= is too long (%d characters "
		       "at most): ignored\n", CMDLINE_PATTERNS_LEN - 1);
	if (found <= 0)
		return;
	for (; pattern; pattern = comma ? comma + 1 : NULL) {
		comma = strchr(pattern, ',');
		if (comma)
			*comma = '\0';
		if (*pattern && !memleak_add_suppression(pattern))
			printk("memleak: suppressing '%s' (command line)\n",
			       pattern);
	}
}

/* The tracked block holding the hex address arg, or 0 after saying why. */
static unsigned long block_start_of(const char *cmd, const char *arg)
{
	struct memleak_block *b;
	unsigned long addr, flags, start = 0;

	if (kstrtoul(arg, 16, &addr)) {
		printk("memleak %s: '%s' is not a hex address\n", cmd, arg);
		return 0;
	}
	memleak_flush_pending();
	memleak_enter(&flags);
	b = memleak_index_find(addr);
	if (b && (b->flags & MEMLEAK_ALLOCATED))
		start = block_start(b);
	memleak_leave(flags);
	if (!start)
		printk("memleak %s: 0x%08lx is not inside any tracked block\n",
		       cmd, addr);
	return start;
}

/* 'memleak not-leak|ignore ADDR': annotate the block holding ADDR. */
static int annotate_block(char **argv, void (*annotate)(const void *ptr),
			  const char *what)
{
	unsigned long start = block_start_of(argv[0], argv[1]);

	if (!start)
		return 1;
	annotate((const void *)start);
	printk("memleak: block 0x%08lx is %s\n", start, what);
	return 0;
}

static int cmd_not_leak(int argc, char **argv)
{
	(void)argc;
	return annotate_block(argv, memleak_not_leak,
			      "never reported (still scanned)");
}
MEMLEAK_COMMAND("not-leak", cmd_not_leak, 1, 1, "ADDR",
		"never report the block holding ADDR (memleak_not_leak())");

static int cmd_ignore(int argc, char **argv)
{
	(void)argc;
	return annotate_block(argv, memleak_ignore,
			      "neither reported nor scanned");
}
MEMLEAK_COMMAND("ignore", cmd_ignore, 1, 1, "ADDR",
		"neither report nor scan the block holding ADDR");
