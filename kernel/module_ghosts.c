/*
 * Symbols of removed modules ("ghosts"), so that traces taken while a
 * module was loaded (the leak collector's above all) still name its
 * functions after rmmod: "memleak_test_init+0x44/0x158 [memleak_test]
 * (unloaded)" where a raw address would be all that is left otherwise.
 *
 * A module's kallsyms tables (kernel/module_kallsyms.c, struct
 * module_ksyms: its functions' addresses, sizes and names, nothing
 * more) move into a ghost when the module goes, with a copy of its
 * name, and stay searchable, marked unloaded. The memory kept is
 * bounded: the last MODULE_GHOSTS tables (a module has two, core and
 * init), the oldest dropped first. A module loaded over a ghost's
 * range wins: the ghosts it overlaps are dropped before its own table
 * is added, so no lookup in it can find a dead name.
 *
 * Locking: module_mutex, held by every caller (loads and removals).
 * Lookups take no lock: kallsyms_del_table() waits for them before a
 * ghost's memory is freed.
 */
#include <kernel/module.h>
#include <kernel/kallsyms.h>
#include <kernel/memleak_type.h>
#include <kernel/sched.h>
#include <kernel/slab.h>
#include <kernel/string.h>

struct module_ghost {
	struct kallsyms_table table;
	u32 *arrays;		/* the module's: addrs, sizes, names */
	char *strings;
	char name[MODULE_NAME_MAX];
};

MEMLEAK_TYPE(module_ghost,
	     MEMLEAK_ANY(table),
	     MEMLEAK_ANY(arrays),
	     MEMLEAK_ANY(strings),
	     MEMLEAK_DATA(name));

/* Oldest first. */
static struct module_ghost *ghosts[MODULE_GHOSTS];
static unsigned int nr_ghosts;

static void drop_ghost(unsigned int i)
{
	struct module_ghost *g = ghosts[i];

	kallsyms_del_table(&g->table, yield);
	kfree(g->arrays);
	kfree(g->strings);
	kfree(g);
	memmove(&ghosts[i], &ghosts[i + 1],
		(nr_ghosts - i - 1) * sizeof(ghosts[0]));
	ghosts[--nr_ghosts] = NULL;
}

/*
 * The ghost is made when the module is loaded, not when it goes: a
 * removal cannot fail for want of memory, and takes no page from the
 * allocator that the module's own areas, given back, would have
 * returned to.
 */
bool module_ghost_reserve(struct module_ksyms *k)
{
	k->ghost = kmalloc_obj(module_ghost, GFP_KERNEL);
	return k->ghost;
}

void module_ghost_keep(const char *name, struct module_ksyms *k)
{
	struct module_ghost *g = k->ghost;

	k->ghost = NULL;
	if (!g)
		return;		/* the names go with the module */
	if (!k->added) {
		kfree(g);
		return;
	}
	if (nr_ghosts == MODULE_GHOSTS)
		drop_ghost(0);
	strlcpy(g->name, name, sizeof(g->name));
	g->table = k->table;
	g->table.owner = g->name;
	g->table.unloaded = true;
	g->arrays = k->arrays;
	g->strings = k->strings;
	k->arrays = NULL;
	k->strings = NULL;
	/* Both are searchable until the caller takes k's table out. */
	kallsyms_add_table(&g->table);
	ghosts[nr_ghosts++] = g;
}

void module_ghosts_evict(const void *base, unsigned long size)
{
	const unsigned long start = (unsigned long)base;
	unsigned int i = 0;

	while (i < nr_ghosts) {
		const struct kallsyms_table *t = &ghosts[i]->table;
		const unsigned int last = t->count - 1;
		unsigned long lo = t->addrs[0];
		unsigned long hi = t->addrs[last] + t->sizes[last];

		if (size && lo < start + size && start < hi)
			drop_ghost(i);
		else
			i++;
	}
}
