/* Host tests for lib/radix-tree.c, checked against sorted-array models. */
#include <kernel/radix-tree.h>
#include <kernel/errno.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <limits.h>
#include <stdlib.h>
#include <cmocka.h>

#define LONG_BITS RADIX_TREE_LONG_BITS
#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Counts the tree's node traffic and fails one chosen allocation. */
struct test_alloc {
	unsigned long attempts;	/* calls of alloc, failed ones included */
	unsigned long allocs;
	unsigned long frees;
	unsigned long fail_at;	/* attempt number that returns NULL */
};

#define NEVER ULONG_MAX

static void *test_alloc_node(void *ctx)
{
	struct test_alloc *a = ctx;
	unsigned char *p;

	if (a->attempts++ == a->fail_at)
		return NULL;
	p = malloc(RADIX_TREE_NODE_SIZE);
	assert_non_null(p);
	/* Junk, so that a field the tree forgets to set shows. */
	for (size_t i = 0; i < RADIX_TREE_NODE_SIZE; i++)
		p[i] = 0xa5;
	a->allocs++;
	return p;
}

static void test_free_node(void *node, void *ctx)
{
	struct test_alloc *a = ctx;
	unsigned char *p = node;

	for (size_t i = 0; i < RADIX_TREE_NODE_SIZE; i++)
		p[i] = 0x5a;
	a->frees++;
	free(node);
}

static void tree_init(struct radix_tree_root *root, struct test_alloc *a)
{
	*a = (struct test_alloc){ .fail_at = NEVER };
	radix_tree_init(root, test_alloc_node, test_free_node, a);
}

static void assert_sound(const struct radix_tree_root *root)
{
	const char *err = radix_tree_check(root);

	if (err)
		fail_msg("radix tree inconsistent: %s", err);
}

/* Frees the nodes and checks that every node allocated was freed. */
static void tree_finish(struct radix_tree_root *root, struct test_alloc *a)
{
	radix_tree_destroy(root);
	assert_sound(root);
	assert_int_equal(a->allocs, a->frees);
	assert_int_equal(root->nodes, 0);
}

/* A distinct non-NULL value for each key (odd, so never NULL). */
static void *val(unsigned long key)
{
	return (void *)((key * 0x9e3779b97f4a7c15ULL) | 1);
}

/* xorshift64*: a fixed seed keeps every run the same. */
static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
	rng_state = seed;
}

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static unsigned long rng_below(unsigned long n)
{
	return (unsigned long)(rng() % n);
}

/* Fewest levels holding key, worked out independently of the tree. */
static unsigned int levels_for(unsigned long key)
{
	unsigned int bits = 0, levels = 1;

	while (bits < LONG_BITS && (key >> bits) != 0)
		bits++;
	while (levels * RADIX_TREE_MAP_SHIFT < bits)
		levels++;
	return levels;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Sorts keys and drops duplicates; returns the new length. */
static size_t sort_unique(unsigned long *keys, size_t n)
{
	size_t out = 0;

	qsort(keys, n, sizeof(*keys), cmp_ulong);
	for (size_t i = 0; i < n; i++)
		if (out == 0 || keys[out - 1] != keys[i])
			keys[out++] = keys[i];
	return out;
}

/* Index of the last sorted key <= q, or -1. */
static long model_floor(const unsigned long *keys, size_t n, unsigned long q)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (keys[mid] <= q)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

/* Every entry, in order, against sorted keys[] with values val(key). */
static void assert_contents(const struct radix_tree_root *root,
			    const unsigned long *keys, size_t n)
{
	struct radix_tree_iter iter;
	unsigned long key;
	void *value;
	size_t i = 0;

	radix_tree_for_each(root, &iter, key, value) {
		assert_true(i < n);
		assert_int_equal(key, keys[i]);
		assert_ptr_equal(value, val(key));
		i++;
	}
	assert_int_equal(i, n);
	assert_int_equal(radix_tree_count(root), n);
}

static void insert_all(struct radix_tree_root *root, const unsigned long *keys,
		       size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(radix_tree_insert(root, keys[i], val(keys[i])),
				 0);
}

static void test_empty_tree(void **state)
{
	struct radix_tree_root root;
	struct test_alloc a;
	struct radix_tree_iter iter;
	unsigned long key = 7;
	void *results[4], *value;

	(void)state;
	tree_init(&root, &a);
	assert_null(radix_tree_lookup(&root, 0));
	assert_null(radix_tree_lookup(&root, ULONG_MAX));
	assert_null(radix_tree_delete(&root, 0));
	assert_null(radix_tree_lookup_le(&root, ULONG_MAX, &key));
	assert_null(radix_tree_lookup_ge(&root, 0, &key));
	assert_int_equal(key, 7);
	assert_int_equal(radix_tree_gang_lookup(&root, results, 0, 4), 0);
	radix_tree_for_each(&root, &iter, key, value)
		fail_msg("empty tree yielded key %lu", key);
	assert_int_equal(radix_tree_count(&root), 0);
	assert_int_equal(root.height, 0);
	assert_sound(&root);
	assert_int_equal(a.allocs, 0);
}

static void test_insert_lookup_delete(void **state)
{
	struct radix_tree_root root;
	struct test_alloc a;
	unsigned long allocs;
	int x, y, z;

	(void)state;
	tree_init(&root, &a);
	assert_int_equal(radix_tree_insert(&root, 10, &x), 0);
	assert_int_equal(radix_tree_insert(&root, 300, &y), 0);
	assert_int_equal(radix_tree_insert(&root, 70000, &z), 0);
	assert_int_equal(radix_tree_count(&root), 3);
	assert_ptr_equal(radix_tree_lookup(&root, 10), &x);
	assert_ptr_equal(radix_tree_lookup(&root, 300), &y);
	assert_ptr_equal(radix_tree_lookup(&root, 70000), &z);
	assert_null(radix_tree_lookup(&root, 11));
	assert_null(radix_tree_lookup(&root, 299));
	assert_null(radix_tree_lookup(&root, 70000UL << 20));
	assert_sound(&root);

	/* replace: only a key that is there, never allocating. */
	allocs = a.allocs;
	assert_ptr_equal(radix_tree_replace(&root, 300, &z), &y);
	assert_ptr_equal(radix_tree_lookup(&root, 300), &z);
	assert_ptr_equal(radix_tree_replace(&root, 300, &y), &z);
	assert_null(radix_tree_replace(&root, 301, &z));
	assert_null(radix_tree_lookup(&root, 301));
	assert_null(radix_tree_replace(&root, 300, NULL));
	assert_ptr_equal(radix_tree_lookup(&root, 300), &y);
	assert_int_equal(radix_tree_count(&root), 3);
	assert_int_equal(a.allocs, allocs);

	assert_ptr_equal(radix_tree_delete(&root, 300), &y);
	assert_null(radix_tree_delete(&root, 300));
	assert_null(radix_tree_lookup(&root, 300));
	assert_ptr_equal(radix_tree_lookup(&root, 10), &x);
	assert_int_equal(radix_tree_count(&root), 2);
	assert_sound(&root);
	assert_ptr_equal(radix_tree_delete(&root, 70000), &z);
	assert_int_equal(root.height, levels_for(10));
	assert_ptr_equal(radix_tree_delete(&root, 10), &x);
	assert_int_equal(root.height, 0);
	assert_int_equal(a.allocs, a.frees);
	tree_finish(&root, &a);
}

static void test_duplicates_and_bad_input(void **state)
{
	struct radix_tree_root root, bare;
	struct test_alloc a;
	unsigned long nodes;
	int x, y;

	(void)state;
	tree_init(&root, &a);
	assert_int_equal(radix_tree_insert(&root, 1UL << 30, &x), 0);
	nodes = root.nodes;
	assert_int_equal(radix_tree_insert(&root, 1UL << 30, &y), -EEXIST);
	assert_ptr_equal(radix_tree_lookup(&root, 1UL << 30), &x);
	assert_int_equal(radix_tree_count(&root), 1);
	assert_int_equal(root.nodes, nodes);
	assert_int_equal(radix_tree_insert(&root, 5, NULL), -EINVAL);
	assert_null(radix_tree_lookup(&root, 5));
	assert_sound(&root);

	radix_tree_init(&bare, NULL, NULL, NULL);
	assert_int_equal(radix_tree_insert(&bare, 5, &x), -EINVAL);
	assert_null(radix_tree_lookup(&bare, 5));
	tree_finish(&root, &a);
}

/* Keys 0, 1 and ULONG_MAX: the height follows the largest key both ways. */
static void test_edge_keys_and_height(void **state)
{
	struct radix_tree_root root;
	struct test_alloc a;
	unsigned long big = 0xfffff000UL;

	(void)state;
	tree_init(&root, &a);
	assert_int_equal(radix_tree_insert(&root, 0, val(0)), 0);
	assert_int_equal(radix_tree_insert(&root, 1, val(1)), 0);
	assert_int_equal(root.height, 1);
	assert_int_equal(root.nodes, 1);

	assert_int_equal(radix_tree_insert(&root, ULONG_MAX, val(ULONG_MAX)), 0);
	assert_int_equal(root.height, RADIX_TREE_MAX_HEIGHT);
	/* Two full-depth paths that share only the top node. */
	assert_int_equal(root.nodes, 2 * RADIX_TREE_MAX_HEIGHT - 1);
	assert_int_equal(radix_tree_insert(&root, big, val(big)), 0);
	assert_ptr_equal(radix_tree_lookup(&root, 0), val(0));
	assert_ptr_equal(radix_tree_lookup(&root, 1), val(1));
	assert_ptr_equal(radix_tree_lookup(&root, ULONG_MAX), val(ULONG_MAX));
	assert_ptr_equal(radix_tree_lookup(&root, big), val(big));
	assert_null(radix_tree_lookup(&root, ULONG_MAX - 1));
	assert_null(radix_tree_lookup(&root, 2));
	assert_sound(&root);

	assert_ptr_equal(radix_tree_delete(&root, ULONG_MAX), val(ULONG_MAX));
	assert_int_equal(root.height, levels_for(big));
	assert_sound(&root);
	assert_ptr_equal(radix_tree_delete(&root, big), val(big));
	assert_int_equal(root.height, 1);
	assert_int_equal(root.nodes, 1);
	assert_ptr_equal(radix_tree_delete(&root, 0), val(0));
	assert_ptr_equal(radix_tree_delete(&root, 1), val(1));
	assert_int_equal(root.nodes, 0);
	assert_int_equal(root.height, 0);

	/* ULONG_MAX alone, then a small key: the tree must stay tall. */
	assert_int_equal(radix_tree_insert(&root, ULONG_MAX, val(ULONG_MAX)), 0);
	assert_int_equal(root.height, RADIX_TREE_MAX_HEIGHT);
	assert_int_equal(radix_tree_insert(&root, 0, val(0)), 0);
	assert_ptr_equal(radix_tree_delete(&root, ULONG_MAX), val(ULONG_MAX));
	assert_int_equal(root.height, 1);
	tree_finish(&root, &a);
}

/* Nodes a tree holding exactly keys 0..n-1 needs, level by level. */
static unsigned long dense_nodes(unsigned long n)
{
	unsigned long total = 0, level = n;

	do {
		level = (level + RADIX_TREE_MAP_SIZE - 1) / RADIX_TREE_MAP_SIZE;
		total += level;
	} while (level > 1);
	return total;
}

static void test_dense_keys(void **state)
{
	enum { N = 10000 };
	struct radix_tree_root root;
	struct test_alloc a;
	unsigned long *keys = malloc(N * sizeof(*keys)), got[100];
	void *results[100];
	size_t i;

	(void)state;
	tree_init(&root, &a);
	for (i = 0; i < N; i++)
		keys[i] = i;
	insert_all(&root, keys, N);
	assert_int_equal(root.nodes, dense_nodes(N));
	assert_int_equal(root.height, levels_for(N - 1));
	for (i = 0; i < N; i++)
		assert_ptr_equal(radix_tree_lookup(&root, i), val(i));
	assert_null(radix_tree_lookup(&root, N));
	for (i = 0; i < N; i += 100) {
		assert_int_equal(radix_tree_gang_lookup_keys(&root, results, got,
							     i, 100), 100);
		for (size_t j = 0; j < 100; j++) {
			assert_int_equal(got[j], i + j);
			assert_ptr_equal(results[j], val(i + j));
		}
	}
	assert_sound(&root);
	for (i = 1; i < N; i += 2)
		assert_ptr_equal(radix_tree_delete(&root, i), val(i));
	for (i = 0; i < N / 2; i++)
		keys[i] = 2 * i;
	assert_contents(&root, keys, N / 2);
	assert_sound(&root);
	for (i = 0; i < N; i += 2)
		assert_ptr_equal(radix_tree_delete(&root, i), val(i));
	assert_int_equal(root.nodes, 0);
	assert_int_equal(a.allocs, a.frees);
	free(keys);
	tree_finish(&root, &a);
}

/* Keys far apart: top bits only, then random full-width keys. */
static void test_sparse_keys(void **state)
{
	enum { TOP = 256, RANDOM = 3000, N = TOP + RANDOM };
	struct radix_tree_root root;
	struct test_alloc a;
	unsigned long *keys = malloc(N * sizeof(*keys));
	size_t n, i;

	(void)state;
	rng_seed(0x5eed5eedULL);
	tree_init(&root, &a);
	for (i = 0; i < TOP; i++)
		keys[i] = i << (LONG_BITS - 8);
	for (i = TOP; i < N; i++)
		keys[i] = (unsigned long)rng();
	n = sort_unique(keys, N);
	insert_all(&root, keys, n);
	assert_int_equal(root.height, RADIX_TREE_MAX_HEIGHT);
	for (i = 0; i < n; i++) {
		assert_ptr_equal(radix_tree_lookup(&root, keys[i]), val(keys[i]));
		if (i + 1 < n && keys[i] + 1 != keys[i + 1])
			assert_null(radix_tree_lookup(&root, keys[i] + 1));
	}
	assert_contents(&root, keys, n);
	assert_sound(&root);
	for (i = 0; i < n; i++) {
		size_t j = i + rng_below(n - i);
		unsigned long t = keys[i];

		keys[i] = keys[j];
		keys[j] = t;
		assert_ptr_equal(radix_tree_delete(&root, keys[i]), val(keys[i]));
	}
	assert_int_equal(root.nodes, 0);
	assert_int_equal(root.height, 0);
	assert_int_equal(a.allocs, a.frees);
	free(keys);
	tree_finish(&root, &a);
}

/*
 * The keys the randomized tests draw from: a dense run, heap-like
 * addresses, small numbers, full-width numbers and the edges.
 */
static size_t make_candidates(unsigned long *keys, size_t max)
{
	static const unsigned long edges[] = {
		0, 1, 2, 0xfffff000UL, ULONG_MAX, ULONG_MAX - 1,
		1UL << (LONG_BITS - 1), RADIX_TREE_MAP_SIZE - 1,
		RADIX_TREE_MAP_SIZE,
	};
	size_t n = 0, quarter = (max - N_ELEMS(edges)) / 4;

	for (size_t i = 0; i < N_ELEMS(edges); i++)
		keys[n++] = edges[i];
	for (size_t i = 0; i < quarter; i++) {
		keys[n++] = 0x10000 + i;
		keys[n++] = 0xc0000000UL + rng_below(1 << 20) * 8;
		keys[n++] = rng_below(100000);
		keys[n++] = (unsigned long)rng();
	}
	return sort_unique(keys, n);
}

/* A set of candidate keys, each present or not, to check the tree against. */
struct model {
	unsigned long *keys;
	bool *present;
	size_t n;
};

static void model_init(struct model *m, size_t max)
{
	m->keys = malloc(max * sizeof(*m->keys));
	m->present = calloc(max, sizeof(*m->present));
	assert_non_null(m->keys);
	assert_non_null(m->present);
	m->n = make_candidates(m->keys, max);
}

static void model_free(struct model *m)
{
	free(m->keys);
	free(m->present);
}

/* Index of the last present key <= q, or -1. */
static long model_le(const struct model *m, unsigned long q)
{
	long i = model_floor(m->keys, m->n, q);

	while (i >= 0 && !m->present[i])
		i--;
	return i;
}

/* Index of the first present key >= q, or -1. */
static long model_ge(const struct model *m, unsigned long q)
{
	long i = model_floor(m->keys, m->n, q);

	if (i < 0 || m->keys[i] != q)
		i++;
	while ((size_t)i < m->n && !m->present[i])
		i++;
	return (size_t)i < m->n ? i : -1;
}

/* A query near the candidates, or anywhere. */
static unsigned long random_query(const struct model *m)
{
	unsigned long k = m->keys[rng_below(m->n)];

	switch (rng_below(4)) {
	case 0:
		return k;
	case 1:
		return k + 1;
	case 2:
		return k - 1;
	default:
		return (unsigned long)rng() >> rng_below(LONG_BITS);
	}
}

static void check_le_ge(const struct radix_tree_root *root,
			const struct model *m, unsigned long q)
{
	long le = model_le(m, q), ge = model_ge(m, q);
	unsigned long found = 0;
	void *v;

	v = radix_tree_lookup_le(root, q, &found);
	if (le < 0) {
		assert_null(v);
	} else {
		assert_int_equal(found, m->keys[le]);
		assert_ptr_equal(v, val(found));
	}
	v = radix_tree_lookup_ge(root, q, &found);
	if (ge < 0) {
		assert_null(v);
	} else {
		assert_int_equal(found, m->keys[ge]);
		assert_ptr_equal(v, val(found));
	}
}

/* The whole tree, in order, equals the model's present keys. */
static void check_against_model(const struct radix_tree_root *root,
				const struct model *m)
{
	unsigned long *present = malloc((m->n + 1) * sizeof(*present));
	size_t n = 0;

	for (size_t i = 0; i < m->n; i++)
		if (m->present[i])
			present[n++] = m->keys[i];
	assert_contents(root, present, n);
	assert_sound(root);
	free(present);
}

static void random_op(struct radix_tree_root *root, struct model *m)
{
	size_t i = rng_below(m->n);
	unsigned long key = m->keys[i];
	unsigned long r = rng_below(10);

	if (r < 4) {
		assert_int_equal(radix_tree_insert(root, key, val(key)),
				 m->present[i] ? -EEXIST : 0);
		m->present[i] = true;
	} else if (r < 7) {
		assert_ptr_equal(radix_tree_delete(root, key),
				 m->present[i] ? val(key) : NULL);
		m->present[i] = false;
	} else if (r < 9) {
		assert_ptr_equal(radix_tree_lookup(root, key),
				 m->present[i] ? val(key) : NULL);
	} else {
		check_le_ge(root, m, random_query(m));
	}
}

static void test_random_ops_against_model(void **state)
{
	enum { OPS = 200000, CHECK_EVERY = 10000 };
	struct radix_tree_root root;
	struct test_alloc a;
	struct model m;

	(void)state;
	rng_seed(0x6b6c65616bULL);
	tree_init(&root, &a);
	model_init(&m, 4096);
	for (long op = 1; op <= OPS; op++) {
		random_op(&root, &m);
		if (op % CHECK_EVERY == 0)
			check_against_model(&root, &m);
	}
	for (size_t i = 0; i < m.n; i++)
		if (m.present[i])
			assert_non_null(radix_tree_delete(&root, m.keys[i]));
	assert_int_equal(radix_tree_count(&root), 0);
	assert_int_equal(root.nodes, 0);
	assert_int_equal(a.allocs, a.frees);
	model_free(&m);
	tree_finish(&root, &a);
}

/* The same random run with spare nodes kept: same answers, all clean. */
static void test_random_ops_with_spares(void **state)
{
	enum { OPS = 100000, CHECK_EVERY = 5000 };
	struct radix_tree_root root;
	struct test_alloc a;
	struct model m;

	(void)state;
	rng_seed(0x7370617265ULL);
	tree_init(&root, &a);
	radix_tree_keep_spares(&root, RADIX_TREE_MAX_HEIGHT + 2);
	model_init(&m, 4096);
	for (long op = 1; op <= OPS; op++) {
		random_op(&root, &m);
		if (op % CHECK_EVERY == 0) {
			check_against_model(&root, &m);
			assert_sound(&root);
		}
	}
	for (size_t i = 0; i < m.n; i++)
		if (m.present[i])
			assert_non_null(radix_tree_delete(&root, m.keys[i]));
	assert_int_equal(root.nodes, 0);
	assert_true(root.nr_spares <= RADIX_TREE_MAX_HEIGHT + 2);
	assert_int_equal(a.allocs, a.frees + root.nr_spares);
	assert_sound(&root);
	model_free(&m);
	tree_finish(&root, &a);
}

/*
 * An insert/delete pair on a fresh path, repeated: after the first round
 * the path comes from the spares and the allocator is not called again.
 */
static void test_spares_reused(void **state)
{
	struct radix_tree_root root;
	struct test_alloc a;
	unsigned long far = 0xc0123440UL, near = 0x1000UL;
	unsigned long path;

	(void)state;
	tree_init(&root, &a);
	radix_tree_keep_spares(&root, RADIX_TREE_MAX_HEIGHT + 2);
	assert_int_equal(radix_tree_insert(&root, near, val(near)), 0);
	assert_int_equal(radix_tree_insert(&root, far, val(far)), 0);
	path = root.nodes;
	assert_ptr_equal(radix_tree_delete(&root, far), val(far));
	assert_true(root.nr_spares > 0);
	assert_sound(&root);
	for (int i = 0; i < 100; i++) {
		unsigned long allocs = a.allocs;

		assert_int_equal(radix_tree_insert(&root, far + i, val(far)), 0);
		assert_int_equal(a.allocs, allocs);
		assert_int_equal(root.nodes, path);
		assert_ptr_equal(radix_tree_lookup(&root, far + i), val(far));
		assert_ptr_equal(radix_tree_lookup(&root, near), val(near));
		assert_ptr_equal(radix_tree_delete(&root, far + i), val(far));
		assert_sound(&root);
	}
	/* Fewer spares allowed: the extra ones go back to the allocator. */
	radix_tree_keep_spares(&root, 1);
	assert_int_equal(root.nr_spares, 1);
	assert_int_equal(a.allocs, a.frees + root.nodes + 1);
	assert_sound(&root);
	tree_finish(&root, &a);
}

/* Gang lookups from many starting keys and sizes, against the model. */
static void test_gang_lookup_order(void **state)
{
	enum { MAX = 50 };
	struct radix_tree_root root;
	struct test_alloc a;
	struct model m;
	unsigned long keys[MAX];
	void *results[MAX];

	(void)state;
	rng_seed(42);
	tree_init(&root, &a);
	model_init(&m, 2048);
	for (size_t i = 0; i < m.n; i++) {
		m.present[i] = rng_below(3) != 0;
		if (m.present[i])
			insert_all(&root, &m.keys[i], 1);
	}
	for (int q = 0; q < 5000; q++) {
		unsigned long first = random_query(&m);
		unsigned int max = (unsigned int)rng_below(MAX + 1), n;
		long idx = model_ge(&m, first);

		n = radix_tree_gang_lookup_keys(&root, results, keys, first, max);
		for (unsigned int j = 0; j < n; j++) {
			assert_true(idx >= 0);
			assert_int_equal(keys[j], m.keys[idx]);
			assert_ptr_equal(results[j], val(keys[j]));
			idx = model_ge(&m, keys[j] + 1);
			if (keys[j] == ULONG_MAX)
				idx = -1;
		}
		/* Fewer than max only when the keys ran out. */
		assert_true(n == max || idx < 0);
		assert_int_equal(radix_tree_gang_lookup(&root, results, first,
							max), n);
	}
	model_free(&m);
	tree_finish(&root, &a);
}

/* for_each visits keys in ascending order and survives deletions. */
static void test_iteration_order(void **state)
{
	static const unsigned long keys[] = {
		0, 5, 63, 64, 4095, 4096, 0xc0001000UL, 0xfffff000UL,
		ULONG_MAX - 64, ULONG_MAX,
	};
	struct radix_tree_root root;
	struct radix_tree_iter iter;
	struct test_alloc a;
	unsigned long key, seen = 0;
	void *value;

	(void)state;
	tree_init(&root, &a);
	insert_all(&root, keys, N_ELEMS(keys));
	assert_contents(&root, keys, N_ELEMS(keys));

	radix_tree_iter_init(&iter, 64);
	assert_ptr_equal(radix_tree_iter_next(&root, &iter, &key), val(64));
	assert_int_equal(key, 64);
	assert_ptr_equal(radix_tree_iter_next(&root, &iter, &key), val(4095));

	/* Deleting the entry just returned, as a collector's sweep does. */
	radix_tree_for_each(&root, &iter, key, value) {
		assert_int_equal(key, keys[seen]);
		assert_ptr_equal(radix_tree_delete(&root, key), value);
		seen++;
	}
	assert_int_equal(seen, N_ELEMS(keys));
	assert_int_equal(root.nodes, 0);
	tree_finish(&root, &a);
}

/* Interior pointers: lookup_le maps any address to the block below it. */
static void test_lookup_le_random(void **state)
{
	struct radix_tree_root root;
	struct test_alloc a;
	struct model m;
	unsigned long found;

	(void)state;
	rng_seed(7);
	tree_init(&root, &a);
	model_init(&m, 8192);
	for (size_t i = 0; i < m.n; i++) {
		m.present[i] = rng_below(2);
		if (m.present[i])
			insert_all(&root, &m.keys[i], 1);
	}
	for (int q = 0; q < 100000; q++)
		check_le_ge(&root, &m, random_query(&m));
	check_le_ge(&root, &m, 0);
	check_le_ge(&root, &m, ULONG_MAX);

	/* A lone block: every address inside it or past it maps to it. */
	radix_tree_destroy(&root);
	assert_int_equal(radix_tree_insert(&root, 0xc0001000UL, val(1)), 0);
	assert_null(radix_tree_lookup_le(&root, 0xc0000fffUL, &found));
	assert_ptr_equal(radix_tree_lookup_le(&root, 0xc0001000UL, &found),
			 val(1));
	assert_ptr_equal(radix_tree_lookup_le(&root, 0xc0001fffUL, &found),
			 val(1));
	assert_ptr_equal(radix_tree_lookup_le(&root, ULONG_MAX, &found), val(1));
	assert_int_equal(found, 0xc0001000UL);
	assert_ptr_equal(radix_tree_lookup_le(&root, 0xc0001008UL, NULL), val(1));
	assert_null(radix_tree_lookup_ge(&root, 0xc0001001UL, NULL));
	model_free(&m);
	tree_finish(&root, &a);
}

/* Snapshot of everything a failed insert must leave as it was. */
struct snapshot {
	unsigned long keys[64];
	unsigned int n;
	unsigned long nodes, live, height;
};

static void take_snapshot(const struct radix_tree_root *root,
			  const struct test_alloc *a, struct snapshot *s)
{
	void *results[64];

	s->n = radix_tree_gang_lookup_keys(root, results, s->keys, 0, 64);
	s->nodes = root->nodes;
	s->live = a->allocs - a->frees;
	s->height = root->height;
}

static void assert_same(const struct snapshot *x, const struct snapshot *y)
{
	assert_int_equal(x->n, y->n);
	assert_memory_equal(x->keys, y->keys, x->n * sizeof(x->keys[0]));
	assert_int_equal(x->nodes, y->nodes);
	assert_int_equal(x->live, y->live);
	assert_int_equal(x->height, y->height);
}

/* Fails allocation k of one insert for every k until the insert succeeds. */
static void insert_with_failures(struct radix_tree_root *root,
				 struct test_alloc *a, unsigned long key)
{
	struct snapshot before, after;
	unsigned long k;
	int ret;

	take_snapshot(root, a, &before);
	for (k = 0;; k++) {
		a->fail_at = a->attempts + k;
		ret = radix_tree_insert(root, key, val(key));
		if (ret == 0)
			break;
		assert_int_equal(ret, -ENOMEM);
		assert_sound(root);
		take_snapshot(root, a, &after);
		assert_same(&before, &after);
		assert_null(radix_tree_lookup(root, key));
	}
	a->fail_at = NEVER;
	/* Exactly the nodes this insert needed were tried and failed. */
	assert_int_equal(root->nodes - before.nodes, k);
	assert_ptr_equal(radix_tree_lookup(root, key), val(key));
	assert_sound(root);
}

static void test_alloc_failure_mid_insert(void **state)
{
	static const unsigned long keys[] = {
		5, 0x40000UL, ULONG_MAX, 0xfffff000UL, 1UL << (LONG_BITS - 2),
		6, 0x123456UL, 0xfffff040UL,
	};
	struct radix_tree_root root;
	struct test_alloc a;

	(void)state;
	tree_init(&root, &a);
	for (size_t i = 0; i < N_ELEMS(keys); i++)
		insert_with_failures(&root, &a, keys[i]);
	assert_int_equal(radix_tree_count(&root), N_ELEMS(keys));
	tree_finish(&root, &a);
}

/* destroy frees every node, leaves values alone and the tree reusable. */
static void test_destroy(void **state)
{
	enum { N = 2000 };
	struct radix_tree_root root;
	struct test_alloc a;
	int *objs[N];

	(void)state;
	rng_seed(99);
	tree_init(&root, &a);
	for (int i = 0; i < N; i++) {
		objs[i] = malloc(sizeof(int));
		*objs[i] = i;
		/* Keys of real heap objects, as the collector will use. */
		assert_int_equal(radix_tree_insert(&root, (unsigned long)objs[i],
						   objs[i]), 0);
	}
	assert_true(a.allocs > 0);
	radix_tree_destroy(&root);
	assert_int_equal(a.allocs, a.frees);
	assert_int_equal(radix_tree_count(&root), 0);
	assert_null(radix_tree_lookup(&root, (unsigned long)objs[0]));
	for (int i = 0; i < N; i++) {
		assert_int_equal(*objs[i], i);
		free(objs[i]);
	}
	assert_int_equal(radix_tree_insert(&root, 3, val(3)), 0);
	assert_ptr_equal(radix_tree_lookup(&root, 3), val(3));
	tree_finish(&root, &a);
}

/* The checker itself must notice damage, or the other tests prove little. */
static void test_check_finds_damage(void **state)
{
	struct radix_tree_root root;
	struct test_alloc a;
	struct radix_tree_node *top;

	(void)state;
	tree_init(&root, &a);
	insert_all(&root, (const unsigned long[]){ 1, 1000 }, 2);
	assert_sound(&root);
	top = root.rnode;
	top->bitmap[0] ^= 1UL << ((RADIX_TREE_MAP_SIZE - 1) % LONG_BITS);
	assert_non_null(radix_tree_check(&root));
	top->bitmap[0] ^= 1UL << ((RADIX_TREE_MAP_SIZE - 1) % LONG_BITS);
	root.count++;
	assert_non_null(radix_tree_check(&root));
	root.count--;
	root.nodes++;
	assert_non_null(radix_tree_check(&root));
	root.nodes--;
	assert_sound(&root);
	tree_finish(&root, &a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_tree),
		cmocka_unit_test(test_insert_lookup_delete),
		cmocka_unit_test(test_duplicates_and_bad_input),
		cmocka_unit_test(test_edge_keys_and_height),
		cmocka_unit_test(test_dense_keys),
		cmocka_unit_test(test_sparse_keys),
		cmocka_unit_test(test_random_ops_against_model),
		cmocka_unit_test(test_random_ops_with_spares),
		cmocka_unit_test(test_spares_reused),
		cmocka_unit_test(test_gang_lookup_order),
		cmocka_unit_test(test_iteration_order),
		cmocka_unit_test(test_lookup_le_random),
		cmocka_unit_test(test_alloc_failure_mid_insert),
		cmocka_unit_test(test_destroy),
		cmocka_unit_test(test_check_finds_damage),
	};

	return cmocka_run_group_tests_name("radix_tree", tests, NULL, NULL);
}
