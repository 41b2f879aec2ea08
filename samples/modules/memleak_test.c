/*
 * memleak_test.ko, the seed's test module (patch 8/9) for the leak
 * collector: its init leaks two kmalloc(32) blocks, two objects of its
 * own cache and two vmalloc(64) areas, and builds a list of ten
 * elements reached only through their embedded list_head, whose head is
 * a module global. While the module is loaded `memleak` reports exactly
 * the six orphans; once it is removed, its data is no longer a root and
 * the ten elements are reported too. tests/boot/modules.t checks both.
 */
#include <kernel/errno.h>
#include <kernel/list.h>
#include <kernel/memleak.h>
#include <kernel/module.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/vmalloc.h>

/*
 * The seed's element has a 25-long footer too; this one's is 24 longs
 * so that no kernel structure has its size: the elements are then found
 * only through the alias this module's own container_of() records, and
 * the test shows that the loader adds them.
 */
struct test_node {
	long header[25];
	struct list_head list;
	long footer[24];
};

static LIST_HEAD(test_list);
static struct kmem_cache *test_cache;

static int __init memleak_test_init(void)
{
	struct test_node *elem;

	printk("memleak_test: leaking 6 blocks, building a 10-element list\n");
	test_cache = kmem_cache_create("memleak_test", 48, 0, 0, NULL);
	if (!test_cache)
		return -ENOMEM;

	/* The orphans: nothing keeps a pointer to them. */
	kmalloc(32, GFP_KERNEL);
	kmalloc(32, GFP_KERNEL);
	kmem_cache_alloc(test_cache, GFP_KERNEL);
	kmem_cache_alloc(test_cache, GFP_KERNEL);
	vmalloc(64);
	vmalloc(64);

	/* Orphans only once the module (and so test_list) is gone. */
	for (int i = 0; i < 10; i++) {
		elem = kmalloc(sizeof(*elem), GFP_KERNEL);
		if (!elem)
			return -ENOMEM;
		memset(elem, 0, sizeof(*elem));
		INIT_LIST_HEAD(&elem->list);
		list_add_tail(&elem->list, &test_list);
	}
	return 0;
}
module_init(memleak_test_init);

static void __exit memleak_test_exit(void)
{
	struct test_node *elem, *tmp;

	/* Unlinks the elements without freeing them, as the seed does. */
	list_for_each_entry_safe(elem, tmp, &test_list, list)
		list_del(&elem->list);
	/* Its two leaked objects keep the cache: it says so and stays. */
	kmem_cache_destroy(test_cache);
}
module_exit(memleak_test_exit);

MODULE_DESCRIPTION("the leak collector's test module: 6 orphans, a 10-element list");
