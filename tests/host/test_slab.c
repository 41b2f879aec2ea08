/*
 * Host tests of the slab allocator: object caches with and without
 * debugging, constructors, alignment, destruction, the per-CPU arrays,
 * double frees, frees to the wrong cache, red zones, poisoning, the
 * slabinfo command, and a random run on several CPUs.
 */
#include <kernel/slab.h>
#include <kernel/shell.h>
#include <kernel/printk.h>
#include "test_mm.h"

#include <stdlib.h>

static unsigned long free_at_start;

static int setup(void **state)
{
	mm_setup(state);
	free_at_start = settled_free_pages();
	return 0;
}

/* Every test ends with every page back (countfree). */
static int teardown(void **state)
{
	(void)state;
	host_cpu_id = 0;
	assert_int_equal(host_irqs_off, 0);
	assert_int_equal(settled_free_pages(), free_at_start);
	return 0;
}

static struct page *head_of(void *obj)
{
	struct page *page = virt_to_page(obj);

	return (page->flags & PG_head) ? page : page->head;
}

static void alloc_free_many(struct kmem_cache *c, int n)
{
	void **objs = calloc(n, sizeof(void *));

	assert_non_null(objs);
	for (int i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		assert_non_null(objs[i]);
		assert_true(virt_to_page(objs[i])->flags & PG_slab);
		assert_ptr_equal(head_of(objs[i])->slab_cache, c);
		assert_int_equal((unsigned long)objs[i] % c->align, 0);
		fill_pattern(objs[i], c->object_size, i);
	}
	assert_int_equal(kmem_cache_active_objects(c), n);
	for (int i = 0; i < n; i++) {
		assert_true(check_pattern(objs[i], c->object_size, i));
		kmem_cache_free(c, objs[i]);
	}
	assert_int_equal(kmem_cache_active_objects(c), 0);
	free(objs);
}

static void test_create_alloc_destroy(void **state)
{
	static const size_t sizes[] = { 1, 7, 24, 64, 100, 1000, 4096, 5000, 70000 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct kmem_cache *d = kmem_cache_create("debug", sizes[i], 0, 0, NULL);
		struct kmem_cache *n = kmem_cache_create("plain", sizes[i], 0,
							 SLAB_NO_DEBUG, NULL);

		assert_non_null(d);
		assert_non_null(n);
		assert_true(d->flags & SLAB_RED_ZONE);
		assert_false(n->flags & (SLAB_RED_ZONE | SLAB_POISON));
		assert_true(d->num >= 1 && n->num >= 1);
		assert_true(n->num * n->size <= PAGE_SIZE << n->order);
		alloc_free_many(d, 300);
		alloc_free_many(n, 300);
		assert_int_equal(kmem_cache_destroy(d), 0);
		assert_int_equal(kmem_cache_destroy(n), 0);
	}
}

static void test_bad_create(void **state)
{
	(void)state;
	assert_null(kmem_cache_create("zero", 0, 0, 0, NULL));
	assert_true(log_has("kmem_cache_create(zero): object size 0 not supported"));
	assert_null(kmem_cache_create("align", 32, 24, 0, NULL));
	assert_true(log_has("alignment 24 is not a power of two"));
	assert_null(kmem_cache_create("huge", 16 << 20, 0, 0, NULL));
	assert_int_equal(kmem_cache_destroy(NULL), -1);
}

static int ctor_calls;

static void ctor(void *obj)
{
	ctor_calls++;
	memset(obj, 0x3c, 40);
}

static void test_constructor(void **state)
{
	struct kmem_cache *c = kmem_cache_create("ctor", 40, 0, 0, ctor);
	unsigned char *a, *b;

	(void)state;
	ctor_calls = 0;
	assert_false(c->flags & SLAB_POISON);
	a = kmem_cache_alloc(c, GFP_KERNEL);
	assert_int_equal(ctor_calls, c->num);	/* once per object, with the slab */
	for (int i = 0; i < 40; i++)
		assert_int_equal(a[i], 0x3c);
	kmem_cache_free(c, a);
	b = kmem_cache_alloc(c, GFP_KERNEL);
	assert_ptr_equal(a, b);
	for (int i = 0; i < 40; i++)	/* the free word lives outside */
		assert_int_equal(b[i], 0x3c);
	kmem_cache_free(c, b);
	assert_int_equal(ctor_calls, c->num);
	assert_int_equal(kmem_cache_destroy(c), 0);
}

static void test_alignment(void **state)
{
	struct kmem_cache *hw = kmem_cache_create("hw", 20, 0, SLAB_HWCACHE_ALIGN, NULL);
	struct kmem_cache *a256 = kmem_cache_create("a256", 100, 256, 0, NULL);

	(void)state;
	alloc_free_many(hw, 100);
	alloc_free_many(a256, 100);
	assert_int_equal(hw->align, 64);
	assert_int_equal(a256->align, 256);
	kmem_cache_destroy(hw);
	kmem_cache_destroy(a256);
}

/* The share of a slab of c that holds no object, in 1/1024ths. */
static unsigned long slab_waste(const struct kmem_cache *c)
{
	unsigned long bytes = PAGE_SIZE << c->order;

	return (bytes - c->num * c->size) * 1024 / bytes;
}

/*
 * SLAB_PACKED: less than 1/32 wasted where some slab up to 32 KiB does
 * (the others keep 1/8 and at least eight objects), and the smallest such
 * slab: a page for page-sized objects, which plain caches put eight to
 * a slab.
 */
static void test_packed_slabs(void **state)
{
	static const size_t sizes[] = { 104, 536, 776, 1544 };
	struct kmem_cache *page, *plain_page;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		const unsigned long flags = SLAB_NO_DEBUG | SLAB_PACKED;
		struct kmem_cache *c = kmem_cache_create("packed", sizes[i], 0,
							 flags, NULL);
		struct kmem_cache *plain = kmem_cache_create(
			"plain", sizes[i], 0, SLAB_NO_DEBUG, NULL);

		assert_non_null(c);
		assert_non_null(plain);
		assert_true(slab_waste(c) <= 1024 / 32);
		assert_true(slab_waste(c) <= slab_waste(plain));
		alloc_free_many(c, 100);
		assert_int_equal(kmem_cache_destroy(c), 0);
		assert_int_equal(kmem_cache_destroy(plain), 0);
	}
	page = kmem_cache_create("page", PAGE_SIZE, 0,
				 SLAB_NO_DEBUG | SLAB_PACKED, NULL);
	plain_page = kmem_cache_create("plain page", PAGE_SIZE, 0,
				       SLAB_NO_DEBUG, NULL);
	assert_int_equal(page->order, 0);
	assert_int_equal(plain_page->num, 8);
	alloc_free_many(page, 20);
	assert_int_equal(kmem_cache_destroy(page), 0);
	assert_int_equal(kmem_cache_destroy(plain_page), 0);
}

static void test_destroy_refused_while_in_use(void **state)
{
	struct kmem_cache *c = kmem_cache_create("busy", 32, 0, 0, NULL);
	void *obj = kmem_cache_alloc(c, GFP_KERNEL);
	void *obj2 = kmem_cache_alloc(c, GFP_KERNEL);

	(void)state;
	kmem_cache_free(c, obj2);
	assert_int_equal(kmem_cache_destroy(c), -1);
	assert_true(log_has("cache busy still has 1 objects in use, not destroyed"));
	/* Still usable. */
	kmem_cache_free(c, obj);
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, obj);
	assert_int_equal(kmem_cache_destroy(c), 0);
}

static void test_zalloc(void **state)
{
	struct kmem_cache *c = kmem_cache_create("z", 200, 0, SLAB_NO_DEBUG, NULL);
	unsigned char *p = kmem_cache_alloc(c, GFP_KERNEL);

	(void)state;
	memset(p, 0xee, 200);
	kmem_cache_free(c, p);
	p = kmem_cache_zalloc(c, GFP_KERNEL);
	for (int i = 0; i < 200; i++)
		assert_int_equal(p[i], 0);
	kmem_cache_free(c, p);
	kmem_cache_destroy(c);
}

/* The object keeps working after the report: no second owner. */
static void check_handed_out_once(struct kmem_cache *c, void *obj)
{
	unsigned int n = c->num * 3;
	void **objs = calloc(n, sizeof(void *));
	int seen = 0;

	for (unsigned int i = 0; i < n; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		seen += objs[i] == obj;
	}
	assert_int_equal(seen, 1);
	for (unsigned int i = 0; i < n; i++)
		kmem_cache_free(c, objs[i]);
	free(objs);
}

static void double_free_in_array(unsigned long flags)
{
	struct kmem_cache *c = kmem_cache_create("df", 48, 0, flags, NULL);
	void *obj = kmem_cache_alloc(c, GFP_KERNEL);
	unsigned long errors = mm_errors();
	char text[80];

	kmem_cache_free(c, obj);
	kmem_cache_free(c, obj);
	snprintf(text, sizeof(text), "double free of %p in cache df", obj);
	expect_report(errors, text);
	check_handed_out_once(c, obj);
	assert_int_equal(kmem_cache_destroy(c), 0);
}

static void test_double_free_in_cpu_array(void **state)
{
	(void)state;
	double_free_in_array(0);
	double_free_in_array(SLAB_NO_DEBUG);
}

static void test_double_free_in_slab(void **state)
{
	struct kmem_cache *c = kmem_cache_create("df2", 48, 0, SLAB_NO_DEBUG, NULL);
	void *a = kmem_cache_alloc(c, GFP_KERNEL);
	void *b = kmem_cache_alloc(c, GFP_KERNEL);
	unsigned long errors;

	(void)state;
	kmem_cache_free(c, a);
	kmem_cache_shrink(c);	/* a goes back to its slab, which b keeps */
	assert_int_equal(c->cpu[0].avail, 0);
	assert_int_equal(c->nr_slabs, 1);
	errors = mm_errors();
	kmem_cache_free(c, a);
	expect_report(errors, "double free");
	check_handed_out_once(c, a);
	kmem_cache_free(c, b);
	assert_int_equal(kmem_cache_destroy(c), 0);
}

static void test_double_free_on_another_cpu(void **state)
{
	struct kmem_cache *c = kmem_cache_create("df3", 48, 0, 0, NULL);
	void *a = kmem_cache_alloc(c, GFP_KERNEL);
	unsigned long errors = mm_errors();
	unsigned int avail0 = c->cpu[0].avail;

	(void)state;
	host_cpu_id = 2;
	kmem_cache_free(c, a);
	host_cpu_id = 0;
	kmem_cache_free(c, a);
	expect_report(errors, "double free");
	assert_int_equal(c->cpu[2].avail, 1);
	assert_int_equal(c->cpu[0].avail, avail0);
	assert_int_equal(kmem_cache_destroy(c), 0);
}

static void test_wrong_cache_and_bad_pointers(void **state)
{
	struct kmem_cache *a = kmem_cache_create("alpha", 64, 0, 0, NULL);
	struct kmem_cache *b = kmem_cache_create("beta", 64, 0, 0, NULL);
	char *obj = kmem_cache_alloc(a, GFP_KERNEL);
	unsigned long errors = mm_errors();
	int on_stack;

	(void)state;
	kmem_cache_free(b, obj);
	expect_report(errors, "belongs to cache alpha, not beta");
	kmem_cache_free(a, obj + 8);
	expect_report(errors + 1, "is not the start of an object of cache alpha");
	kmem_cache_free(a, &on_stack);
	expect_report(errors + 2, "is not in RAM");
	kmem_cache_free(a, page_address(mem_map + (max_pfn - min_pfn) / 2));
	expect_report(errors + 3, "is not in a slab");
	kmem_cache_free(a, NULL);
	assert_int_equal(mm_errors(), errors + 4);
	kmem_cache_free(a, obj);
	assert_int_equal(kmem_cache_destroy(a), 0);
	assert_int_equal(kmem_cache_destroy(b), 0);
}

static void test_red_zones(void **state)
{
	struct kmem_cache *c = kmem_cache_create("rz", 30, 0, 0, NULL);
	unsigned char *p = kmem_cache_alloc(c, GFP_KERNEL);
	unsigned long errors = mm_errors();

	(void)state;
	p[30] = 0;	/* one byte past the end */
	kmem_cache_free(c, p);
	expect_report(errors, "red zone after");
	p = kmem_cache_alloc(c, GFP_KERNEL);
	p[-1] = 0;	/* one byte before */
	kmem_cache_free(c, p);
	expect_report(errors + 1, "red zone before");
	p = kmem_cache_alloc(c, GFP_KERNEL);
	kmem_cache_free(c, p);
	expect_no_report(errors + 2);
	kmem_cache_destroy(c);
}

static void test_poison_use_after_free(void **state)
{
	struct kmem_cache *c = kmem_cache_create("uaf", 64, 0, 0, NULL);
	unsigned char *p = kmem_cache_alloc(c, GFP_KERNEL);
	unsigned long errors = mm_errors();
	char text[96];

	(void)state;
	kmem_cache_free(c, p);
	assert_int_equal(p[5], 0x6b);
	p[5] = 1;	/* the write after free */
	assert_ptr_equal(kmem_cache_alloc(c, GFP_KERNEL), p);
	snprintf(text, sizeof(text),
		 "object %p (cache uaf) modified after free at offset 5", p);
	expect_report(errors, text);
	kmem_cache_free(c, p);
	/* Damage seen when the slab is given back, too. */
	p[63] = 2;
	kmem_cache_shrink(c);
	expect_report(errors + 1, "modified after free at offset 63");
	kmem_cache_destroy(c);
}

static void test_cpu_arrays_drain(void **state)
{
	struct kmem_cache *c = kmem_cache_create("drain", 100, 0, 0, NULL);
	struct array_cache *ac = &c->cpu[0];
	int n = 1000;
	void **objs = calloc(n, sizeof(void *));
	unsigned long slab_pages;

	(void)state;
	for (int i = 0; i < n; i++)
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
	slab_pages = page_state(NR_SLAB_PAGES);
	for (int i = 0; i < n; i++) {
		kmem_cache_free(c, objs[i]);
		assert_true(ac->avail <= ac->limit);
	}
	assert_true(ac->avail > 0);
	/* Empty slabs beyond one went back while the array flushed. */
	assert_true(page_state(NR_SLAB_PAGES) < slab_pages);
	assert_true(c->nr_free_slabs <= c->free_slabs_kept);
	assert_true(kmem_cache_shrink(c) > 0);
	assert_int_equal(ac->avail, 0);
	assert_int_equal(c->nr_slabs, 0);
	assert_int_equal(kmem_cache_shrink(c), 0);
	free(objs);
	kmem_cache_destroy(c);
}

static void test_slabinfo(void **state)
{
	struct kmem_cache *c = kmem_cache_create("info-test", 300, 0, SLAB_NO_DEBUG, NULL);
	void *a = kmem_cache_alloc(c, GFP_KERNEL);
	void *b = kmem_cache_alloc(c, GFP_KERNEL);
	char line[128];

	(void)state;
	host_log_clear();
	assert_int_equal(shell_run_line("slabinfo"), 0);
	assert_true(log_has("name                   active    total  objsize objperslab pagesperslab"));
	snprintf(line, sizeof(line), "%-20s %8u %8u %8u %10u %12u\n",
		 "info-test", 2, c->num, 300, c->num, 1u << c->order);
	assert_true(log_has(line));
	assert_true(log_has("kmalloc-131072"));
	assert_true(log_has("kmem_cache"));
	assert_int_equal(shell_run_line("slabinfo x"), 1);
	kmem_cache_free(c, a);
	kmem_cache_free(c, b);
	kmem_cache_destroy(c);
	host_log_clear();
	shell_run_line("slabinfo");
	assert_false(log_has("info-test"));
}

/* Random allocations and frees on four "CPUs", contents checked. */
static void test_random_many_cpus(void **state)
{
	enum { OPS = 100000, MAX_LIVE = 4000 };
	static const size_t sizes[] = { 24, 200, 3000 };
	struct kmem_cache *caches[3];
	struct obj { void *p; int cache; unsigned long id; } *live;
	unsigned long errors = mm_errors();
	uint64_t seed = 42;
	int n = 0;

	(void)state;
	live = calloc(MAX_LIVE, sizeof(*live));
	for (int i = 0; i < 3; i++)
		caches[i] = kmem_cache_create("rnd", sizes[i], 0,
					      i == 1 ? SLAB_NO_DEBUG : 0, NULL);
	for (unsigned long op = 0; op < OPS; op++) {
		uint64_t r = test_rand(&seed);

		host_cpu_id = (r >> 40) % NR_CPUS;
		if (n < MAX_LIVE && (n == 0 || r % 100 < 52)) {
			int ci = (r >> 8) % 3;
			void *p = kmem_cache_alloc(caches[ci], GFP_KERNEL);

			assert_non_null(p);
			fill_pattern(p, sizes[ci], op);
			live[n++] = (struct obj){ p, ci, op };
		} else {
			int i = (r >> 16) % n;

			assert_true(check_pattern(live[i].p, sizes[live[i].cache],
						  live[i].id));
			kmem_cache_free(caches[live[i].cache], live[i].p);
			live[i] = live[--n];
		}
	}
	while (n > 0) {
		n--;
		kmem_cache_free(caches[live[n].cache], live[n].p);
	}
	host_cpu_id = 0;
	for (int i = 0; i < 3; i++)
		assert_int_equal(kmem_cache_destroy(caches[i]), 0);
	expect_no_report(errors);
	free(live);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_create_alloc_destroy),
		T(test_bad_create),
		T(test_constructor),
		T(test_alignment),
		T(test_packed_slabs),
		T(test_destroy_refused_while_in_use),
		T(test_zalloc),
		T(test_double_free_in_cpu_array),
		T(test_double_free_in_slab),
		T(test_double_free_on_another_cpu),
		T(test_wrong_cache_and_bad_pointers),
		T(test_red_zones),
		T(test_poison_use_after_free),
		T(test_cpu_arrays_drain),
		T(test_slabinfo),
		T(test_random_many_cpus),
	};

	return cmocka_run_group_tests_name("slab", tests, NULL, NULL);
}
