/*
 * Built-in leak scenarios: each sets up a known pattern of blocks and
 * pointers and says which blocks a scan must report. The 'leaktest'
 * command leaves a pattern in place for 'memleak' to find; the
 * self-tests (leaktest_test.c) compare the scan with the expectation.
 * Every scenario is the 2006 design's behaviour in miniature: plain
 * orphans, lists found only through container_of() aliases, vmalloc's
 * second reference, and each annotation.
 */
#include <kernel/errno.h>
#include <kernel/kernel.h>
#include <kernel/list.h>
#include <kernel/memleak.h>
#include <kernel/memleak_type.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/thread.h>
#include <kernel/wait.h>
#include <kernel/vmalloc.h>
#include <kernel/mm.h>
#include "leaktest.h"
#include "kmemleak/internal.h"

struct leaktest_block leaktest_blocks[LEAKTEST_MAX_BLOCKS];
unsigned int leaktest_nr_blocks;
static bool setup_failed;
static struct kmem_cache *leaktest_cache;
/* Objects of struct lt_typed_other: a typed cache nobody else uses. */
static struct kmem_cache *lt_typed_cache;

/* ------------------------------------------------------------------ */
/* Allocation helpers that remember what they made                     */

/*
 * A report's allocation site is the first frame past the allocators,
 * and the tests expect to know it whatever the compiler decides:
 * lt_kmalloc() is always a frame of its own, by its name (neither
 * inlined nor cloned), the cache and vmalloc helpers never are (the
 * scenario that calls them is the site).
 */

static void record(void *p, size_t size, enum leaktest_kind kind,
		   bool expected)
{
	struct leaktest_block *b;

	if (!p || leaktest_nr_blocks == LEAKTEST_MAX_BLOCKS) {
		setup_failed = true;
		return;
	}
	b = &leaktest_blocks[leaktest_nr_blocks++];
	b->masked = (unsigned long)p ^ LEAKTEST_MASK;
	b->size = size;
	b->kind = kind;
	b->expected = expected;
}

static __noipa void *lt_kmalloc(size_t size, bool expected)
{
	void *p = kzalloc(size, GFP_KERNEL);

	record(p, size, LT_KMALLOC, expected);
	return p;
}

static __always_inline void *lt_cache_alloc(bool expected)
{
	void *p = NULL;

	if (leaktest_cache)
		p = kmem_cache_zalloc(leaktest_cache, GFP_KERNEL);
	record(p, leaktest_cache ? leaktest_cache->object_size : 0, LT_CACHE,
	       expected);
	return p;
}

/* A vmalloc block is tracked as its whole pages (as in Linux). */
static __always_inline void *lt_vmalloc(size_t size, bool expected)
{
	void *p = vzalloc(size);

	record(p, ALIGN(size, PAGE_SIZE), LT_VMALLOC, expected);
	return p;
}

/* ------------------------------------------------------------------ */
/* The scenarios                                                       */

/* The 2006 test module: two of each kind of allocation, dropped at once. */
static void setup_orphans(void)
{
	lt_kmalloc(32, true);
	lt_kmalloc(32, true);
	lt_cache_alloc(true);
	lt_cache_alloc(true);
	lt_vmalloc(64, true);
	lt_vmalloc(64, true);
}

/* An element reached only through its embedded list_head, at offset 100. */
struct leaktest_elem {
	char header[100];
	struct list_head list;
	char footer[100];
};
BUILD_BUG_ON(offsetof(struct leaktest_elem, list) != 100);

static LIST_HEAD(leaktest_list);

/* Walks the list with container_of(), which also records the alias. */
static unsigned int list_length(void)
{
	struct leaktest_elem *e;
	unsigned int n = 0;

	list_for_each_entry(e, &leaktest_list, list)
		n++;
	return n;
}

static void build_list(bool expected)
{
	for (int i = 0; i < 10; i++) {
		struct leaktest_elem *e = lt_kmalloc(sizeof(*e), expected);

		if (!e)
			return;
		list_add_tail(&e->list, &leaktest_list);
	}
	if (list_length() != 10)
		setup_failed = true;
}

static void setup_list(void)
{
	build_list(false);
}

static void setup_list_orphaned(void)
{
	build_list(true);
	/* Forget the list: the elements now only point at each other. */
	INIT_LIST_HEAD(&leaktest_list);
}

static void unhook_list(void)
{
	INIT_LIST_HEAD(&leaktest_list);
}

/* The seed's whole test: the orphans are reported, the list is not. */
static void setup_seed(void)
{
	setup_orphans();
	setup_list();
}

/* container_of(container_of()): a list_head inside a struct inside a struct. */
struct lt_inner {
	char pad[24];
	struct list_head node;
};

struct lt_outer {
	char pad[40];
	struct lt_inner in;
	char tail[12];
};

static LIST_HEAD(lt_outer_list);

static struct lt_outer *outer_of(struct list_head *node)
{
	struct lt_inner *in = container_of(node, struct lt_inner, node);

	return container_of(in, struct lt_outer, in);
}

static void setup_container2(void)
{
	struct list_head *pos;
	int n = 0;

	for (int i = 0; i < 3; i++) {
		struct lt_outer *o = lt_kmalloc(sizeof(*o), false);

		if (o)
			list_add_tail(&o->in.node, &lt_outer_list);
	}
	for (pos = lt_outer_list.next; pos != &lt_outer_list; pos = pos->next)
		n += outer_of(pos) != NULL;
	setup_failed |= n != 3;
}

static void unhook_container2(void)
{
	INIT_LIST_HEAD(&lt_outer_list);
}

/*
 * The globals below hold the patterns' roots. They are not static: the
 * kernel never reads them (only the collector does), and the compiler
 * would drop the stores to a static that nothing reads.
 */

/* vmalloc: min_count 2, its vm_struct holds one reference. */
void *lt_vmalloc_keep;

static void setup_vmalloc_ref(void)
{
	lt_vmalloc(100, true);		/* only the vm_struct points at it */
	lt_vmalloc_keep = lt_vmalloc(100, false);
}

static void unhook_vmalloc_ref(void)
{
	lt_vmalloc_keep = NULL;
}

/* memleak_padding: the object starts 16 bytes into its block. */
struct lt_padded {
	long a;
	struct list_head link;
	long b;
};

#define LT_PAD 16
void *lt_pad_keep, *lt_pad_control;

static void setup_padding(void)
{
	char *p = lt_kmalloc(LT_PAD + sizeof(struct lt_padded), false);
	/* Without the annotation a pointer to +16 is no reference. */
	char *q = lt_kmalloc(LT_PAD + sizeof(struct lt_padded),
			     !memleak.interior);

	if (!p || !q)
		return;
	memleak_padding(p, LT_PAD, sizeof(struct lt_padded));
	lt_pad_keep = p + LT_PAD;
	lt_pad_control = q + LT_PAD;
}

static void unhook_padding(void)
{
	lt_pad_keep = lt_pad_control = NULL;
}

/* memleak_not_leak: never reported, and still scanned. */
static void setup_not_leak(void)
{
	void **p = lt_kmalloc(64, false);

	if (!p)
		return;
	memleak_not_leak(p);
	p[0] = lt_kmalloc(32, false);
}

/* memleak_ignore: never reported, never scanned. */
static void setup_ignore(void)
{
	void **p = lt_kmalloc(64, false);

	if (!p)
		return;
	memleak_ignore(p);
	p[0] = lt_kmalloc(32, true);
}

/* memleak_scan_area: only bytes 0..15 of the block are scanned. */
void *lt_area_keep;

static void setup_scan_area(void)
{
	void **a = lt_kmalloc(64, false);

	if (!a)
		return;
	memleak_scan_area(a, 0, 16);
	a[8 / sizeof(void *)] = lt_kmalloc(32, false);
	a[32 / sizeof(void *)] = lt_kmalloc(32, true);
	lt_area_keep = a;
}

static void unhook_scan_area(void)
{
	lt_area_keep = NULL;
}

/*
 * An orphan whose address the command that made it leaves behind in a
 * dead frame, a word in every slot of a deep array: what an interrupt
 * taken while a register held it, or a printk() of it, leaves. The next
 * command's frames lie there, so unless the shell wipes the dead stack
 * after each command (task_wipe_dead_stack()), a slot they do not write
 * keeps a copy that the scan takes for a reference.
 */
#define LT_STALE_COPIES 512

static void __noinline lt_leave_copies(unsigned long masked)
{
	volatile unsigned long copies[LT_STALE_COPIES];

	for (unsigned int i = 0; i < LT_STALE_COPIES; i++)
		copies[i] = masked ^ LEAKTEST_MASK;
	(void)copies;	/* written for what is left of them */
}

static void setup_stale_copy(void)
{
	void *p = lt_kmalloc(48, true);

	if (p)
		lt_leave_copies((unsigned long)p ^ LEAKTEST_MASK);
}

/* A block only pointed to from another orphan: both are leaks. */
static void setup_inside_orphan(void)
{
	void **a = lt_kmalloc(64, true);

	if (a)
		a[0] = lt_kmalloc(32, true);
}

/*
 * Words that are no pointers: a block's address with a low bit set (how
 * a page-table entry looks), its address plus 2, and its plain address
 * kept only in __memleak_noscan memory (as the page tables are): all
 * three blocks are reported. A fourth, held by a plain word, is not.
 */
static unsigned long lt_words[4];
static volatile unsigned long lt_noscan_word __memleak_noscan;

static void setup_not_pointers(void)
{
	void *tagged = lt_kmalloc(32, true), *inside = lt_kmalloc(32, true);
	void *hidden = lt_kmalloc(32, true), *held = lt_kmalloc(32, false);

	lt_words[0] = (unsigned long)tagged | 1;
	lt_words[1] = (unsigned long)inside + 2;
	lt_words[2] = (unsigned long)held;
	lt_noscan_word = (unsigned long)hidden;
}

static void unhook_not_pointers(void)
{
	memset(lt_words, 0, sizeof(lt_words));
	lt_noscan_word = 0;
}

/*
 * A block whose only reference is a word-aligned pointer into its middle
 * that is no alias: reported, as "possibly lost".
 */
static volatile unsigned long lt_interior_word;

static void setup_interior_only(void)
{
	char *p = lt_kmalloc(64, true);

	if (p)
		lt_interior_word = (unsigned long)(p + 24);
}

static void unhook_interior_only(void)
{
	lt_interior_word = 0;
}

/* Three orphans pointing at each other in a ring. */
static void setup_cycle(void)
{
	void **a = lt_kmalloc(48, true), **b = lt_kmalloc(48, true);
	void **c = lt_kmalloc(48, true);

	if (!a || !b || !c)
		return;
	a[0] = b;
	b[0] = c;
	c[0] = a;
}

/* One orphan; 'leaktest clean' then frees it after 'memleak' reported it. */
static void setup_freed_after_report(void)
{
	lt_kmalloc(40, true);
}

/* A white block that changes between two scans is rescanned, not reported. */
static void setup_changing(void)
{
	lt_kmalloc(48, false);
}

static void change_blocks(void)
{
	for (unsigned int i = 0; i < leaktest_nr_blocks; i++)
		((char *)leaktest_addr(&leaktest_blocks[i]))[0]++;
}

/*
 * A block whose only pointer is a local variable of a sleeping thread:
 * never reported. With stack scanning on the scan finds it; with it off
 * the scan misses it, and the check with the world stopped, which always
 * reads the live part of every stack, finds it (mm/kmemleak/scan.c, step 5).
 */
static struct thread *lt_thread;
static bool lt_thread_ready, lt_thread_stop;
static DEFINE_WAIT_QUEUE(lt_thread_wait);

static int stack_holder(void *masked)
{
	/* On the stack, where only the collector's stack scan can see it. */
	void *volatile held = (void *)((unsigned long)masked ^ LEAKTEST_MASK);

	WRITE_ONCE(lt_thread_ready, true);
	wake_up(&lt_thread_wait);
	wait_event(lt_thread_wait, READ_ONCE(lt_thread_stop));
	return held ? 0 : 1;
}

static void setup_stack(void)
{
	void *p = lt_kmalloc(56, false);

	if (!p)
		return;
	lt_thread_ready = lt_thread_stop = false;
	lt_thread = kthread_run(stack_holder,
				(void *)((unsigned long)p ^ LEAKTEST_MASK),
				"leaktest-stack");
	if (!lt_thread) {
		setup_failed = true;
		return;
	}
	wait_event(lt_thread_wait, READ_ONCE(lt_thread_ready));
}

static void unhook_stack(void)
{
	if (!lt_thread)
		return;
	WRITE_ONCE(lt_thread_stop, true);
	wake_up(&lt_thread_wait);
	kthread_join(lt_thread, NULL);
	lt_thread = NULL;
}

/*
 * Pointers kept only in CPU 1's copy of a per-CPU variable. Without a
 * CPU 1 the highest possible CPU's copy stands in (with one CPU, CPU
 * 0's: still a copy, whereas per_cpu() of a CPU that is not possible
 * names the template, which no scan covers). Slot 0 keeps its block all
 * along; slot 1 is cleared between the two scans, so the first scan
 * reports neither block and the second reports slot 1's.
 * tests/gdb/percpu.py borrows the same variable.
 */
DEFINE_PER_CPU(void *, lt_percpu_ref[2]);
static unsigned int lt_percpu_where;

unsigned int leaktest_percpu_cpu(void)
{
	unsigned int cpu, last = 0;

	if (cpu_possible(1))
		return 1;
	for_each_possible_cpu(cpu)
		last = cpu;
	return last;
}

/*
 * Typed blocks (<kernel/memleak_type.h>): an owner reached from a
 * global, holding a typed pointer, an address kept as a number, a list
 * of typed items linked through a list_head in their middle (found
 * through container_of(), which records the alias) and a pointer to an
 * object of a third type.
 */
struct lt_typed_item {
	unsigned long value;
	struct list_head link;
};

struct lt_typed_other {
	unsigned long a, b;
	void *any;
};

struct lt_typed_owner {
	struct lt_typed_item *item;
	unsigned long cookie;	/* an address as a number: no reference */
	struct list_head items;
	struct lt_typed_other *other;
};

MEMLEAK_DECLARE_TYPE(lt_typed_item);
MEMLEAK_DECLARE_TYPE(lt_typed_other);
MEMLEAK_TYPE(lt_typed_owner,
	     MEMLEAK_PTR(item, lt_typed_item),
	     MEMLEAK_DATA(cookie),
	     MEMLEAK_LIST(items, lt_typed_item, link),
	     MEMLEAK_PTR(other, lt_typed_other));
MEMLEAK_TYPE(lt_typed_item,
	     MEMLEAK_DATA(value),
	     MEMLEAK_LIST(link, lt_typed_item, link));
MEMLEAK_TYPE(lt_typed_other,
	     MEMLEAK_DATA_TO(a, b),
	     MEMLEAK_ANY(any));

static struct lt_typed_owner *lt_typed_root;

static void *lt_typed_record(void *p, size_t size, enum leaktest_kind kind,
			     bool expected)
{
	record(p, size, kind, expected);
	return p;
}

#define lt_kmalloc_obj(tag, expected) \
	((struct tag *)lt_typed_record(kzalloc_obj(tag, GFP_KERNEL), \
				       sizeof(struct tag), LT_KMALLOC, expected))

static struct lt_typed_owner *lt_typed_owner(void)
{
	struct lt_typed_owner *o = lt_kmalloc_obj(lt_typed_owner, false);

	if (o)
		INIT_LIST_HEAD(&o->items);
	lt_typed_root = o;
	return o;
}

/*
 * A leaked block whose address sits in the owner's integer field: a
 * conservative scan takes the number for a pointer and misses the leak,
 * a precise one reports it ('memleak typed=off' shows the difference).
 */
static void setup_typed_hidden(void)
{
	struct lt_typed_owner *o = lt_typed_owner();

	if (o)
		o->cookie = (unsigned long)lt_kmalloc(40, true);
}

static void unhook_typed(void)
{
	lt_typed_root = NULL;
}

/*
 * A stale pointer: the owner's 'other' still points to an object freed
 * since, and the memory now holds a struct lt_typed_item (the slab hands
 * out the object freed last first): a type mismatch. The item is kept by
 * the owner's 'item' field too.
 */
static void setup_typed_confusion(void)
{
	struct lt_typed_owner *o = lt_typed_owner();
	struct lt_typed_other *other;

	/* One kmalloc size class for both: the item reuses the object. */
	BUILD_BUG_ON(sizeof(struct lt_typed_other) !=
		     sizeof(struct lt_typed_item));
	if (!o)
		return;
	preempt_disable();
	other = kzalloc_obj(lt_typed_other, GFP_KERNEL);
	o->other = other;
	kfree(other);
	o->item = lt_kmalloc_obj(lt_typed_item, false);
	preempt_enable();
	if (o->item && (void *)o->item != (void *)o->other) {
		printk("leaktest: the freed object was not reused\n");
		setup_failed = true;
	}
}

/*
 * A dangling pointer: the owner's 'other' points to an object of a
 * typed cache freed since (nothing else allocates from that cache).
 */
static void setup_typed_dangling(void)
{
	struct lt_typed_owner *o = lt_typed_owner();

	if (!o || !lt_typed_cache) {
		setup_failed = true;
		return;
	}
	o->other = kmem_cache_zalloc(lt_typed_cache, GFP_KERNEL);
	kmem_cache_free(lt_typed_cache, o->other);
}

static void unhook_typed_dangling(void)
{
	if (lt_typed_root)
		lt_typed_root->other = NULL;
	unhook_typed();
}

/*
 * A list of typed items on the owner's list head, linked through a
 * list_head at offset sizeof(long): nothing leaks, every link is where
 * its type says. With 'orphaned', the owner is dropped: it is a direct
 * leak, the items indirect ones.
 */
static void build_typed_list(bool orphaned)
{
	struct lt_typed_owner *o = lt_typed_owner();
	struct lt_typed_item *item;
	unsigned int n = 0;

	if (!o)
		return;
	leaktest_blocks[leaktest_nr_blocks - 1].expected = orphaned;
	for (int i = 0; i < 4; i++) {
		item = lt_kmalloc_obj(lt_typed_item, orphaned);
		if (!item)
			return;
		item->value = i;
		list_add_tail(&item->link, &o->items);
	}
	list_for_each_entry(item, &o->items, link)
		n++;
	if (n != 4)
		setup_failed = true;
	if (orphaned)
		lt_typed_root = NULL;
}

static void setup_typed_list(void)
{
	build_typed_list(false);
}

static void setup_typed_list_orphaned(void)
{
	build_typed_list(true);
}

static void setup_percpu(void)
{
	void **slot;

	lt_percpu_where = leaktest_percpu_cpu();
	slot = per_cpu(lt_percpu_ref, lt_percpu_where);
	slot[0] = lt_kmalloc(64, false);
	slot[1] = lt_kmalloc(72, true);
	printk("leaktest: pointers in CPU %u's copy of lt_percpu_ref\n",
	       lt_percpu_where);
}

static void clear_percpu_slot1(void)
{
	per_cpu(lt_percpu_ref[1], lt_percpu_where) = NULL;
}

static void unhook_percpu(void)
{
	per_cpu(lt_percpu_ref[0], lt_percpu_where) = NULL;
	per_cpu(lt_percpu_ref[1], lt_percpu_where) = NULL;
}

const struct leaktest_scenario leaktest_scenarios[] = {
	{ "seed", "the 2006 test: 6 orphans reported, a 10-element list not",
	  setup_seed, unhook_list, NULL },
	{ "orphans", "kmalloc(32) x2, cache object x2, vmalloc(64) x2, dropped",
	  setup_orphans, NULL, NULL },
	{ "list", "10 elements on a global list, linked at offset 100",
	  setup_list, unhook_list, NULL },
	{ "list-orphaned", "the same list after its head is cleared",
	  setup_list_orphaned, NULL, NULL },
	{ "container2", "list_head in a struct in a struct (secondary aliases)",
	  setup_container2, unhook_container2, NULL },
	{ "vmalloc-ref", "vmalloc with only the vm_struct's reference left",
	  setup_vmalloc_ref, unhook_vmalloc_ref, NULL },
	{ "padding", "memleak_padding: pointer to the object inside its block",
	  setup_padding, unhook_padding, NULL },
	{ "not-leak", "memleak_not_leak: unreferenced but not reported",
	  setup_not_leak, NULL, NULL },
	{ "ignore", "memleak_ignore: not reported and not scanned",
	  setup_ignore, NULL, NULL },
	{ "scan-area", "memleak_scan_area: a pointer outside the area is no reference",
	  setup_scan_area, unhook_scan_area, NULL },
	{ "stale-copy", "an orphan whose address the command left in a dead "
	  "frame: reported", setup_stale_copy, NULL, NULL },
	{ "inside-orphan", "a block only referenced from another orphan",
	  setup_inside_orphan, NULL, NULL },
	{ "cycle", "three orphans pointing at each other",
	  setup_cycle, NULL, NULL },
	{ "interior-only", "only a pointer into the middle of a block (possibly lost)",
	  setup_interior_only, unhook_interior_only, NULL },
	{ "freed-after-report", "an orphan freed after it was reported",
	  setup_freed_after_report, NULL, NULL },
	{ "changing", "a white block whose contents change between scans",
	  setup_changing, NULL, change_blocks },
	{ "not-pointers", "an address with a low bit set, plus 2, or in noscan "
	  "memory: no reference", setup_not_pointers, unhook_not_pointers, NULL },
	{ "stack", "a pointer kept only on a sleeping thread's stack",
	  setup_stack, unhook_stack, NULL },
	{ "percpu", "pointers kept only in CPU 1's copy of a per-CPU variable",
	  setup_percpu, unhook_percpu, clear_percpu_slot1 },
	{ "typed-hidden", "a leak whose address a typed block keeps as a "
	  "number: found only by precise scanning", setup_typed_hidden,
	  unhook_typed, NULL },
	{ "typed-confusion", "a typed pointer to a freed object reused by "
	  "another type: a type mismatch", setup_typed_confusion,
	  unhook_typed, NULL },
	{ "typed-dangling", "a typed pointer to a freed object: a dangling "
	  "pointer", setup_typed_dangling, unhook_typed_dangling, NULL },
	{ "typed-list", "typed items on a typed owner's list (container_of): "
	  "nothing to report", setup_typed_list, unhook_typed, NULL },
	{ "typed-list-orphaned", "the same with the owner dropped: 1 direct, "
	  "4 indirect leaks", setup_typed_list_orphaned, unhook_typed, NULL },
};
const unsigned int leaktest_nr_scenarios = ARRAY_SIZE(leaktest_scenarios);

/* ------------------------------------------------------------------ */
/* Running them                                                        */

const struct leaktest_scenario *leaktest_find(const char *name)
{
	for (unsigned int i = 0; i < leaktest_nr_scenarios; i++)
		if (strcmp(leaktest_scenarios[i].name, name) == 0)
			return &leaktest_scenarios[i];
	return NULL;
}

int leaktest_setup(const struct leaktest_scenario *s)
{
	if (!leaktest_cache)
		leaktest_cache = kmem_cache_create("leaktest", 48, 0, 0, NULL);
	if (!lt_typed_cache)
		lt_typed_cache = KMEM_CACHE_TYPED(lt_typed_other, 0);
	leaktest_nr_blocks = 0;
	setup_failed = false;
	s->setup();
	if (setup_failed) {
		leaktest_teardown(s);
		return -ENOMEM;
	}
	return 0;
}

void leaktest_teardown(const struct leaktest_scenario *s)
{
	if (s->unhook)
		s->unhook();
	for (unsigned int i = 0; i < leaktest_nr_blocks; i++) {
		struct leaktest_block *b = &leaktest_blocks[i];

		if (b->kind == LT_KMALLOC)
			kfree(leaktest_addr(b));
		else if (b->kind == LT_CACHE)
			kmem_cache_free(leaktest_cache, leaktest_addr(b));

		else
			vfree(leaktest_addr(b));
	}
	leaktest_nr_blocks = 0;
}

/* ------------------------------------------------------------------ */
/* The 'leaktest' command                                              */

static const struct leaktest_scenario *active;

static void list_scenarios(void)
{
	for (unsigned int i = 0; i < leaktest_nr_scenarios; i++)
		printk("%-20s %s\n", leaktest_scenarios[i].name,
		       leaktest_scenarios[i].help);
}

static void print_expectation(const struct leaktest_scenario *s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < leaktest_nr_blocks; i++) {
		const struct leaktest_block *b = &leaktest_blocks[i];

		if (!b->expected) {
			/* For 'memleak refs' and 'why' to be tried on. */
			printk("leaktest: keeps referenced object 0x%08lx "
			       "(size %zu)\n", (unsigned long)leaktest_addr(b),
			       b->size);
			continue;
		}
		printk("leaktest: expect unreferenced object 0x%08lx (size %zu)\n",
		       (unsigned long)leaktest_addr(b), b->size);
		n++;
	}
	printk("leaktest: %s set up: %u blocks, %u should be reported\n",
	       s->name, leaktest_nr_blocks, n);
	if (s->between_scans)
		printk("leaktest: run 'memleak', then 'leaktest change', then "
		       "'memleak' again\n");
}

static int start_scenario(const char *name)
{
	const struct leaktest_scenario *s = leaktest_find(name);

	if (!s) {
		printk("leaktest: no scenario '%s' (try 'leaktest list')\n", name);
		return 1;
	}
	if (active) {
		printk("leaktest: '%s' is still set up (run 'leaktest clean' "
		       "first)\n", active->name);
		return 1;
	}
	if (leaktest_setup(s)) {
		printk("leaktest: out of memory setting up '%s'\n", name);
		return 1;
	}
	active = s;
	/*
	 * This passes the blocks' addresses to printk(): the shell wipes
	 * the dead frames after the command, or a copy left there, where
	 * the next command's frames lie, would keep a block meant to leak
	 * alive.
	 */
	print_expectation(s);
	return 0;
}

static int clean_scenario(void)
{
	if (!active) {
		printk("leaktest: nothing is set up\n");
		return 1;
	}
	leaktest_teardown(active);
	printk("leaktest: %s taken apart, its blocks freed\n", active->name);
	active = NULL;
	return 0;
}

static int change_scenario(void)
{
	if (!active || !active->between_scans) {
		printk("leaktest: the active scenario has no change step\n");
		return 1;
	}
	active->between_scans();
	return 0;
}

static int cmd_leaktest(int argc, char **argv)
{
	if (argc == 1)
		return start_scenario("seed");
	if (argc != 2) {
		printk("usage: leaktest [list | clean | change | NAME]\n");
		return 1;
	}
	if (strcmp(argv[1], "list") == 0) {
		list_scenarios();
		return 0;
	}
	if (strcmp(argv[1], "clean") == 0)
		return clean_scenario();
	if (strcmp(argv[1], "change") == 0)
		return change_scenario();
	return start_scenario(argv[1]);
}
SHELL_COMMAND("leaktest", cmd_leaktest, "leaktest [list|clean|change|NAME]",
	      "set up a known leak pattern for 'memleak' to find");
