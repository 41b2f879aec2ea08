/* Radix tree self-tests on the target: 32-bit keys, a static node pool. */
#include <kernel/ktest.h>
#include <kernel/radix-tree.h>
#include <kernel/errno.h>

#define POOL_NODES 256
#define NCAND 160
#define KEY_MAX (~0UL)

/* A free list threaded through unused nodes, as the collector's pool is. */
union pool_node {
	union pool_node *next;
	struct radix_tree_node node;
};

struct pool {
	union pool_node *free;
	unsigned int used;
	unsigned int limit;	/* allocations beyond this fail */
};

static union pool_node pool_nodes[POOL_NODES];

static void pool_init(struct pool *p, unsigned int limit)
{
	p->free = NULL;
	for (int i = POOL_NODES - 1; i >= 0; i--) {
		pool_nodes[i].next = p->free;
		p->free = &pool_nodes[i];
	}
	p->used = 0;
	p->limit = limit;
}

static void *pool_alloc(void *ctx)
{
	struct pool *p = ctx;
	union pool_node *n = p->free;

	if (!n || p->used == p->limit)
		return NULL;
	p->free = n->next;
	p->used++;
	return n;
}

static void pool_free(void *node, void *ctx)
{
	struct pool *p = ctx;
	union pool_node *n = node;

	n->next = p->free;
	p->free = n;
	p->used--;
}

static u32 rng_state;

/* xorshift32 with a fixed seed: the same run every boot. */
static u32 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static void *val(unsigned long key)
{
	return (void *)((key * 2654435761UL) | 1);
}

/* Candidate keys and which of them the tree should hold. */
struct model {
	unsigned long keys[NCAND];
	bool present[NCAND];
	unsigned int n;
};

static bool model_has_key(const struct model *m, unsigned long key)
{
	for (unsigned int i = 0; i < m->n; i++)
		if (m->keys[i] == key)
			return true;
	return false;
}

/* Dense, heap-like, full-width and edge keys, no duplicates. */
static void model_init(struct model *m)
{
	static const unsigned long edges[] = { 0, 1, 0xfffff000UL, KEY_MAX };
	unsigned long key;

	m->n = 0;
	for (unsigned int i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		m->keys[m->n++] = edges[i];
	while (m->n < NCAND) {
		switch (m->n % 4) {
		case 0:
			key = 0x1000 + rng() % 256;
			break;
		case 1:
			key = 0xc0100000UL + (rng() % 8192) * 8;
			break;
		case 2:
			key = m->n % 16 == 2 ? rng() : rng() % 100000;
			break;
		default:
			key = 0xc0100000UL + (rng() % 1024) * 16;
			break;
		}
		if (!model_has_key(m, key))
			m->keys[m->n++] = key;
	}
	for (unsigned int i = 0; i < m->n; i++)
		m->present[i] = false;
}

/* The present key closest to q from below (le) or above (!le), or -1. */
static int model_nearest(const struct model *m, unsigned long q, bool le)
{
	int best = -1;

	for (unsigned int i = 0; i < m->n; i++) {
		unsigned long k = m->keys[i];

		if (!m->present[i] || (le ? k > q : k < q))
			continue;
		if (best < 0 || (le ? k > m->keys[best] : k < m->keys[best]))
			best = (int)i;
	}
	return best;
}

static void expect_sound(struct ktest *t, const struct radix_tree_root *root)
{
	const char *err = radix_tree_check(root);

	if (err)
		ktest_fail(t, __FILE__, __LINE__, "tree inconsistent: %s", err);
}

/* Walks the tree in order and matches it against the model. */
static void check_walk(struct ktest *t, const struct radix_tree_root *root,
		       const struct model *m)
{
	struct radix_tree_iter iter;
	unsigned long key, prev = 0, seen = 0;
	void *value;

	radix_tree_for_each(root, &iter, key, value) {
		int i = model_nearest(m, key, true);

		KEXPECT(t, i >= 0 && m->keys[i] == key);
		KEXPECT(t, value == val(key));
		KEXPECT(t, seen == 0 || key > prev);
		prev = key;
		seen++;
	}
	KEXPECT_EQ(t, seen, radix_tree_count(root));
	expect_sound(t, root);
}

static void check_query(struct ktest *t, const struct radix_tree_root *root,
			const struct model *m, unsigned long q)
{
	int le = model_nearest(m, q, true), ge = model_nearest(m, q, false);
	unsigned long found = 0;

	if (le < 0) {
		KEXPECT(t, !radix_tree_lookup_le(root, q, &found));
	} else {
		KEXPECT(t, radix_tree_lookup_le(root, q, &found) == val(found));
		KEXPECT_EQ(t, found, m->keys[le]);
	}
	if (ge < 0) {
		KEXPECT(t, !radix_tree_lookup_ge(root, q, &found));
	} else {
		KEXPECT(t, radix_tree_lookup_ge(root, q, &found) == val(found));
		KEXPECT_EQ(t, found, m->keys[ge]);
	}
}

static void random_op(struct ktest *t, struct radix_tree_root *root,
		      struct model *m)
{
	unsigned int i = rng() % m->n;
	unsigned long key = m->keys[i];

	switch (rng() % 8) {
	case 0: case 1: case 2:
		KEXPECT_EQ(t, radix_tree_insert(root, key, val(key)),
			   m->present[i] ? -EEXIST : 0);
		m->present[i] = true;
		break;
	case 3: case 4:
		KEXPECT(t, radix_tree_delete(root, key) ==
			   (m->present[i] ? val(key) : NULL));
		m->present[i] = false;
		break;
	case 5: case 6:
		KEXPECT(t, radix_tree_lookup(root, key) ==
			   (m->present[i] ? val(key) : NULL));
		break;
	default:
		check_query(t, root, m, rng() % 3 ? key + (rng() % 64) - 32
						  : rng());
		break;
	}
}

static void test_random_ops(struct ktest *t)
{
	static struct model m;
	struct radix_tree_root root;
	struct pool pool;

	rng_state = 0x6b6c6561;
	model_init(&m);
	pool_init(&pool, POOL_NODES);
	radix_tree_init(&root, pool_alloc, pool_free, &pool);
	for (int op = 1; op <= 4000 && !t->failures; op++) {
		random_op(t, &root, &m);
		if (op % 500 == 0)
			check_walk(t, &root, &m);
	}
	KEXPECT_EQ(t, pool.used, root.nodes);
	for (unsigned int i = 0; i < m.n; i++)
		if (m.present[i])
			KEXPECT(t, radix_tree_delete(&root, m.keys[i]));
	KEXPECT_EQ(t, radix_tree_count(&root), 0);
	KEXPECT_EQ(t, pool.used, 0);
	radix_tree_destroy(&root);
}

/* 32-bit keys: 0xffffffff needs every level, and the height comes back. */
static void test_edge_keys(struct ktest *t)
{
	struct radix_tree_root root;
	struct pool pool;
	unsigned long found = 0;

	pool_init(&pool, POOL_NODES);
	radix_tree_init(&root, pool_alloc, pool_free, &pool);
	KEXPECT_EQ(t, radix_tree_insert(&root, 0, val(0)), 0);
	KEXPECT_EQ(t, root.height, 1);
	KEXPECT_EQ(t, radix_tree_insert(&root, 0xfffff000UL, val(1)), 0);
	KEXPECT_EQ(t, radix_tree_insert(&root, KEY_MAX, val(2)), 0);
	KEXPECT_EQ(t, root.height, RADIX_TREE_MAX_HEIGHT);
	KEXPECT(t, radix_tree_lookup_le(&root, 0xfffff7ffUL, &found) == val(1));
	KEXPECT_EQ(t, found, 0xfffff000UL);
	KEXPECT(t, radix_tree_lookup_le(&root, 0xffffefffUL, &found) == val(0));
	KEXPECT(t, radix_tree_lookup_ge(&root, 0xfffff001UL, &found) == val(2));
	KEXPECT_EQ(t, found, KEY_MAX);
	KEXPECT(t, radix_tree_delete(&root, 0xfffff000UL) == val(1));
	KEXPECT(t, radix_tree_delete(&root, KEY_MAX) == val(2));
	KEXPECT_EQ(t, root.height, 1);
	KEXPECT_EQ(t, pool.used, 1);
	expect_sound(t, &root);
	radix_tree_destroy(&root);
	KEXPECT_EQ(t, pool.used, 0);
}

/* An empty pool makes insert fail cleanly, and the tree stays whole. */
static void test_pool_exhaustion(struct ktest *t)
{
	struct radix_tree_root root;
	struct pool pool;
	unsigned long key = 0, inserted = 0;
	int ret = 0;

	rng_state = 12345;
	pool_init(&pool, 12);
	radix_tree_init(&root, pool_alloc, pool_free, &pool);
	for (int i = 0; i < 1000 && ret == 0; i++) {
		key = rng();
		ret = radix_tree_insert(&root, key, val(key));
		if (ret == 0)
			inserted++;
	}
	KEXPECT_EQ(t, ret, -ENOMEM);
	KEXPECT(t, !radix_tree_lookup(&root, key));
	KEXPECT_EQ(t, radix_tree_count(&root), inserted);
	KEXPECT_EQ(t, pool.used, root.nodes);
	KEXPECT(t, pool.used <= 12);
	expect_sound(t, &root);
	radix_tree_destroy(&root);
	KEXPECT_EQ(t, pool.used, 0);
}

static const struct ktest_case radix_tree_cases[] = {
	KTEST_CASE(test_random_ops),
	KTEST_CASE(test_edge_keys),
	KTEST_CASE(test_pool_exhaustion),
	{ 0 },
};
KTEST_SUITE("radix-tree", radix_tree_cases);
