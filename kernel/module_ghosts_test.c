/*
 * Self-tests of removed modules' symbols (kernel/module_ghosts.c), on
 * tables made here for addresses no code uses: a kept table prints as
 * "[module] (unloaded)" and is no target for lookups by name, a module
 * loaded over it evicts it (and names those addresses), and only the
 * last MODULE_GHOSTS are kept.
 * Each test holds module_mutex, as the loader does.
 */
#include <kernel/ktest.h>
#include <kernel/kallsyms.h>
#include <kernel/module.h>
#include <kernel/mutex.h>
#include <kernel/sched.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include "module_internal.h"

/* Far above the kernel, the modules and (on i386) the vmalloc window. */
#define FAKE_BASE 0xfff00000ul
#define FAKE_SIZE 0x40u
#define FAKE_STRIDE 0x1000ul

/* A table of one function "ghost_fn" at addr, added as the loader does. */
static bool fake_ksyms(struct module_ksyms *k, unsigned long addr)
{
	static const char name[] = "ghost_fn";

	memset(k, 0, sizeof(*k));
	k->arrays = kmalloc(3 * sizeof(u32), GFP_KERNEL);
	k->strings = kmalloc(sizeof(name), GFP_KERNEL);
	if (!k->arrays || !k->strings) {
		kfree(k->arrays);
		kfree(k->strings);
		return false;
	}
	k->arrays[0] = addr;
	k->arrays[1] = FAKE_SIZE;
	k->arrays[2] = 0;
	memcpy(k->strings, name, sizeof(name));
	k->table = (struct kallsyms_table){
		.owner = "ghostmod", .count = 1, .addrs = k->arrays,
		.sizes = k->arrays + 1, .names = k->arrays + 2,
		.strings = k->strings, .strings_size = sizeof(name),
	};
	if (!module_ghost_reserve(k)) {
		kfree(k->arrays);
		kfree(k->strings);
		return false;
	}
	kallsyms_add_table(&k->table);
	k->added = true;
	return true;
}

/* What the loader does on removal: keep a ghost, take the table out. */
static void remove_fake(struct module_ksyms *k, const char *name)
{
	module_ghost_keep(name, k);
	kallsyms_del_table(&k->table, yield);
	kfree(k->arrays);
	kfree(k->strings);
}

static bool prints(unsigned long addr, const char *want)
{
	char buf[KSYM_PRINT_MAX];

	kallsyms_snprint(buf, sizeof(buf), addr);
	return strcmp(buf, want) == 0;
}

static void test_kept_then_evicted(struct ktest *t)
{
	struct module_ksyms k;

	mutex_lock(&module_mutex);
	KEXPECT(t, fake_ksyms(&k, FAKE_BASE));
	KEXPECT(t, prints(FAKE_BASE + 0x10, "ghost_fn+0x10/0x40 [ghostmod]"));
	remove_fake(&k, "ghostmod");
	KEXPECT(t, prints(FAKE_BASE + 0x10,
			  "ghost_fn+0x10/0x40 [ghostmod] (unloaded)"));
	KEXPECT_EQ(t, kallsyms_lookup_name("ghost_fn"), 0);
	/* A module loaded next to it leaves it alone, one over it wins. */
	module_ghosts_evict((void *)(FAKE_BASE + FAKE_SIZE), FAKE_STRIDE);
	KEXPECT(t, prints(FAKE_BASE,
			  "ghost_fn+0x0/0x40 [ghostmod] (unloaded)"));
	module_ghosts_evict((void *)(FAKE_BASE - FAKE_STRIDE + 1), FAKE_STRIDE);
	KEXPECT(t, prints(FAKE_BASE, ""));
	/* Loaded again in the same place: the live table names it. */
	KEXPECT(t, fake_ksyms(&k, FAKE_BASE));
	KEXPECT(t, prints(FAKE_BASE + 0x10, "ghost_fn+0x10/0x40 [ghostmod]"));
	remove_fake(&k, "ghostmod");
	module_ghosts_evict((void *)FAKE_BASE, FAKE_STRIDE);
	mutex_unlock(&module_mutex);
}

static void test_last_ones_kept(struct ktest *t)
{
	const unsigned int n = MODULE_GHOSTS + 1;
	struct module_ksyms k;

	mutex_lock(&module_mutex);
	for (unsigned int i = 0; i < n; i++) {
		KEXPECT(t, fake_ksyms(&k, FAKE_BASE + i * FAKE_STRIDE));
		remove_fake(&k, "ghostmod");
	}
	KEXPECT(t, prints(FAKE_BASE, ""));
	for (unsigned int i = 1; i < n; i++)
		KEXPECT(t, prints(FAKE_BASE + i * FAKE_STRIDE + 4,
				  "ghost_fn+0x4/0x40 [ghostmod] (unloaded)"));
	module_ghosts_evict((void *)FAKE_BASE, n * FAKE_STRIDE);
	for (unsigned int i = 0; i < n; i++)
		KEXPECT(t, prints(FAKE_BASE + i * FAKE_STRIDE, ""));
	mutex_unlock(&module_mutex);
}

static const struct ktest_case module_ghosts_cases[] = {
	KTEST_CASE(test_kept_then_evicted),
	KTEST_CASE(test_last_ones_kept),
	{ 0 },
};
KTEST_SUITE("module_ghosts", module_ghosts_cases);
