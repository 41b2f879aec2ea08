/*
 * Host tests of kallsyms_snprint() (kernel/kallsyms.c), the frames of
 * the leak collector's reports: a module's function prints with
 * " [module]", a removed module's kept table (kernel/module_ghosts.c)
 * with " [module] (unloaded)", an address no table holds prints
 * nothing, a short buffer is cut and terminated, and lookups by name
 * never find a removed module's function. Single-threaded.
 */
#include <kernel/kallsyms.h>
#include <kernel/string.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static const u32 live_words[] = { 0x5000, 0x5040, 0x40, 0x20, 0, 6 };
static const char live_names[] = "alpha\0beta";
static const u32 gone_words[] = { 0x9000, 0x100, 0 };
static const char gone_names[] = "ghost_init";

static struct kallsyms_table live, gone;

/* A table as kernel/module_kallsyms.c builds one: addrs, sizes, names. */
static void fill(struct kallsyms_table *t, const char *owner,
		 const u32 *words, unsigned int n, const char *names,
		 u32 names_size, bool unloaded)
{
	*t = (struct kallsyms_table){
		.owner = owner, .count = n, .addrs = words,
		.sizes = words + n, .names = words + 2 * n,
		.strings = names, .strings_size = names_size,
		.unloaded = unloaded,
	};
	assert_null(kallsyms_table_check(t));
	kallsyms_add_table(t);
}

static int setup(void **state)
{
	(void)state;
	fill(&live, "livemod", live_words, 2, live_names, sizeof(live_names),
	     false);
	fill(&gone, "gonemod", gone_words, 1, gone_names, sizeof(gone_names),
	     true);
	return 0;
}

static void no_wait(void)
{
}

static int teardown(void **state)
{
	(void)state;
	kallsyms_del_table(&live, no_wait);
	kallsyms_del_table(&gone, no_wait);
	return 0;
}

static void test_module_frames(void **state)
{
	char buf[KSYM_PRINT_MAX];
	int n;

	(void)state;
	n = kallsyms_snprint(buf, sizeof(buf), 0x5044);
	assert_string_equal(buf, "beta+0x4/0x20 [livemod]");
	assert_int_equal(n, strlen(buf));
	kallsyms_snprint(buf, sizeof(buf), 0x5000);
	assert_string_equal(buf, "alpha+0x0/0x40 [livemod]");
	kallsyms_snprint(buf, sizeof(buf), 0x90ff);
	assert_string_equal(buf, "ghost_init+0xff/0x100 [gonemod] (unloaded)");
}

static void test_no_symbol(void **state)
{
	char buf[KSYM_PRINT_MAX] = "junk";

	(void)state;
	assert_int_equal(kallsyms_snprint(buf, sizeof(buf), 0x5060), 0);
	assert_string_equal(buf, "");
	assert_int_equal(kallsyms_snprint(buf, sizeof(buf), 0x9100), 0);
	assert_int_equal(kallsyms_snprint(buf, 0, 0x5000), 0);
}

static void test_short_buffer(void **state)
{
	char buf[12];

	(void)state;
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(kallsyms_snprint(buf, 8, 0x9000), 7);
	assert_string_equal(buf, "ghost_i");
	assert_int_equal(buf[8], 'x');
	assert_int_equal(kallsyms_snprint(buf, 12, 0x5000), 11);
	assert_string_equal(buf, "alpha+0x0/0");
}

static void test_name_lookups_skip_removed(void **state)
{
	(void)state;
	assert_int_equal(kallsyms_lookup_name("beta"), 0x5040);
	assert_int_equal(kallsyms_lookup_name("ghost_init"), 0);
	/* Address lookups still see it, for old traces. */
	assert_string_equal(kallsyms_lookup(0x9010, NULL, NULL), "ghost_init");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_module_frames),
		cmocka_unit_test(test_no_symbol),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_name_lookups_skip_removed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
