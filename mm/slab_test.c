/*
 * Self-tests of the slab allocator on the target: caches made, used and
 * destroyed, constructors, the per-CPU arrays drained, misuse reported.
 * Every case ends with the free page count it started with, measured
 * with the arrays drained and empty slabs given back.
 */
#include <kernel/memleak.h>
#include <kernel/ktest.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>

#define NOBJ 200

static unsigned long settled_free(void)
{
	slab_shrink_all();
	return memleak_nr_free_pages();
}

static void fill(void *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		((unsigned char *)p)[i] = (unsigned char)(seed * 31 + i);
}

static bool intact(const void *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		if (((const unsigned char *)p)[i] != (unsigned char)(seed * 31 + i))
			return false;
	return true;
}

static void use_cache(struct ktest *t, struct kmem_cache *c, size_t size)
{
	static void *objs[NOBJ];
	int bad = 0;

	for (int i = 0; i < NOBJ; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		if (!objs[i] || (unsigned long)objs[i] % c->align) {
			bad++;
			continue;
		}
		fill(objs[i], size, i);
	}
	KEXPECT_EQ(t, kmem_cache_active_objects(c), NOBJ - bad);
	for (int i = 0; i < NOBJ; i++) {
		if (objs[i] && !intact(objs[i], size, i))
			bad++;
		kmem_cache_free(c, objs[i]);
	}
	KEXPECT_EQ(t, bad, 0);
	KEXPECT_EQ(t, kmem_cache_active_objects(c), 0);
	/* Stale pointers here would hide later leaks from the collector. */
	memset(objs, 0, sizeof(objs));
}

static void test_create_use_destroy(struct ktest *t)
{
	static const size_t sizes[] = { 4, 24, 100, 700, 3000, 20000 };
	unsigned long before = settled_free(), errors = mm_errors();

	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct kmem_cache *c = kmem_cache_create("ktest", sizes[i], 0,
							 SLAB_HWCACHE_ALIGN, NULL);

		KEXPECT(t, c != NULL);
		if (!c)
			continue;
		KEXPECT_EQ(t, c->align, 64);
		use_cache(t, c, sizes[i]);
		KEXPECT_EQ(t, kmem_cache_destroy(c), 0);
	}
	KEXPECT_EQ(t, mm_errors(), errors);
	KEXPECT_EQ(t, settled_free(), before);
}

static void test_destroy_refused_while_in_use(struct ktest *t)
{
	unsigned long before = settled_free();
	struct kmem_cache *c = kmem_cache_create("ktest-busy", 64, 0, 0, NULL);
	void *obj = kmem_cache_alloc(c, GFP_KERNEL);

	printk("    # a message expected: cache ktest-busy still has 1 objects in use\n");
	KEXPECT_EQ(t, kmem_cache_destroy(c), -1);
	kmem_cache_free(c, obj);
	KEXPECT_EQ(t, kmem_cache_destroy(c), 0);
	KEXPECT_EQ(t, settled_free(), before);
}

static int ctor_calls;

static void ctor(void *obj)
{
	ctor_calls++;
	memset(obj, 0x77, 32);
}

static void test_constructor(struct ktest *t)
{
	unsigned long before = settled_free();
	struct kmem_cache *c = kmem_cache_create("ktest-ctor", 32, 0, 0, ctor);
	unsigned char *p;

	ctor_calls = 0;
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KEXPECT_EQ(t, ctor_calls, c->num);
	KEXPECT_EQ(t, p[0], 0x77);
	KEXPECT_EQ(t, p[31], 0x77);
	kmem_cache_free(c, p);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	KEXPECT_EQ(t, p[0], 0x77);
	kmem_cache_free(c, p);
	KEXPECT_EQ(t, kmem_cache_destroy(c), 0);
	KEXPECT_EQ(t, settled_free(), before);
}

/*
 * This CPU's array, so the thread may not move meanwhile (on 4 CPUs an
 * idle one takes over a thread that was preempted): preemption is off
 * from the first allocation to the shrink; none of it sleeps.
 */
static void test_cpu_arrays_drained(struct ktest *t)
{
	static void *objs[1000];
	unsigned long before = settled_free();
	struct kmem_cache *c = kmem_cache_create("ktest-drain", 128, 0, 0, NULL);
	struct array_cache *ac;
	unsigned long shrunk;
	int over = 0;

	preempt_disable();
	ac = &c->cpu[smp_processor_id()];
	for (int i = 0; i < 1000; i++)
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
	for (int i = 0; i < 1000; i++) {
		kmem_cache_free(c, objs[i]);
		over += ac->avail > ac->limit;
	}
	memset(objs, 0, sizeof(objs));
	KEXPECT_EQ(t, over, 0);
	KEXPECT(t, ac->avail > 0);
	KEXPECT(t, c->nr_free_slabs <= c->free_slabs_kept);
	shrunk = kmem_cache_shrink(c);
	preempt_enable();
	KEXPECT(t, shrunk > 0);
	KEXPECT_EQ(t, ac->avail, 0);
	KEXPECT_EQ(t, c->nr_slabs, 0);
	KEXPECT_EQ(t, kmem_cache_destroy(c), 0);
	KEXPECT_EQ(t, settled_free(), before);
}

struct objects_to_free {
	struct kmem_cache *cache;
	void **objs;
	int n;
};

/* Run on another CPU: its frees wait in that CPU's array. */
static void free_objects_here(void *arg)
{
	struct objects_to_free *f = arg;

	for (int i = 0; i < f->n; i++)
		kmem_cache_free(f->cache, f->objs[i]);
}

static unsigned int another_cpu(void)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
		if (cpu != smp_processor_id())
			return cpu;
	return smp_processor_id();
}

/*
 * Objects freed on another CPU (a thread that moved, or an interrupt
 * there) wait in that CPU's array, and hold their slab: slab_shrink_all()
 * empties every CPU's arrays, so the slab goes back.
 */
static void test_shrink_empties_every_cpu(struct ktest *t)
{
	static void *objs[8];
	struct kmem_cache *c = kmem_cache_create("ktest-elsewhere", 128, 0,
						 0, NULL);
	struct objects_to_free f = { .cache = c, .objs = objs, .n = 8 };

	KEXPECT(t, c != NULL);
	if (!c)
		return;
	if (num_online_cpus() < 2) {
		printk("    # one CPU online: no other CPU's array to empty\n");
		KEXPECT_EQ(t, kmem_cache_destroy(c), 0);
		return;
	}
	for (int i = 0; i < f.n; i++)
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
	KEXPECT_EQ(t, smp_call_function_single(another_cpu(),
					       free_objects_here, &f, true), 0);
	memset(objs, 0, sizeof(objs));
	KEXPECT(t, c->nr_slabs > 0);	/* under the objects in an array */
	slab_shrink_all();
	KEXPECT_EQ(t, c->nr_slabs, 0);
	KEXPECT_EQ(t, kmem_cache_destroy(c), 0);
}

static void test_misuse_reported(struct ktest *t)
{
	unsigned long before = settled_free(), errors = mm_errors();
	struct kmem_cache *a = kmem_cache_create("ktest-a", 48, 0, 0, NULL);
	struct kmem_cache *b = kmem_cache_create("ktest-b", 48, 0, 0, NULL);
	char *obj = kmem_cache_alloc(a, GFP_KERNEL), *again, *other;

	printk("    # three warnings expected: wrong cache, not an object start, double free\n");
	kmem_cache_free(b, obj);
	kmem_cache_free(a, obj + 4);
	kmem_cache_free(a, obj);
	kmem_cache_free(a, obj);
	KEXPECT_EQ(t, mm_errors(), errors + 3);
	/* The double free changed nothing: obj is handed out once. */
	again = kmem_cache_alloc(a, GFP_KERNEL);
	other = kmem_cache_alloc(a, GFP_KERNEL);
	KEXPECT(t, again == obj);
	KEXPECT(t, other != obj);
	kmem_cache_free(a, again);
	kmem_cache_free(a, other);
	KEXPECT_EQ(t, kmem_cache_destroy(a), 0);
	KEXPECT_EQ(t, kmem_cache_destroy(b), 0);
	KEXPECT_EQ(t, settled_free(), before);
}

#ifdef CONFIG_SLAB_DEBUG
static void test_red_zones_and_poison(struct ktest *t)
{
	unsigned long before = settled_free(), errors = mm_errors();
	struct kmem_cache *c = kmem_cache_create("ktest-debug", 40, 0, 0, NULL);
	unsigned char *p = kmem_cache_alloc(c, GFP_KERNEL);

	printk("    # three warnings expected: red zone after, red zone before, modified after free\n");
	p[40] = 1;
	kmem_cache_free(c, p);
	p = kmem_cache_alloc(c, GFP_KERNEL);
	p[-1] = 1;
	kmem_cache_free(c, p);
	KEXPECT_EQ(t, p[10], 0x6b);
	p[10] = 0;
	KEXPECT(t, kmem_cache_alloc(c, GFP_KERNEL) == p);
	KEXPECT_EQ(t, mm_errors(), errors + 3);
	kmem_cache_free(c, p);
	KEXPECT_EQ(t, mm_errors(), errors + 3);
	KEXPECT_EQ(t, kmem_cache_destroy(c), 0);
	KEXPECT_EQ(t, settled_free(), before);
}
#endif

static const struct ktest_case slab_cases[] = {
	KTEST_CASE(test_create_use_destroy),
	KTEST_CASE(test_destroy_refused_while_in_use),
	KTEST_CASE(test_constructor),
	KTEST_CASE(test_cpu_arrays_drained),
	KTEST_CASE(test_shrink_empties_every_cpu),
	KTEST_CASE(test_misuse_reported),
#ifdef CONFIG_SLAB_DEBUG
	KTEST_CASE(test_red_zones_and_poison),
#endif
	{ 0 },
};
KTEST_SUITE("slab", slab_cases);
