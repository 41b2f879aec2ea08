/*
 * Host tests of the suspects' classification (mm/kmemleak/classify.c)
 * under ASan/UBSan, against a model on random heaps: the scan must
 * report exactly the blocks no root reaches, and among them, thinking
 * of the graph of pointers between suspects, every group of suspects
 * that point to each other around a cycle (a strongly connected
 * component) that nothing else points into must have exactly one direct
 * leak (its leader), and every other suspect must be indirect.
 */
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/slab.h>
#include <kernel/time.h>
#include "../../mm/kmemleak/internal.h"
#include "test_memleak.h"

#include <stdlib.h>

#define NR_BLOCKS 48
#define BLOCK_SIZE 64

static unsigned long *blocks[NR_BLOCKS];
/* edge[i][j]: block i holds a pointer to block j */
static bool edge[NR_BLOCKS][NR_BLOCKS];
/* reach[i][j]: j is reachable from i through suspects only */
static bool reach[NR_BLOCKS][NR_BLOCKS];
static bool rooted[NR_BLOCKS], suspect[NR_BLOCKS];

static void build_heap(unsigned int *seed, unsigned int max_out)
{
	memset(edge, 0, sizeof(edge));
	memset(rooted, 0, sizeof(rooted));
	for (unsigned int i = 0; i < NR_BLOCKS; i++)
		blocks[i] = track(BLOCK_SIZE, 1);
	for (unsigned int i = 0; i < NR_BLOCKS; i++) {
		unsigned int out = rand_r(seed) % (max_out + 1);

		for (unsigned int k = 0; k < out; k++) {
			unsigned int j = rand_r(seed) % NR_BLOCKS;

			blocks[i][k] = (unsigned long)blocks[j];
			edge[i][j] = true;
		}
	}
	for (unsigned int r = 0; r < NR_ROOTS / 2; r++) {
		unsigned int j = rand_r(seed) % NR_BLOCKS;

		roots[r] = (unsigned long)blocks[j];
		rooted[j] = true;
	}
}

/* What no root reaches; then reach[][] among those (Warshall). */
static void model(void)
{
	bool changed = true;

	memcpy(suspect, (bool[NR_BLOCKS]){ 0 }, sizeof(suspect));
	for (unsigned int i = 0; i < NR_BLOCKS; i++)
		suspect[i] = !rooted[i];
	while (changed) {
		changed = false;
		for (unsigned int i = 0; i < NR_BLOCKS; i++)
			for (unsigned int j = 0; j < NR_BLOCKS; j++)
				if (!suspect[i] && edge[i][j] && suspect[j]) {
					suspect[j] = false;
					changed = true;
				}
	}
	for (unsigned int i = 0; i < NR_BLOCKS; i++)
		for (unsigned int j = 0; j < NR_BLOCKS; j++)
			reach[i][j] = suspect[i] && suspect[j] && edge[i][j];
	for (unsigned int k = 0; k < NR_BLOCKS; k++)
		for (unsigned int i = 0; i < NR_BLOCKS; i++)
			for (unsigned int j = 0; j < NR_BLOCKS; j++)
				if (reach[i][k] && reach[k][j])
					reach[i][j] = true;
}

static bool same_component(unsigned int i, unsigned int j)
{
	return i == j || (reach[i][j] && reach[j][i]);
}

/* No suspect outside i's component points into it. */
static bool component_is_source(unsigned int i)
{
	for (unsigned int j = 0; j < NR_BLOCKS; j++)
		if (suspect[j] && !same_component(i, j) && reach[j][i])
			return false;
	return true;
}

static void check_against_model(void)
{
	for (unsigned int i = 0; i < NR_BLOCKS; i++) {
		struct memleak_block *b = memleak_lookup_block((unsigned long)blocks[i]);
		unsigned int directs = 0;

		assert_non_null(b);
		if (!suspect[i]) {
			assert_false(b->flags & MEMLEAK_SUSPECT);
			continue;
		}
		assert_true(b->flags & MEMLEAK_SUSPECT);
		assert_int_not_equal(memleak_block_tier(b), MEMLEAK_POSSIBLY_LOST);
		for (unsigned int j = 0; j < NR_BLOCKS; j++) {
			struct memleak_block *c;

			if (!suspect[j] || !same_component(i, j))
				continue;
			c = memleak_lookup_block((unsigned long)blocks[j]);
			directs += memleak_block_tier(c) == MEMLEAK_DIRECT_LEAK;
		}
		/* One leader per source component, none elsewhere. */
		assert_int_equal(directs, component_is_source(i) ? 1 : 0);
	}
}

static void run(unsigned int seed, unsigned int max_out)
{
	build_heap(&seed, max_out);
	model();
	jiffies += 2 * HZ;	/* every block old enough to be reported */
	assert_int_equal(memleak_scan(), 0);
	check_against_model();
	for (unsigned int i = 0; i < NR_BLOCKS; i++)
		untrack(blocks[i]);
}

/* Sparse heaps: chains and trees of leaks, few cycles. */
static void test_sparse(void **state)
{
	(void)state;
	for (unsigned int seed = 1; seed <= 40; seed++)
		run(seed, 1);
}

/* Denser heaps: cycles among the leaks, and leaks hanging from them. */
static void test_dense(void **state)
{
	(void)state;
	for (unsigned int seed = 100; seed <= 140; seed++)
		run(seed, 3);
}

/*
 * Rings with no way in, side by side: a ring's leader is the first of
 * it in the list of suspects, and its walk must cover the rest before
 * the next suspect is looked at, else that one would lead too. Rings of
 * 2 to 5, each with a chain hanging from it, none rooted; and one
 * rooted block so that the rest of the heap is not all suspects.
 */
static void test_rings(void **state)
{
	unsigned int n = 0;

	(void)state;
	memset(edge, 0, sizeof(edge));
	memset(rooted, 0, sizeof(rooted));
	for (unsigned int i = 0; i < NR_BLOCKS; i++)
		blocks[i] = track(BLOCK_SIZE, 1);
	for (unsigned int len = 2; len <= 5; len++) {
		unsigned int first = n;

		for (unsigned int k = 0; k < len; k++, n++) {
			unsigned int next = k + 1 < len ? n + 1 : first;

			blocks[n][0] = (unsigned long)blocks[next];
			edge[n][next] = true;
		}
		/* A chain of two from the ring's last member. */
		blocks[n - 1][1] = (unsigned long)blocks[n];
		edge[n - 1][n] = true;
		blocks[n][0] = (unsigned long)blocks[n + 1];
		edge[n][n + 1] = true;
		n += 2;
	}
	roots[0] = (unsigned long)blocks[n];
	rooted[n] = true;
	model();
	jiffies += 2 * HZ;
	assert_int_equal(memleak_scan(), 0);
	check_against_model();
	for (unsigned int i = 0; i < NR_BLOCKS; i++)
		untrack(blocks[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sparse, memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_dense, memleak_test_setup,
						memleak_test_teardown),
		cmocka_unit_test_setup_teardown(test_rings, memleak_test_setup,
						memleak_test_teardown),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
