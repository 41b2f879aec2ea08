/*
 * libFuzzer target for lib/radix-tree.c: the input is a sequence of
 * operations (insert, delete, lookup, lookup_le/ge, gang lookups, walks
 * that delete as they go, spares, destroy), with keys small, huge, near
 * powers of two or next to keys already in the tree, and node
 * allocations that fail on request. A sorted array is the model: every
 * answer must match it, radix_tree_check() must pass after every change,
 * and no node may be left over at the end.
 */
#include <kernel/radix-tree.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <stdlib.h>

#define MODEL_MAX 1024
#define GANG_MAX 16
#define INPUT_MAX 4096

struct entry {
	unsigned long key;
	void *value;
};

/* The model: entries sorted by key. */
static struct entry model[MODEL_MAX];
static unsigned int nr_model;

/* The operation bytes, consumed front to back. */
struct input {
	const u8 *p;
	size_t left;
};

struct allocator {
	unsigned long live;	/* nodes handed out and not yet freed */
	int fail_in;		/* allocations before one fails; <0: none */
};

static unsigned long next_seq;

static void fail_if(bool cond)
{
	if (cond)
		abort();
}

static u8 byte(struct input *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static unsigned long bytes(struct input *in, unsigned int n)
{
	unsigned long v = 0;

	while (n--)
		v = v << 8 | byte(in);
	return v;
}

static void *alloc_node(void *ctx)
{
	struct allocator *a = ctx;

	if (a->fail_in >= 0 && a->fail_in-- == 0)
		return NULL;
	a->live++;
	return malloc(RADIX_TREE_NODE_SIZE);
}

static void free_node(void *node, void *ctx)
{
	struct allocator *a = ctx;

	fail_if(!a->live);
	a->live--;
	free(node);
}

/* Index of the first model entry with a key >= key. */
static unsigned int model_find(unsigned long key)
{
	unsigned int lo = 0, hi = nr_model;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (model[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool model_has(unsigned long key, unsigned int *i)
{
	*i = model_find(key);
	return *i < nr_model && model[*i].key == key;
}

/* Keys where trees change shape, and keys next to the ones present. */
static unsigned long pick_key(struct input *in)
{
	u8 how = byte(in);
	unsigned long n = byte(in);

	switch (how % 7) {
	case 0:
		return n;
	case 1:
		return n << 8 | byte(in);
	case 2:
		return ~0UL - n;
	case 3:
		return (1UL << (n % RADIX_TREE_LONG_BITS)) + (how >> 3) - 16;
	case 4:
		if (!nr_model)
			return n;
		return model[n % nr_model].key + (how >> 3) - 16;
	case 5:
		return bytes(in, sizeof(long));
	default:
		return n << (how >> 3) % RADIX_TREE_LONG_BITS;
	}
}

static void do_insert(struct radix_tree_root *root, struct allocator *a,
		      unsigned long key, int fail_in)
{
	void *value = (void *)(++next_seq << 1 | 1);
	unsigned long nodes = root->nodes;
	unsigned int i;
	bool had = model_has(key, &i);
	int ret;

	if (!had && nr_model == MODEL_MAX)
		return;
	a->fail_in = fail_in;
	ret = radix_tree_insert(root, key, value);
	a->fail_in = -1;
	if (ret == -ENOMEM) {
		/* The tree must be exactly as before: no entry, no node. */
		fail_if(had || root->nodes != nodes);
		return;
	}
	fail_if(ret != (had ? -EEXIST : 0));
	if (had)
		return;
	memmove(model + i + 1, model + i, (nr_model - i) * sizeof(*model));
	model[i].key = key;
	model[i].value = value;
	nr_model++;
}

static void do_delete(struct radix_tree_root *root, unsigned long key)
{
	unsigned int i;
	bool had = model_has(key, &i);
	void *value = radix_tree_delete(root, key);

	fail_if(value != (had ? model[i].value : NULL));
	if (!had)
		return;
	nr_model--;
	memmove(model + i, model + i + 1, (nr_model - i) * sizeof(*model));
}

static void do_lookups(const struct radix_tree_root *root, unsigned long key)
{
	unsigned long found = 0x5a5a;
	unsigned int i;
	bool had = model_has(key, &i);
	void *v;

	fail_if(radix_tree_lookup(root, key) != (had ? model[i].value : NULL));
	/* i is the first entry >= key; the one before it is the last < key. */
	v = radix_tree_lookup_ge(root, key, &found);
	fail_if(i < nr_model ? v != model[i].value || found != model[i].key :
			       v != NULL);
	if (had)
		i++;
	v = radix_tree_lookup_le(root, key, &found);
	fail_if(i ? v != model[i - 1].value || found != model[i - 1].key :
		    v != NULL);
}

static void do_gang(const struct radix_tree_root *root, unsigned long key,
		    unsigned int max)
{
	void *results[GANG_MAX];
	unsigned long keys[GANG_MAX];
	unsigned int i = model_find(key), n, want;

	want = nr_model - i < max ? nr_model - i : max;
	n = radix_tree_gang_lookup_keys(root, results, keys, key, max);
	fail_if(n != want);
	for (unsigned int j = 0; j < n; j++)
		fail_if(results[j] != model[i + j].value ||
			keys[j] != model[i + j].key);
	fail_if(radix_tree_gang_lookup(root, results, key, max) != want);
}

/* A walk from key; every entry whose bit in mask is set gets deleted. */
static void do_walk(struct radix_tree_root *root, unsigned long key, u8 mask)
{
	struct radix_tree_iter iter;
	unsigned int i = model_find(key), step = 0;
	unsigned long k;
	void *v;

	radix_tree_iter_init(&iter, key);
	while ((v = radix_tree_iter_next(root, &iter, &k))) {
		fail_if(i >= nr_model || v != model[i].value ||
			k != model[i].key);
		if (mask >> (step++ % 8) & 1)
			do_delete(root, k);
		else
			i++;
	}
	fail_if(i != nr_model);
}

static void do_op(struct radix_tree_root *root, struct allocator *a,
		  struct input *in)
{
	u8 op = byte(in);
	unsigned long key = pick_key(in);

	switch (op % 8) {
	case 0:
	case 1:
		/* One insert in four gets an allocation failure. */
		do_insert(root, a, key, op % 4 == 1 ? (op >> 4) % 4 : -1);
		break;
	case 2:
		do_delete(root, key);
		break;
	case 3:
		do_lookups(root, key);
		break;
	case 4:
		do_gang(root, key, 1 + (op >> 3) % GANG_MAX);
		break;
	case 5:
		do_walk(root, key, byte(in));
		break;
	case 6:
		radix_tree_keep_spares(root, (op >> 3) % 4);
		break;
	default:
		/* Rarely: start over, and the tree must be usable again. */
		if (op >> 3 == 0x1f) {
			radix_tree_destroy(root);
			nr_model = 0;
		}
		break;
	}
	fail_if(radix_tree_count(root) != nr_model);
	fail_if(a->live != root->nodes + root->nr_spares);
	/* The full check walks every node: only after changes. */
	if (op % 8 != 3 && op % 8 != 4)
		fail_if(radix_tree_check(root) != NULL);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct allocator a = { .fail_in = -1 };
	struct radix_tree_root root;
	/* Longer sequences find nothing new, only run slower. */
	struct input in = { data, size < INPUT_MAX ? size : INPUT_MAX };

	nr_model = 0;
	radix_tree_init(&root, alloc_node, free_node, &a);
	while (in.left)
		do_op(&root, &a, &in);
	radix_tree_destroy(&root);
	fail_if(a.live != 0);
	return 0;
}
