/*
 * Radix tree: unsigned long keys, RADIX_TREE_MAP_SHIFT key bits per level,
 * as many levels as the largest key needs. Every node keeps a bitmap of its
 * used slots, so walks in key order skip empty slots a word at a time; each
 * node knows its parent and its slot there, so walks and clean-ups climb
 * back up without recursion or a stack. See docs/radix-tree.md.
 */
#include <kernel/radix-tree.h>
#include <kernel/errno.h>
#include <kernel/string.h>

#define LONG_BITS RADIX_TREE_LONG_BITS
#define KEY_MAX (~0UL)

/* A place in the tree: a node, one of its slots, the key of its slot 0. */
struct cursor {
	struct radix_tree_node *node;
	unsigned int offset;
	unsigned long base;
};

/* The largest key that a tree of this height can hold. */
static unsigned long height_max_key(unsigned int height)
{
	unsigned int bits = height * RADIX_TREE_MAP_SHIFT;

	return bits >= LONG_BITS ? KEY_MAX : (1UL << bits) - 1;
}

/* The fewest levels that can hold key. */
static unsigned int height_for(unsigned long key)
{
	unsigned int height = 1;

	while (key > height_max_key(height))
		height++;
	return height;
}

static unsigned int key_offset(unsigned long key,
			       const struct radix_tree_node *node)
{
	return (key >> node->shift) & RADIX_TREE_MAP_MASK;
}

static bool slot_used(const struct radix_tree_node *node, unsigned int off)
{
	return (node->bitmap[off / LONG_BITS] >> (off % LONG_BITS)) & 1;
}

static void set_slot(struct radix_tree_node *node, unsigned int off,
		     void *item)
{
	node->slots[off] = item;
	node->bitmap[off / LONG_BITS] |= 1UL << (off % LONG_BITS);
}

static void clear_slot(struct radix_tree_node *node, unsigned int off)
{
	node->slots[off] = NULL;
	node->bitmap[off / LONG_BITS] &= ~(1UL << (off % LONG_BITS));
}

static bool node_empty(const struct radix_tree_node *node)
{
	for (unsigned int i = 0; i < RADIX_TREE_BITMAP_LONGS; i++)
		if (node->bitmap[i])
			return false;
	return true;
}

/* True when slot 0 is the only one in use. */
static bool only_slot_zero(const struct radix_tree_node *node)
{
	if (node->bitmap[0] != 1)
		return false;
	for (unsigned int i = 1; i < RADIX_TREE_BITMAP_LONGS; i++)
		if (node->bitmap[i])
			return false;
	return true;
}

/* The lowest used slot at or after from, or -1. */
static int next_used(const struct radix_tree_node *node, unsigned int from)
{
	unsigned int i = from / LONG_BITS;
	unsigned long word;

	if (from >= RADIX_TREE_MAP_SIZE)
		return -1;
	word = node->bitmap[i] & (~0UL << (from % LONG_BITS));
	while (!word) {
		if (++i == RADIX_TREE_BITMAP_LONGS)
			return -1;
		word = node->bitmap[i];
	}
	return (int)(i * LONG_BITS + __builtin_ctzl(word));
}

/* The highest used slot before (below) slot before, or -1. */
static int prev_used(const struct radix_tree_node *node, unsigned int before)
{
	unsigned int last, i;
	unsigned long word;

	if (before == 0)
		return -1;
	last = before - 1;
	i = last / LONG_BITS;
	word = node->bitmap[i] & (~0UL >> (LONG_BITS - 1 - last % LONG_BITS));
	while (!word) {
		if (i-- == 0)
			return -1;
		word = node->bitmap[i];
	}
	return (int)(i * LONG_BITS + LONG_BITS - 1 - __builtin_clzl(word));
}

void radix_tree_init(struct radix_tree_root *root, radix_tree_alloc_fn alloc_fn,
		     radix_tree_free_fn free_fn, void *ctx)
{
	root->rnode = NULL;
	root->height = 0;
	root->count = 0;
	root->nodes = 0;
	root->alloc_node = alloc_fn;
	root->free_node = free_fn;
	root->ctx = ctx;
	root->spares = NULL;
	root->nr_spares = 0;
	root->max_spares = 0;
}

static void trim_spares(struct radix_tree_root *root, unsigned int keep)
{
	while (root->nr_spares > keep) {
		struct radix_tree_node *node = root->spares;

		root->spares = node->parent;
		root->nr_spares--;
		root->free_node(node, root->ctx);
	}
}

void radix_tree_keep_spares(struct radix_tree_root *root, unsigned int max)
{
	root->max_spares = max;
	trim_spares(root, max);
}

/* An empty node: a spare (already all clear) or a zeroed new one. */
static struct radix_tree_node *get_empty_node(struct radix_tree_root *root)
{
	struct radix_tree_node *node = root->spares;

	if (node) {
		root->spares = node->parent;
		root->nr_spares--;
		return node;
	}
	node = root->alloc_node(root->ctx);
	if (node)
		memset(node, 0, sizeof(*node));
	return node;
}

/* A zeroed node from the caller's allocator, or NULL. */
static struct radix_tree_node *node_alloc(struct radix_tree_root *root,
					  struct radix_tree_node *parent,
					  unsigned int offset,
					  unsigned int shift)
{
	struct radix_tree_node *node = get_empty_node(root);

	if (!node)
		return NULL;
	node->parent = parent;
	node->offset = (unsigned char)offset;
	node->shift = (unsigned char)shift;
	root->nodes++;
	return node;
}

/* node has no used slot and every slot pointer is NULL. */
static void node_free(struct radix_tree_root *root,
		      struct radix_tree_node *node)
{
	root->nodes--;
	if (root->nr_spares < root->max_spares) {
		node->parent = root->spares;
		root->spares = node;
		root->nr_spares++;
		return;
	}
	root->free_node(node, root->ctx);
}

/* Drops top levels whose only child is in slot 0: keys then still fit. */
static void shrink(struct radix_tree_root *root)
{
	struct radix_tree_node *top = root->rnode;

	while (top && top->shift && only_slot_zero(top)) {
		struct radix_tree_node *child = top->slots[0];

		child->parent = NULL;
		root->rnode = child;
		root->height--;
		clear_slot(top, 0);
		node_free(root, top);
		top = child;
	}
}

/* Frees node and its ancestors while they are empty, then shrinks. */
static void prune(struct radix_tree_root *root, struct radix_tree_node *node)
{
	while (node && node_empty(node)) {
		struct radix_tree_node *parent = node->parent;

		if (parent) {
			clear_slot(parent, node->offset);
		} else {
			root->rnode = NULL;
			root->height = 0;
		}
		node_free(root, node);
		node = parent;
	}
	shrink(root);
}

/* Makes the tree tall enough for key (first node included); false: no node. */
static bool grow(struct radix_tree_root *root, unsigned long key)
{
	struct radix_tree_node *top;

	if (!root->rnode) {
		top = node_alloc(root, NULL, 0,
				 (height_for(key) - 1) * RADIX_TREE_MAP_SHIFT);
		if (!top)
			return false;
		root->rnode = top;
		root->height = height_for(key);
	}
	while (key > height_max_key(root->height)) {
		top = node_alloc(root, NULL, 0,
				 root->height * RADIX_TREE_MAP_SHIFT);
		if (!top)
			return false;
		set_slot(top, 0, root->rnode);
		root->rnode->parent = top;
		root->rnode = top;
		root->height++;
	}
	return true;
}

/*
 * Growing and filling in the path may each fail part-way; whatever was
 * added is then empty, and prune() takes exactly that back off.
 */
int radix_tree_insert(struct radix_tree_root *root, unsigned long key,
		      void *value)
{
	struct radix_tree_node *node, *child;
	unsigned int off;

	if (!value || !root->alloc_node || !root->free_node)
		return -EINVAL;
	if (!grow(root, key)) {
		shrink(root);
		return -ENOMEM;
	}
	for (node = root->rnode; node->shift; node = child) {
		off = key_offset(key, node);
		child = node->slots[off];
		if (child)
			continue;
		child = node_alloc(root, node, off,
				   node->shift - RADIX_TREE_MAP_SHIFT);
		if (!child) {
			prune(root, node);
			return -ENOMEM;
		}
		set_slot(node, off, child);
	}
	off = key & RADIX_TREE_MAP_MASK;
	if (slot_used(node, off))
		return -EEXIST;
	set_slot(node, off, value);
	root->count++;
	return 0;
}

/* The leaf on key's path, or NULL when there is none. */
static struct radix_tree_node *find_leaf(const struct radix_tree_root *root,
					 unsigned long key)
{
	struct radix_tree_node *node = root->rnode;

	if (!node || key > height_max_key(root->height))
		return NULL;
	while (node->shift) {
		node = node->slots[key_offset(key, node)];
		if (!node)
			return NULL;
	}
	return node;
}

void *radix_tree_lookup(const struct radix_tree_root *root, unsigned long key)
{
	struct radix_tree_node *leaf = find_leaf(root, key);

	return leaf ? leaf->slots[key & RADIX_TREE_MAP_MASK] : NULL;
}

void *radix_tree_replace(struct radix_tree_root *root, unsigned long key,
			 void *value)
{
	struct radix_tree_node *leaf = find_leaf(root, key);
	unsigned int off = key & RADIX_TREE_MAP_MASK;
	void *old;

	if (!leaf || !slot_used(leaf, off) || !value)
		return NULL;
	old = leaf->slots[off];
	leaf->slots[off] = value;
	return old;
}

void *radix_tree_delete(struct radix_tree_root *root, unsigned long key)
{
	struct radix_tree_node *leaf = find_leaf(root, key);
	unsigned int off = key & RADIX_TREE_MAP_MASK;
	void *value;

	if (!leaf || !slot_used(leaf, off))
		return NULL;
	value = leaf->slots[off];
	clear_slot(leaf, off);
	root->count--;
	prune(root, leaf);
	return value;
}

/* Moves c from slot c->offset of an inner node down to its lowest entry. */
static void descend_first(struct cursor *c)
{
	while (c->node->shift) {
		c->base += (unsigned long)c->offset << c->node->shift;
		c->node = c->node->slots[c->offset];
		c->offset = (unsigned int)next_used(c->node, 0);
	}
}

/* Moves c from slot c->offset of an inner node down to its highest entry. */
static void descend_last(struct cursor *c)
{
	while (c->node->shift) {
		c->base += (unsigned long)c->offset << c->node->shift;
		c->node = c->node->slots[c->offset];
		c->offset = (unsigned int)prev_used(c->node,
						    RADIX_TREE_MAP_SIZE);
	}
}

/* Moves c to the parent's slot for c->node; false at the top. */
static bool climb(struct cursor *c)
{
	struct radix_tree_node *node = c->node;

	if (!node->parent)
		return false;
	c->node = node->parent;
	c->offset = node->offset;
	c->base -= (unsigned long)node->offset << c->node->shift;
	return true;
}

/* Moves c to the first entry at or after slot from of c->node, if any. */
static bool seek_next(struct cursor *c, unsigned int from)
{
	int off;

	while ((off = next_used(c->node, from)) < 0) {
		if (!climb(c))
			return false;
		from = c->offset + 1;
	}
	c->offset = (unsigned int)off;
	descend_first(c);
	return true;
}

/* Moves c to the last entry before slot before of c->node, if any. */
static bool seek_prev(struct cursor *c, unsigned int before)
{
	int off;

	while ((off = prev_used(c->node, before)) < 0) {
		if (!climb(c))
			return false;
		before = c->offset;
	}
	c->offset = (unsigned int)off;
	descend_last(c);
	return true;
}

/*
 * Puts c on the deepest node of key's path, at key's slot there: a leaf,
 * or an inner node whose slot for key is empty. False for an empty tree.
 */
static bool walk_path(const struct radix_tree_root *root, unsigned long key,
		      struct cursor *c)
{
	struct radix_tree_node *node = root->rnode;

	c->base = 0;
	if (!node)
		return false;
	for (;;) {
		c->node = node;
		c->offset = key_offset(key, node);
		if (!node->shift || !node->slots[c->offset])
			return true;
		c->base += (unsigned long)c->offset << node->shift;
		node = node->slots[c->offset];
	}
}

/* The entry under c, its key in *key unless key is NULL. */
static void *cursor_entry(const struct cursor *c, unsigned long *key)
{
	if (key)
		*key = c->base + c->offset;
	return c->node->slots[c->offset];
}

/* Sets c on the first entry with a key >= key; false when there is none. */
static bool first_at_or_after(const struct radix_tree_root *root,
			      unsigned long key, struct cursor *c)
{
	if (!root->rnode || key > height_max_key(root->height))
		return false;
	return walk_path(root, key, c) && seek_next(c, c->offset);
}

void *radix_tree_lookup_ge(const struct radix_tree_root *root,
			   unsigned long key, unsigned long *found)
{
	struct cursor c;

	if (!first_at_or_after(root, key, &c))
		return NULL;
	return cursor_entry(&c, found);
}

void *radix_tree_lookup_le(const struct radix_tree_root *root,
			   unsigned long key, unsigned long *found)
{
	struct cursor c;

	if (!root->rnode)
		return NULL;
	if (key > height_max_key(root->height))
		key = height_max_key(root->height);
	if (!walk_path(root, key, &c) || !seek_prev(&c, c.offset + 1))
		return NULL;
	return cursor_entry(&c, found);
}

unsigned int radix_tree_gang_lookup_keys(const struct radix_tree_root *root,
					 void **results, unsigned long *keys,
					 unsigned long first_key,
					 unsigned int max)
{
	struct cursor c;
	unsigned long key;
	unsigned int n = 0;

	if (!max || !first_at_or_after(root, first_key, &c))
		return 0;
	do {
		results[n] = cursor_entry(&c, &key);
		if (keys)
			keys[n] = key;
		n++;
	} while (n < max && seek_next(&c, c.offset + 1));
	return n;
}

unsigned int radix_tree_gang_lookup(const struct radix_tree_root *root,
				    void **results, unsigned long first_key,
				    unsigned int max)
{
	return radix_tree_gang_lookup_keys(root, results, NULL, first_key, max);
}

void *radix_tree_iter_next(const struct radix_tree_root *root,
			   struct radix_tree_iter *iter, unsigned long *key)
{
	void *value;

	if (iter->done)
		return NULL;
	value = radix_tree_lookup_ge(root, iter->next, key);
	if (!value || *key == KEY_MAX)
		iter->done = true;
	else
		iter->next = *key + 1;
	return value;
}

/* Frees children before parents, climbing through the parent links. */
void radix_tree_destroy(struct radix_tree_root *root)
{
	struct radix_tree_node *node = root->rnode, *parent;
	int off;

	while (node) {
		off = node->shift ? next_used(node, 0) : -1;
		if (off >= 0) {
			parent = node;
			node = node->slots[off];
			clear_slot(parent, (unsigned int)off);
			continue;
		}
		parent = node->parent;
		node_free(root, node);
		node = parent;
	}
	root->rnode = NULL;
	root->height = 0;
	root->count = 0;
	trim_spares(root, 0);
}

/* What is wrong with node as a child in slot off of parent, or NULL. */
static const char *check_link(const struct radix_tree_node *parent,
			      unsigned int off)
{
	const struct radix_tree_node *child = parent->slots[off];

	if (child->parent != parent)
		return "child's parent link is wrong";
	if (child->offset != off)
		return "child's offset is not its slot in the parent";
	if (child->shift + RADIX_TREE_MAP_SHIFT != parent->shift)
		return "child's shift is not one level below its parent";
	return NULL;
}

/* What is wrong inside one node, or NULL; counts its entries. */
static const char *check_node(const struct radix_tree_node *node,
			      unsigned long *entries)
{
	const char *err;
	unsigned int off;

	if (node_empty(node))
		return "an empty node was left in the tree";
	for (off = 0; off < RADIX_TREE_MAP_SIZE; off++) {
		if (slot_used(node, off) != (node->slots[off] != NULL))
			return "bitmap and slots disagree";
		if (!node->slots[off])
			continue;
		if (!node->shift)
			(*entries)++;
		else if ((err = check_link(node, off)))
			return err;
	}
	return NULL;
}

/* Visits nodes parent first, climbing back through the parent links. */
static const char *check_nodes(const struct radix_tree_root *root)
{
	const struct radix_tree_node *node = root->rnode;
	unsigned long nodes = 0, entries = 0;
	unsigned int from = 0;
	const char *err;
	int off;

	while (node) {
		if (from == 0) {
			if (++nodes > root->nodes)
				return "more nodes than root->nodes";
			err = check_node(node, &entries);
			if (err)
				return err;
		}
		off = node->shift ? next_used(node, from) : -1;
		if (off >= 0) {
			node = node->slots[off];
			from = 0;
			continue;
		}
		from = node->offset + 1U;
		node = node->parent;
	}
	if (nodes != root->nodes)
		return "fewer nodes than root->nodes";
	if (entries != root->count)
		return "entries do not match root->count";
	return NULL;
}

/* A spare must be all clear: it is handed out again without a memset. */
static const char *check_spares(const struct radix_tree_root *root)
{
	const struct radix_tree_node *node = root->spares;
	unsigned int n = 0;

	for (; node; node = node->parent) {
		if (++n > root->nr_spares)
			return "more spares than root->nr_spares";
		if (!node_empty(node))
			return "a spare node has used slots";
		for (unsigned int i = 0; i < RADIX_TREE_MAP_SIZE; i++)
			if (node->slots[i])
				return "a spare node has a stale slot";
	}
	if (n != root->nr_spares)
		return "fewer spares than root->nr_spares";
	if (n > root->max_spares)
		return "more spares kept than allowed";
	return NULL;
}

const char *radix_tree_check(const struct radix_tree_root *root)
{
	const struct radix_tree_node *top = root->rnode;
	const char *err = check_spares(root);

	if (err)
		return err;
	if (!top)
		return root->height || root->count || root->nodes ?
			"empty tree with a height, entries or nodes" : NULL;
	if (top->parent)
		return "top node has a parent";
	if (root->height == 0 || root->height > RADIX_TREE_MAX_HEIGHT)
		return "height out of range";
	if (top->shift != (root->height - 1) * RADIX_TREE_MAP_SHIFT)
		return "top node's shift does not match the height";
	if (top->shift && only_slot_zero(top))
		return "tree is taller than its keys need";
	return check_nodes(root);
}
