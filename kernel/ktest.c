/*
 * The self-test runner: runs the suites registered with KTEST_SUITE()
 * and prints KTAP (one nested result block per suite), plus the
 * 'selftest' shell command, whose NAME=VALUE words after a suite's name
 * are parameters that the suite reads with ktest_param() (a stress test's
 * size, say).
 */
#include <kernel/ktest.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/string.h>
#include <kernel/task.h>

#define MAX_PARAMS 8

/* The running command's parameters; only 'selftest' sets them. */
static struct {
	const char *name[MAX_PARAMS];
	unsigned long value[MAX_PARAMS];
	unsigned int nr;
} params;

unsigned long ktest_param(const char *name, unsigned long def)
{
	for (unsigned int i = 0; i < params.nr; i++)
		if (strcmp(params.name[i], name) == 0)
			return params.value[i];
	return def;
}

/* NAME=VALUE words into params (name points into argv); false on bad input. */
static bool parse_params(int argc, char **argv)
{
	params.nr = 0;
	for (int i = 0; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i] || params.nr == MAX_PARAMS ||
		    kstrtoul(eq + 1, 0, &params.value[params.nr])) {
			printk("selftest: bad parameter '%s' (NAME=NUMBER, at "
			       "most %d)\n", argv[i], MAX_PARAMS);
			return false;
		}
		*eq = '\0';
		params.name[params.nr++] = argv[i];
	}
	return true;
}

void ktest_fail(struct ktest *t, const char *file, int line,
		const char *fmt, ...)
{
	va_list ap;

	t->failures++;
	printk("        # %s:%d: expected ", file, line);
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
	printk("\n");
}

static int count_cases(const struct ktest_suite *suite)
{
	int n = 0;

	while (suite->cases[n].name)
		n++;
	return n;
}

/* Runs one suite as a KTAP subtest; returns the number of failed cases. */
static int run_suite(const struct ktest_suite *suite, int number)
{
	int failed = 0, n = count_cases(suite);

	printk("    KTAP version 1\n");
	printk("    # Subtest: %s\n", suite->name);
	printk("    1..%d\n", n);
	for (int i = 0; i < n; i++) {
		struct ktest t = { 0 };

		/*
		 * Every case starts on a clean stack: a conservative scan (the
		 * leak collector's tests) would otherwise take a stale copy of
		 * an earlier case's pointer for a live one.
		 */
		task_wipe_dead_stack();
		suite->cases[i].run(&t);
		printk("    %sok %d %s\n", t.failures ? "not " : "", i + 1,
		       suite->cases[i].name);
		if (t.failures)
			failed++;
	}
	printk("%sok %d %s\n", failed ? "not " : "", number, suite->name);
	return failed;
}

static bool suite_selected(const struct ktest_suite *suite, const char *filter)
{
	return !filter || strcmp(filter, suite->name) == 0;
}

int ktest_run(const char *filter)
{
	const struct ktest_suite *suite;
	int total = 0, number = 0, failed_suites = 0;

	for (suite = __start_ktest_suites; suite < __stop_ktest_suites; suite++)
		total += suite_selected(suite, filter);
	if (total == 0)
		return -1;

	printk("KTAP version 1\n1..%d\n", total);
	for (suite = __start_ktest_suites; suite < __stop_ktest_suites; suite++)
		if (suite_selected(suite, filter) &&
		    run_suite(suite, ++number))
			failed_suites++;
	printk("# selftest: %d passed, %d failed\n", total - failed_suites,
	       failed_suites);
	return failed_suites;
}

static void list_suites(void)
{
	const struct ktest_suite *suite;

	for (suite = __start_ktest_suites; suite < __stop_ktest_suites; suite++)
		printk("%s (%d cases)\n", suite->name, count_cases(suite));
}

static int cmd_selftest(int argc, char **argv)
{
	int failed;

	if (argc == 2 && strcmp(argv[1], "list") == 0) {
		list_suites();
		return 0;
	}
	if (argc > 2 && !parse_params(argc - 2, argv + 2))
		return 1;
	failed = ktest_run(argc >= 2 ? argv[1] : NULL);
	params.nr = 0;
	if (failed < 0) {
		printk("selftest: no suite named '%s' (try 'selftest list')\n",
		       argv[1]);
		return 1;
	}
	return failed ? 1 : 0;
}
SHELL_COMMAND("selftest", cmd_selftest, "selftest [list|SUITE [NAME=N...]]",
	      "run the in-kernel self-tests and print KTAP");
