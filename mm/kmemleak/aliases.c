/*
 * The leak collector's aliases. Kernel structures are often reached
 * through a pointer to a member (a list_head inside them) rather than to
 * their start: every container_of() records (offset, size of the type,
 * size of the member) in .init.memleak_offsets, and these are turned
 * into a set of alias offsets per block size, looked up by size: in an
 * array for the small sizes most blocks have, in a radix tree for the
 * others. A word refers to a block when its offset in the block's object
 * is one of the set of the object's size (block_has_key()): a block
 * keeps no set of its own, so a module's aliases apply to every block
 * of their size while it is loaded, and a set replaced by a module's
 * load or removal is freed at once.
 *
 * Locking: memleak_lock (memleak_enter()) around every change and every
 * lookup.
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/init.h>
#include <kernel/radix-tree.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include "internal.h"

/*
 * The alias sets, indexed by block size: below SMALL_SIZES in an array
 * (bit patterns as far as the scan cares: the sets are the collector's
 * own, untracked), the rest in a radix tree.
 */
const struct memleak_alias_set
	*memleak_small_alias_sets[MEMLEAK_SMALL_ALIAS_SIZES] __memleak_noscan;
static struct radix_tree_root alias_tree;

/* Alias-tree nodes are only made at init, from kmalloc (untracked too). */
static void *alloc_alias_node(void *ctx)
{
	(void)ctx;
	return kmalloc(RADIX_TREE_NODE_SIZE, GFP_ATOMIC);
}

static void free_alias_node(void *node, void *ctx)
{
	(void)ctx;
	kfree(node);
}

const struct memleak_alias_set *memleak_large_aliases_of_size(size_t size)
{
	return radix_tree_lookup(&alias_tree, size);
}

/* Makes set (NULL: none) the one of blocks of size bytes. */
static int set_aliases_of_size(size_t size, const struct memleak_alias_set *set)
{
	if (size < MEMLEAK_SMALL_ALIAS_SIZES) {
		memleak_small_alias_sets[size] = set;
		return 0;
	}
	radix_tree_delete(&alias_tree, size);
	return set ? radix_tree_insert(&alias_tree, size, (void *)set) : 0;
}


struct alias_pair {
	unsigned long size;
	unsigned long offset;
};

struct alias_pairs {
	struct alias_pair *v;
	unsigned int nr, max;
};

/* Records that blocks of size bytes may be pointed to at offset. */
static void add_pair(struct alias_pairs *p, unsigned long size,
		     unsigned long offset)
{
	offset = ALIGN_DOWN(offset, sizeof(long));
	if (size == 0 || offset == 0 || offset >= size || p->nr == p->max)
		return;
	p->v[p->nr].size = size;
	p->v[p->nr].offset = offset;
	p->nr++;
}

static int compare_pairs(const struct alias_pair *a, const struct alias_pair *b)
{
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return 0;
}

/* Insertion sort: a few thousand records, once at boot. */
static void sort_pairs(struct alias_pairs *p)
{
	for (unsigned int i = 1; i < p->nr; i++) {
		struct alias_pair x = p->v[i];
		unsigned int j = i;

		while (j > 0 && compare_pairs(&p->v[j - 1], &x) > 0) {
			p->v[j] = p->v[j - 1];
			j--;
		}
		p->v[j] = x;
	}
}

/* Primary offsets of blocks of size, among the first nr_primary pairs. */
static void add_secondary(struct alias_pairs *p, unsigned int nr_primary,
			  const struct memleak_offset *o)
{
	for (unsigned int i = 0; i < nr_primary; i++)
		if (p->v[i].size == o->member_size)
			add_pair(p, o->size, o->offset + p->v[i].offset);
}

/*
 * Each offset of a set counts the record sets that gave it (the
 * kernel's, each loaded module's), in an array right after offsets[nr],
 * so that a module's removal takes out only what no one else gave.
 */
static unsigned int *alias_users(const struct memleak_alias_set *set)
{
	return (unsigned int *)&set->offsets[set->nr];
}

static bool pairs_have(const struct alias_pair *first, unsigned int n,
		       unsigned long offset)
{
	for (unsigned int i = 0; i < n; i++)
		if (first[i].offset == offset)
			return true;
	return false;
}

/*
 * Adds (delta 1) the pairs for one size to the set known for it, or
 * takes them out (delta -1), as a new set.
 */
static int publish_set(const struct alias_pair *first, unsigned int n,
		       int delta)
{
	const struct memleak_alias_set *old = memleak_aliases_of_size(first->size);
	unsigned int nr_old = old ? old->nr : 0, nr = 0;
	unsigned int max = nr_old + (delta > 0 ? n : 0);
	struct memleak_alias_set *set;
	unsigned int *users;
	int err;

	set = kmalloc(sizeof(*set) + max * (sizeof(long) + sizeof(int)),
		      GFP_ATOMIC);
	if (!set)
		return -ENOMEM;
	users = (unsigned int *)&set->offsets[max];
	for (unsigned int i = 0; i < nr_old; i++) {
		unsigned int u = alias_users(old)[i];

		if (pairs_have(first, n, old->offsets[i]))
			u = delta > 0 ? u + 1 : u - 1;
		if (u == 0)
			continue;
		set->offsets[nr] = old->offsets[i];
		users[nr++] = u;
	}
	for (unsigned int i = 0; delta > 0 && i < n; i++) {
		bool dup = false;

		for (unsigned int j = 0; j < nr && !dup; j++)
			dup = set->offsets[j] == first[i].offset;
		if (!dup) {
			set->offsets[nr] = first[i].offset;
			users[nr++] = 1;
		}
	}
	set->nr = nr;
	set->size = first->size;
	memmove(alias_users(set), users, nr * sizeof(*users));
	if (nr == 0) {
		kfree(set);
		set = NULL;
	}
	err = set_aliases_of_size(first->size, set);
	if (err) {
		kfree(set);
		return err;
	}
	/* Nothing holds a set but its place, and readers hold the lock. */
	kfree(old);
	memleak.nr_aliases += nr;
	memleak.nr_aliases -= nr_old;
	return 0;
}

static int publish_pairs(struct alias_pairs *p, int delta)
{
	unsigned int i = 0;

	sort_pairs(p);
	while (i < p->nr) {
		unsigned int j = i;

		while (j < p->nr && p->v[j].size == p->v[i].size)
			j++;
		if (publish_set(&p->v[i], j - i, delta))
			return -ENOMEM;
		i = j;
	}
	return 0;
}

/* How many secondary pairs add_secondary() may make from these records. */
static unsigned int count_secondary(const struct memleak_offset *start,
				    const struct memleak_offset *end)
{
	unsigned int n = 0;

	if (!IS_ENABLED(CONFIG_DEBUG_MEMLEAK_SECONDARY_ALIASES))
		return 0;
	for (const struct memleak_offset *o = start; o < end; o++)
		for (const struct memleak_offset *q = start; q < end; q++)
			n += q->size == o->member_size;
	return n;
}

/*
 * Builds (or extends, for a module: delta 1) the alias sets, or takes a
 * module's records out again (delta -1); returns the pairs counted.
 */
static int alias_records(const struct memleak_offset *start,
			 const struct memleak_offset *end, int delta)
{
	unsigned int n = end - start, nr_primary;
	struct alias_pairs p = { .max = n + count_secondary(start, end) };
	int err;

	if (n == 0)
		return 0;
	p.v = kmalloc(p.max * sizeof(*p.v), GFP_ATOMIC);
	if (!p.v)
		return -ENOMEM;
	for (const struct memleak_offset *o = start; o < end; o++)
		add_pair(&p, o->size, o->offset);
	nr_primary = p.nr;
	if (IS_ENABLED(CONFIG_DEBUG_MEMLEAK_SECONDARY_ALIASES))
		for (const struct memleak_offset *o = start; o < end; o++)
			add_secondary(&p, nr_primary, o);
	err = publish_pairs(&p, delta);
	kfree(p.v);
	return err ? err : (int)p.nr;
}

/* Adds the aliases of a loaded module's container_of() uses. */
int memleak_insert_aliases(const struct memleak_offset *start,
			   const struct memleak_offset *end)
{
	unsigned long flags;
	int n;

	memleak_enter(&flags);
	n = alias_records(start, end, 1);
	if (n < 0)
		memleak_disable("out of memory for aliases");
	memleak_leave(flags);
	return n < 0 ? n : 0;
}

/* Takes out what memleak_insert_aliases() added for the same records. */
void memleak_remove_aliases(const struct memleak_offset *start,
			    const struct memleak_offset *end)
{
	unsigned long flags;

	memleak_enter(&flags);
	if (alias_records(start, end, -1) < 0)
		memleak_disable("out of memory for aliases");
	memleak_leave(flags);
}

/* At memleak_init(): the kernel's own records; returns the pairs made. */
int __init memleak_aliases_init(void)
{
	radix_tree_init(&alias_tree, alloc_alias_node, free_alias_node, NULL);
	return alias_records(__memleak_offsets_start, __memleak_offsets_end, 1);
}
