/*
 * Host tests of typed blocks (mm/kmemleak/types.c) under ASan/UBSan:
 * precise scanning of a typed block's pointer fields only, the pointer
 * checks (wrong type, into a block, freed object, the wrong list), the
 * type ids, and the word filter the explaining code shares with the
 * scan. Blocks hang from the test's own root area.
 */
#include <kernel/kernel.h>
#include <kernel/list.h>
#include <kernel/memleak.h>
#include <kernel/memleak_type.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/time.h>
#include "../../mm/kmemleak/internal.h"
#include "test_memleak.h"

struct h_node;

struct h_owner {
	struct h_node *next;
	unsigned long cookie;
	struct list_head items;
};

struct h_node {
	unsigned long value;
	unsigned long more;
};

struct h_item {
	unsigned long key;
	struct list_head link;
};

/* Another list_head at the same offset as h_item's: a different list. */
struct h_other_item {
	unsigned long key;
	struct list_head link;
};

MEMLEAK_DECLARE_TYPE(h_node);
MEMLEAK_DECLARE_TYPE(h_item);
MEMLEAK_TYPE(h_owner,
	     MEMLEAK_PTR(next, h_node),
	     MEMLEAK_DATA(cookie),
	     MEMLEAK_LIST(items, h_item, link));
MEMLEAK_TYPE(h_node, MEMLEAK_DATA_TO(value, more));
MEMLEAK_TYPE(h_item, MEMLEAK_DATA(key), MEMLEAK_LIST(link, h_item, link));
MEMLEAK_TYPE(h_other_item, MEMLEAK_DATA(key),
	     MEMLEAK_LIST(link, h_other_item, link));

#define track_obj(tag) ((struct tag *)track_typed(sizeof(struct tag), \
						  MEMLEAK_TYPE_OF(tag)))

static void *track_typed(size_t size, const struct memleak_type *type)
{
	void *p = kzalloc(size, GFP_KERNEL);

	assert_non_null(p);
	memleak_alloc_typed(p, size, 1, type);
	return p;
}

/* Unlike is_suspect(): p anywhere in a block, and no block is no suspect. */
static bool is_typed_suspect(const void *p)
{
	struct memleak_block *b = memleak_index_find((unsigned long)p);

	return b && (b->flags & MEMLEAK_SUSPECT);
}

static void scan(void)
{
	jiffies += 2 * HZ;
	host_log_clear();
	assert_int_equal(memleak_scan(), 0);
}

/*
 * A scan that must find exactly one pointer of a typed block pointing
 * where its type forbids; the findings printed into a clean log.
 * Returns how many were printed.
 */
static unsigned long scan_one_finding(void)
{
	scan();
	assert_int_equal(memleak.nr_type_findings, 1);
	host_log_clear();
	return memleak_print_type_findings();
}

/* Typed scanning back on for the next test. */
static int teardown(void **state)
{
	memleak.typed = true;
	return memleak_test_teardown(state);
}

/* An address in a data field keeps nothing alive, unless typed=off. */
static void test_data_fields_skipped(void **state)
{
	struct h_owner *o = track_obj(h_owner);
	void *leak = track(24, 1);

	(void)state;
	INIT_LIST_HEAD(&o->items);
	roots[0] = (unsigned long)o;
	o->cookie = (unsigned long)leak;
	scan();
	assert_false(is_typed_suspect(o));
	assert_true(is_typed_suspect(leak));
	assert_int_equal(memleak.nr_type_findings, 0);
	assert_true(memleak.bytes_precise > 0);
	assert_int_equal(memleak.bytes_skipped, sizeof(unsigned long));

	memleak.typed = false;
	memleak_clear_reports();
	scan();
	assert_false(is_typed_suspect(leak));
	assert_int_equal(memleak.bytes_precise, 0);
	untrack(leak);
	untrack(o);
}

/* A typed pointer to a typed block of another type, and into one. */
static void test_wrong_type_and_inside(void **state)
{
	struct h_owner *o = track_obj(h_owner);
	struct h_item *item = track_obj(h_item);
	struct h_node *node = track_obj(h_node);

	(void)state;
	INIT_LIST_HEAD(&o->items);
	roots[0] = (unsigned long)o;
	roots[1] = (unsigned long)item;
	roots[2] = (unsigned long)node;
	INIT_LIST_HEAD(&item->link);
	o->next = (struct h_node *)item;
	assert_int_equal(scan_one_finding(), 1);
	assert_true(log_has("memleak: type mismatch: struct h_owner.next at "));
	assert_true(log_has("-> struct h_item "));
	assert_true(log_has("(size 24; struct h_node expected)"));
	assert_true(log_has("its backtrace:"));
	assert_true(log_has("the target's backtrace:"));

	o->next = (struct h_node *)&node->more;
	scan_one_finding();
	assert_true(log_has("memleak: pointer into a block: struct h_owner.next"));
	assert_true(log_has("inside struct h_node "));

	o->next = node;
	scan();
	assert_int_equal(memleak.nr_type_findings, 0);
	untrack(node);
	untrack(item);
	untrack(o);
}

/* A typed pointer to a freed slab object: dangling. */
static void test_dangling(void **state)
{
	struct h_owner *o = track_obj(h_owner);
	struct h_node *node = track_obj(h_node);

	(void)state;
	INIT_LIST_HEAD(&o->items);
	roots[0] = (unsigned long)o;
	o->next = node;
	untrack(node);
	scan_one_finding();
	assert_true(log_has("memleak: dangling pointer: struct h_owner.next"));
	assert_true(log_has("(struct h_node expected)"));
	assert_false(log_has("the target's backtrace"));
	o->next = NULL;
	untrack(o);
}

/* Walks the list with container_of(), which records the alias. */
static unsigned int count_items(struct h_owner *o)
{
	struct h_item *item;
	unsigned int n = 0;

	list_for_each_entry(item, &o->items, link)
		n++;
	return n;
}

/* List links: to the owner's head or an item's link, not another list. */
static void test_lists(void **state)
{
	struct h_owner *o = track_obj(h_owner);
	struct h_item *a = track_obj(h_item), *b = track_obj(h_item);
	struct h_other_item *x = track_obj(h_other_item);

	(void)state;
	INIT_LIST_HEAD(&o->items);
	roots[0] = (unsigned long)o;
	roots[1] = (unsigned long)x;
	INIT_LIST_HEAD(&x->link);
	list_add_tail(&a->link, &o->items);
	list_add_tail(&b->link, &o->items);
	assert_int_equal(count_items(o), 2);
	scan();
	assert_false(is_typed_suspect(a) || is_typed_suspect(b));
	assert_int_equal(memleak.nr_type_findings, 0);

	b->link.next = &x->link;	/* into the other list */
	scan_one_finding();
	assert_true(log_has("memleak: type mismatch: struct h_item.link.next"));
	assert_true(log_has("-> struct h_other_item "));
	b->link.next = &o->items;
	untrack(x);
	untrack(b);
	untrack(a);
	untrack(o);
}

/* Ids: 0 for a block too small for its type, or a foreign descriptor. */
static void test_type_ids(void **state)
{
	static const struct memleak_type foreign = { "struct foreign", 8, 0, NULL };
	const struct memleak_type *t = MEMLEAK_TYPE_OF(h_owner);
	u8 id = memleak_type_id(t, sizeof(struct h_owner));

	(void)state;
	assert_int_not_equal(id, 0);
	assert_ptr_equal(&__start_memleak_types[id - 1], t);
	assert_int_equal(memleak_type_id(t, sizeof(struct h_owner) - 1), 0);
	assert_int_equal(memleak_type_id(&foreign, 64), 0);
	assert_int_equal(memleak_type_id(NULL, 64), 0);
}

/*
 * A block's type is kept in its trace: from one call site, blocks of
 * two types and an untyped one get a trace each, and each its own type.
 */
static void test_type_in_trace(void **state)
{
	const struct memleak_type *types[3] = {
		MEMLEAK_TYPE_OF(h_node), MEMLEAK_TYPE_OF(h_item), NULL
	};
	struct memleak_block *b[3];
	void *p[3];

	(void)state;
	for (unsigned int i = 0; i < 3; i++)
		p[i] = track_typed(sizeof(struct h_owner), types[i]);
	memleak_flush_pending();
	for (unsigned int i = 0; i < 3; i++) {
		b[i] = memleak_index_find((unsigned long)p[i]);
		assert_non_null(b[i]);
		assert_ptr_equal(memleak_block_type(b[i]), types[i]);
	}
	assert_true(b[0]->flags & MEMLEAK_TYPED);
	assert_false(b[2]->flags & MEMLEAK_TYPED);
	assert_ptr_not_equal(block_trace(b[0]), block_trace(b[1]));
	assert_ptr_not_equal(block_trace(b[1]), block_trace(b[2]));
	assert_memory_equal(block_trace(b[0])->entries,
			    block_trace(b[1])->entries,
			    sizeof(block_trace(b[0])->entries[0]) *
				    block_trace(b[0])->nr_entries);
	for (unsigned int i = 0; i < 3; i++)
		untrack(p[i]);
}

/* What the scan reads of a typed block, and of an untyped one. */
static void test_reads_word(void **state)
{
	struct h_owner *o = track_obj(h_owner);
	void *plain = track(32, 1);
	struct memleak_block *b;

	(void)state;
	memleak_flush_pending();
	b = memleak_index_find((unsigned long)o);
	assert_non_null(b);
	assert_true(memleak_reads_word(b, offsetof(struct h_owner, next)));
	assert_false(memleak_reads_word(b, offsetof(struct h_owner, cookie)));
	assert_true(memleak_reads_word(b, offsetof(struct h_owner, items)));
	memleak.typed = false;
	assert_true(memleak_reads_word(b, offsetof(struct h_owner, cookie)));
	memleak.typed = true;
	assert_true(memleak_reads_word(memleak_index_find((unsigned long)plain),
				       0));
	untrack(plain);
	untrack(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_data_fields_skipped,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_type_and_inside,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_dangling, memleak_test_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_lists, memleak_test_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_type_ids, memleak_test_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_type_in_trace,
						memleak_test_setup, teardown),
		cmocka_unit_test_setup_teardown(test_reads_word, memleak_test_setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, memleak_group_setup, NULL);
}
