/*
 * A radix tree mapping unsigned long keys to non-NULL pointers. Nodes come
 * from the caller's allocator (fixed size RADIX_TREE_NODE_SIZE), lookups
 * never allocate, and nothing here locks: the caller serialises writers
 * against everyone else. Design and numbers: docs/radix-tree.md.
 */
#ifndef KERNEL_RADIX_TREE_H
#define KERNEL_RADIX_TREE_H

#include <kernel/types.h>

/* Key bits consumed per level; a node has 2^shift slots. */
#ifndef RADIX_TREE_MAP_SHIFT
#define RADIX_TREE_MAP_SHIFT 6
#endif
#define RADIX_TREE_MAP_SIZE (1UL << RADIX_TREE_MAP_SHIFT)
#define RADIX_TREE_MAP_MASK (RADIX_TREE_MAP_SIZE - 1)

#define RADIX_TREE_LONG_BITS (__SIZEOF_LONG__ * __CHAR_BIT__)
#define RADIX_TREE_BITMAP_LONGS                                  \
	((RADIX_TREE_MAP_SIZE + RADIX_TREE_LONG_BITS - 1) /      \
	 RADIX_TREE_LONG_BITS)
/* Levels needed for the largest key (11 for 64 bits, 6 for 32 at shift 6). */
#define RADIX_TREE_MAX_HEIGHT                                    \
	((RADIX_TREE_LONG_BITS + RADIX_TREE_MAP_SHIFT - 1) /     \
	 RADIX_TREE_MAP_SHIFT)

_Static_assert(RADIX_TREE_MAP_SHIFT >= 1 && RADIX_TREE_MAP_SHIFT <= 8,
	       "RADIX_TREE_MAP_SHIFT must be 1..8 (offsets fit in a byte)");

/*
 * One level of the tree. Leaves (shift 0) hold the values, inner nodes hold
 * children. Keys are not stored: they are the path, so a node holds no
 * copy of the addresses a leak scanner may be keying the tree by.
 */
struct radix_tree_node {
	struct radix_tree_node *parent;	/* NULL for the top node */
	unsigned char shift;		/* key bits below this level */
	unsigned char offset;		/* our slot in parent */
	unsigned long bitmap[RADIX_TREE_BITMAP_LONGS];	/* used slots */
	void *slots[RADIX_TREE_MAP_SIZE];
};

/* Every node has this size, so that a pool can be sized in advance. */
#define RADIX_TREE_NODE_SIZE (sizeof(struct radix_tree_node))

typedef void *(*radix_tree_alloc_fn)(void *ctx);
typedef void (*radix_tree_free_fn)(void *node, void *ctx);

struct radix_tree_root {
	struct radix_tree_node *rnode;	/* top node, NULL when empty */
	unsigned int height;		/* levels, 0 when empty */
	unsigned long count;		/* entries */
	unsigned long nodes;		/* nodes currently allocated */
	radix_tree_alloc_fn alloc_node;	/* RADIX_TREE_NODE_SIZE bytes */
	radix_tree_free_fn free_node;
	void *ctx;			/* passed to both callbacks */
	struct radix_tree_node *spares;	/* emptied nodes kept for reuse */
	unsigned int nr_spares;
	unsigned int max_spares;	/* 0: every emptied node is freed */
};

/* A position in a key-ordered walk; see radix_tree_for_each(). */
struct radix_tree_iter {
	unsigned long next;	/* smallest key not yet returned */
	bool done;		/* past ULONG_MAX or the last entry */
};

/* An empty tree whose nodes come from alloc_fn(ctx), go to free_fn. */
void radix_tree_init(struct radix_tree_root *root, radix_tree_alloc_fn alloc_fn,
		     radix_tree_free_fn free_fn, void *ctx);

/*
 * Adds key -> value (value non-NULL). Returns 0, -EEXIST if key is there
 * already, -EINVAL for a NULL value or a root without callbacks, -ENOMEM
 * when a node cannot be had: the tree is then exactly as before.
 */
int radix_tree_insert(struct radix_tree_root *root, unsigned long key,
		      void *value);

void *radix_tree_lookup(const struct radix_tree_root *root, unsigned long key);

/*
 * The entry with the largest key <= key, or NULL; its key goes to *found
 * (found may be NULL). Maps an interior pointer to the block holding it.
 */
void *radix_tree_lookup_le(const struct radix_tree_root *root,
			   unsigned long key, unsigned long *found);

/* The entry with the smallest key >= key, or NULL; as lookup_le otherwise. */
void *radix_tree_lookup_ge(const struct radix_tree_root *root,
			   unsigned long key, unsigned long *found);

/*
 * Stores value (non-NULL) for a key already there, allocating nothing;
 * returns the old value, or NULL (and changes nothing) when key is absent.
 */
void *radix_tree_replace(struct radix_tree_root *root, unsigned long key,
			 void *value);

/* Removes key; returns its value, or NULL if it was absent. */
void *radix_tree_delete(struct radix_tree_root *root, unsigned long key);

/*
 * Up to max values with keys >= first_key, in ascending key order; the
 * keys go to keys[] unless it is NULL. Returns how many were stored.
 */
unsigned int radix_tree_gang_lookup_keys(const struct radix_tree_root *root,
					 void **results, unsigned long *keys,
					 unsigned long first_key,
					 unsigned int max);
unsigned int radix_tree_gang_lookup(const struct radix_tree_root *root,
				    void **results, unsigned long first_key,
				    unsigned int max);

static inline unsigned long radix_tree_count(const struct radix_tree_root *root)
{
	return root->count;
}

/* Frees every node (not the values); the tree is then empty and usable. */
void radix_tree_destroy(struct radix_tree_root *root);

/*
 * Keeps up to max emptied nodes instead of freeing them, for a tree whose
 * keys come and go in one spot (an alloc/free pair adds and removes a whole
 * path each time). Spares are not counted in root->nodes; destroy frees them.
 */
void radix_tree_keep_spares(struct radix_tree_root *root, unsigned int max);

static inline void radix_tree_iter_init(struct radix_tree_iter *iter,
					unsigned long first_key)
{
	iter->next = first_key;
	iter->done = false;
}

/*
 * The next entry in key order, or NULL at the end. Each step starts again
 * from the top, so the tree may change between steps (deleting the entry
 * just returned is the common case) without upsetting the walk.
 */
void *radix_tree_iter_next(const struct radix_tree_root *root,
			   struct radix_tree_iter *iter, unsigned long *key);

/* Checks every invariant: NULL when sound, else what is wrong (for tests). */
const char *radix_tree_check(const struct radix_tree_root *root);

/* Every (key, value) in ascending key order; see radix_tree_iter_next(). */
#define radix_tree_for_each(root, iter, key, value)                        \
	for (radix_tree_iter_init(iter, 0);                                 \
	     ((value) = radix_tree_iter_next(root, iter, &(key))) != NULL;)

#endif
