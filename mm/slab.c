/*
 * The slab allocator: caches of equal-sized objects carved out of slabs,
 * blocks of 2^order pages from the buddy allocator. A slab's struct
 * page (its first page) holds the cache, the count of objects out and
 * the list of free objects, linked through a "free word" inside each
 * free object. The other pages of a slab point at the first, so any
 * object address leads to its cache.
 *
 * One object slot (docs/mm.md has the picture):
 *
 *   [red zone][object: object_size][red zone][free word]
 *
 * Red zones only with SLAB_RED_ZONE. The free word is inside the object
 * (its second word, or its only one), unless the object must keep its
 * contents while free (ctor) or gets poisoned or red zones; then it
 * follows the object.
 *
 * In front of the slabs each CPU keeps an array of free objects: alloc
 * pops and free pushes there with interrupts off and no lock. An empty
 * array takes a batch from the slabs, a full one gives a batch back,
 * both under the cache lock. Slabs with no object out are kept (a few:
 * free_slabs_kept) or given back to the page allocator.
 *
 * Double frees: the free word of every free object derives from its
 * own address, scrambled with a per-cache cookie (in a CPU array:
 * addr ^ cookie ^ 1; in a slab: next ^ addr ^ cookie). A freed object
 * whose free word looks like that is searched for in the arrays and in
 * its slab's free list, and reported instead of freed when found. A
 * handed-out object gets its free word cleared.
 *
 * Lock order: slab_caches_lock (the list of caches) -> cache->lock ->
 * zone_lock (the page allocator). Slabs are made and given back with
 * cache->lock released, so in practice cache->lock is innermost. The
 * leak collector's hooks run with no slab lock held.
 */
#include <kernel/slab.h>
#include <kernel/alloc_entry.h>
#include <kernel/mm.h>
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/smp.h>
#include <kernel/string.h>
#include <kernel/export.h>

#define WORD sizeof(void *)
#define CACHE_LINE 64
#define RED_ZONE_SIZE WORD
#define RED_ZONE_BYTE 0xbb
#define POISON_FREE_BYTE 0x6b
#define SLAB_DEBUG_FLAGS (SLAB_RED_ZONE | SLAB_POISON)
/* In a CPU array the free word decodes to this instead of a pointer. */
#define ARRAY_TAG 1UL
/*
 * Empty slabs a cache keeps rather than give them back at once: enough
 * for two CPU arrays' worth of objects, within this many bytes.
 */
#define FREE_SLABS_BYTES (256 * 1024)
/*
 * A slab should hold SLAB_MIN_OBJECTS and waste less than 1/8 of itself;
 * to get there it may grow up to SLAB_EXTRA_ORDERS above the smallest
 * order that fits, but not beyond SLAB_COSTLY_ORDER (32 KiB). Failing
 * that, the order that wastes least. With SLAB_PACKED, for caches whose
 * memory is counted closely (the collector's metadata), any number of
 * objects will do and the waste must be less than 1/32: the smallest
 * slab that wastes that little (a page for page-sized objects).
 */
#define SLAB_MIN_OBJECTS 8
#define SLAB_EXTRA_ORDERS 3
#define SLAB_COSTLY_ORDER 3

static LIST_HEAD(slab_caches);
/*
 * Walks slab_caches. Not list_for_each_entry(): that computes an entry
 * for the list head too, and a struct kmem_cache must be 64-byte aligned.
 */
#define for_each_cache(c, pos)                                          \
	for (pos = slab_caches.next;                                    \
	     pos != &slab_caches &&                                     \
	     ((c = list_entry(pos, struct kmem_cache, list)), true);    \
	     pos = pos->next)
static struct spinlock slab_caches_lock = SPINLOCK_INIT;
/* The cache the struct kmem_cache of every other cache comes from. */
static struct kmem_cache cache_cache;

/*
 * What the leak collector reads of a cache (<kernel/memleak_type.h>):
 * only its place on the list of caches. Its slab lists link pages of
 * the page array, not blocks; its CPU arrays hold free objects only
 * (memleak_erase() wipes a copy left above avail); ctor is code.
 */
MEMLEAK_TYPE(kmem_cache,
	     MEMLEAK_DATA_TO(flags, slabs_free),
	     MEMLEAK_DATA_TO(nr_slabs, free_slabs_kept),
	     MEMLEAK_LIST(list, kmem_cache, list),
	     MEMLEAK_DATA_TO(align, cpu));

/* ---------------------------------------------------------- layout */

static unsigned long *free_word(const struct kmem_cache *c, void *obj)
{
	return (unsigned long *)((char *)obj + c->fp_offset);
}

static void set_free_word(const struct kmem_cache *c, void *obj,
			  unsigned long next)
{
	*free_word(c, obj) = next ^ (unsigned long)obj ^ c->cookie;
}

/* What a free word says: the next free object, ARRAY_TAG, or garbage. */
static unsigned long read_free_word(const struct kmem_cache *c, void *obj)
{
	return *free_word(c, obj) ^ (unsigned long)obj ^ c->cookie;
}

static unsigned long slab_bytes(const struct kmem_cache *c)
{
	return PAGE_SIZE << c->order;
}

/*
 * Where the slab holding addr starts: slabs are buddy blocks, aligned to
 * their size, so no struct page arithmetic is needed.
 */
static unsigned long slab_start(const struct kmem_cache *c, const void *addr)
{
	return (unsigned long)addr & ~(slab_bytes(c) - 1);
}

static char *slab_base(const struct page *head)
{
	return page_address(head);
}

/* The first page of the slab a slab page belongs to. */
static struct page *slab_head(struct page *page)
{
	return (page->flags & PG_head) ? page : page->head;
}

/* True when obj, an address inside one of c's slabs, starts an object. */
static __always_inline bool is_object_start(const struct kmem_cache *c,
					    const void *obj)
{
	unsigned long off = (unsigned long)obj - slab_start(c, obj) -
			    c->obj_offset;
	unsigned long index;

	if (c->reciprocal)
		index = (unsigned long)(((u64)off * c->reciprocal) >> 32);
	else
		index = off / c->size;
	return index < c->num && index * c->size == off;
}

static void choose_order(struct kmem_cache *c)
{
	unsigned int first = get_order(c->size), best = first;
	unsigned int last = min(first + SLAB_EXTRA_ORDERS,
				max(first, (unsigned int)SLAB_COSTLY_ORDER));
	unsigned long best_waste = ~0UL;
	bool packed = c->flags & SLAB_PACKED;
	unsigned long enough = packed ? 1024 / 32 : 1024 / 8;
	unsigned long min_objects = packed ? 1 : SLAB_MIN_OBJECTS;

	for (unsigned int o = first; o < MAX_ORDER && o <= last; o++) {
		unsigned long bytes = PAGE_SIZE << o;
		/* Waste as a share of the slab, in 1/1024ths. */
		unsigned long waste = (bytes % c->size) * 1024 / bytes;

		if (waste < best_waste) {
			best = o;
			best_waste = waste;
		}
		if (waste <= enough && bytes / c->size >= min_objects) {
			best = o;
			break;
		}
	}
	c->order = best;
	c->num = min(slab_bytes(c) / c->size, 0xffffUL);
	/* Exact while offset * size < 2^32 (see is_object_start). */
	if ((u64)slab_bytes(c) * c->size < (1ULL << 32))
		c->reciprocal = (u32)((1ULL << 32) / c->size + 1);
	else
		c->reciprocal = 0;
}

static unsigned int array_limit(unsigned int size)
{
	if (size <= 256)
		return SLAB_CPU_ARRAY_MAX;
	if (size <= 1024)
		return 54;
	if (size <= PAGE_SIZE)
		return 24;
	if (size <= 4 * PAGE_SIZE)
		return 8;
	return 2;
}

/* At least one empty slab is kept; no more than max_slabs beyond it. */
static unsigned int clamp_kept(unsigned int slabs, unsigned long max_slabs)
{
	if (slabs > max_slabs)
		slabs = max_slabs;
	return slabs ? slabs : 1;
}

/* Where the object, its red zones and its free word go in a slot. */
static void compute_layout(struct kmem_cache *c)
{
	unsigned int end;

	c->obj_offset = (c->flags & SLAB_RED_ZONE) ?
			ALIGN((unsigned int)RED_ZONE_SIZE, c->align) : 0;
	end = c->obj_offset + ALIGN(c->object_size, (unsigned int)WORD);
	if (c->flags & SLAB_RED_ZONE)
		end += RED_ZONE_SIZE;
	if (c->ctor || (c->flags & SLAB_DEBUG_FLAGS)) {
		c->fp_offset = end - c->obj_offset;
		end += WORD;
	} else {
		/*
		 * The second word when there is one: the first is the one
		 * users write last most often (list links, counts), and a
		 * word load right after a narrower store to it stalls.
		 */
		c->fp_offset = c->object_size >= 2 * WORD ? WORD : 0;
	}
	c->size = ALIGN(end, c->align);
	choose_order(c);
}

static bool bad_geometry(const char *name, size_t size, size_t align)
{
	if (size == 0 || size > (PAGE_SIZE << (MAX_ORDER - 1)) / 2) {
		printk("kmem_cache_create(%s): object size %zu not supported\n",
		       name, size);
		return true;
	}
	if (align & (align - 1) || align > PAGE_SIZE) {
		printk("kmem_cache_create(%s): alignment %zu is not a power of two up to a page\n",
		       name, align);
		return true;
	}
	return false;
}

/* Empty lists and CPU arrays sized for the object size. */
static void init_cache_state(struct kmem_cache *c)
{
	spin_lock_init(&c->lock);
	INIT_LIST_HEAD(&c->slabs_partial);
	INIT_LIST_HEAD(&c->slabs_full);
	INIT_LIST_HEAD(&c->slabs_free);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		c->cpu[cpu].limit = array_limit(c->size);
		c->cpu[cpu].batch = (c->cpu[cpu].limit + 1) / 2;
	}
	c->free_slabs_kept = clamp_kept(2 * c->cpu[0].limit / c->num,
				       FREE_SLABS_BYTES / slab_bytes(c));
}

static int setup_cache(struct kmem_cache *c, const char *name, size_t size,
		       size_t align, unsigned long flags, void (*ctor)(void *))
{
	if (!name)
		name = "?";
	if (bad_geometry(name, size, align))
		return -1;
#ifdef CONFIG_SLAB_DEBUG
	if (!(flags & SLAB_NO_DEBUG))
		flags |= SLAB_DEBUG_FLAGS;
#endif
	if (ctor)
		flags &= ~SLAB_POISON;	/* poison would undo the constructor */
	memset(c, 0, sizeof(*c));
	strlcpy(c->name, name, sizeof(c->name));
	c->flags = flags;
	c->object_size = size;
	c->align = max(align, WORD);
	if (flags & SLAB_HWCACHE_ALIGN)
		c->align = max(c->align, (unsigned int)CACHE_LINE);
	c->ctor = ctor;
	c->cookie = ((unsigned long)c >> 6) * (unsigned long)0x9e3779b97f4a7c15ULL;
	compute_layout(c);
	init_cache_state(c);
	return 0;
}

/* ---------------------------------------------------------- debugging */

/* The first byte in [p, p + len) that is not `byte`, or -1. */
static long first_changed(const unsigned char *p, size_t len,
			  unsigned char byte)
{
	const unsigned long pattern = byte * (~0UL / 0xff);
	size_t i = 0;

	/* A word at a time where it can: objects can be 128 KiB. */
	while (i < len && ((unsigned long)(p + i) & (sizeof(long) - 1)))
		if (p[i++] != byte)
			return (long)i - 1;
	while (i + sizeof(long) <= len &&
	       *(const unsigned long *)(p + i) == pattern)
		i += sizeof(long);
	for (; i < len; i++)
		if (p[i] != byte)
			return (long)i;
	return -1;
}

static void check_red_zones(struct kmem_cache *c, void *obj, const char *when)
{
	unsigned char *left = (unsigned char *)obj - c->obj_offset;
	unsigned char *right = (unsigned char *)obj + c->object_size;
	size_t right_len = c->fp_offset - c->object_size;
	long bad;

	bad = first_changed(left, c->obj_offset, RED_ZONE_BYTE);
	if (bad >= 0) {
		mm_report("slab: red zone before %p (cache %s) overwritten at offset -%ld, %s",
			  obj, c->name, (long)c->obj_offset - bad, when);
		memset(left, RED_ZONE_BYTE, c->obj_offset);
	}
	bad = first_changed(right, right_len, RED_ZONE_BYTE);
	if (bad >= 0) {
		mm_report("slab: red zone after %p (cache %s) overwritten at offset %lu, %s",
			  obj, c->name, c->object_size + (unsigned long)bad, when);
		memset(right, RED_ZONE_BYTE, right_len);
	}
}

/* A free object about to be handed out (or its slab given back). */
static void check_free_object(struct kmem_cache *c, void *obj)
{
	long bad;

	if (c->flags & SLAB_RED_ZONE)
		check_red_zones(c, obj, "while free");
	if (!(c->flags & SLAB_POISON))
		return;
	bad = first_changed(obj, c->object_size, POISON_FREE_BYTE);
	if (bad >= 0)
		mm_report("slab: object %p (cache %s) modified after free at offset %ld (0x%02x)",
			  obj, c->name, bad, ((unsigned char *)obj)[bad]);
}

static void debug_on_free(struct kmem_cache *c, void *obj)
{
	if (c->flags & SLAB_RED_ZONE)
		check_red_zones(c, obj, "found at free");
	if (c->flags & SLAB_POISON)
		memset(obj, POISON_FREE_BYTE, c->object_size);
}

static void init_object(struct kmem_cache *c, void *obj)
{
	if (c->flags & SLAB_RED_ZONE) {
		memset((char *)obj - c->obj_offset, RED_ZONE_BYTE, c->obj_offset);
		memset((char *)obj + c->object_size, RED_ZONE_BYTE,
		       c->fp_offset - c->object_size);
	}
	if (c->flags & SLAB_POISON)
		memset(obj, POISON_FREE_BYTE, c->object_size);
	if (c->ctor)
		c->ctor(obj);
}

/* ---------------------------------------------------------- slabs */

/*
 * The first slab of a list, or NULL. The head is read with READ_ONCE():
 * GCC 12 at -O2 was seen keeping a list head's first entry in a register
 * across the list moves of a loop (strict aliasing: it took the stores
 * through the pages' list links for unable to change the cache), so a
 * slab was moved twice and the counts went wrong.
 */
static struct page *first_slab(struct list_head *list)
{
	struct list_head *first = READ_ONCE(list->next);

	return first == list ? NULL : list_entry(first, struct page, lru);
}

/* Moves a slab to the front of another list. */
static void move_to(struct list_head *entry, struct list_head *list)
{
	list_del_init(entry);
	list_add(entry, list);
}

static void *slab_object(const struct kmem_cache *c, struct page *head,
			 unsigned int i)
{
	return slab_base(head) + (unsigned long)i * c->size + c->obj_offset;
}

/* A new slab, every object free; NULL when there is no memory. */
static struct page *new_slab(struct kmem_cache *c, unsigned int gfp)
{
	struct page *head = alloc_pages(gfp & ~__GFP_ZERO, c->order);

	if (!head)
		return NULL;
	head->flags |= PG_slab;
	head->slab_cache = c;
	head->inuse = 0;
	head->freelist = NULL;
	for (unsigned long i = 1; i < 1UL << c->order; i++) {
		head[i].flags |= PG_slab;
		head[i].head = head;
	}
	for (unsigned int i = c->num; i-- > 0;) {
		void *obj = slab_object(c, head, i);

		init_object(c, obj);
		set_free_word(c, obj, (unsigned long)head->freelist);
		head->freelist = obj;
	}
	mod_page_state(NR_SLAB_PAGES, 1L << c->order);
	return head;
}

/* Gives a slab with no object out back to the page allocator. */
static void release_slab(struct kmem_cache *c, struct page *head)
{
	if (c->flags & SLAB_DEBUG_FLAGS)
		for (unsigned int i = 0; i < c->num; i++)
			check_free_object(c, slab_object(c, head, i));
	/* The leak collector's records of the slab's objects go with it. */
	if (!(c->flags & SLAB_NOLEAKTRACE))
		memleak_slab_released(slab_base(head));
	for (unsigned long i = 1; i < 1UL << c->order; i++) {
		head[i].flags &= ~PG_slab;
		head[i].head = NULL;
	}
	head->flags &= ~PG_slab;
	head->slab_cache = NULL;
	head->freelist = NULL;
	mod_page_state(NR_SLAB_PAGES, -(1L << c->order));
	__free_pages(head, c->order);
}

static unsigned long release_slabs(struct kmem_cache *c, struct list_head *list)
{
	struct page *page, *next;
	unsigned long pages = 0;

	list_for_each_entry_safe(page, next, list, lru) {
		list_del(&page->lru);
		release_slab(c, page);
		pages += 1UL << c->order;
	}
	return pages;
}

/* Empty slabs beyond the ones kept move to `out`. Under c->lock. */
static void trim_free_slabs(struct kmem_cache *c, struct list_head *out,
			    unsigned long keep)
{
	while (c->nr_free_slabs > keep) {
		struct page *page = first_slab(&c->slabs_free);

		if (!page) {
			mm_report("slab: cache %s counts %lu empty slabs it does not have",
				  c->name, c->nr_free_slabs);
			c->nr_free_slabs = 0;
			break;
		}
		list_move_tail(&page->lru, out);
		c->nr_free_slabs--;
		c->nr_slabs--;
	}
}

/* A slab whose free list is damaged is set aside as full: its free objects leak. */
static void freelist_damaged(struct kmem_cache *c, struct page *head,
			     void *obj)
{
	mm_report("slab: free list of cache %s damaged at %p (slab 0x%lx); %u objects lost",
		  c->name, obj, (unsigned long)slab_base(head),
		  c->num - head->inuse);
	c->inuse += c->num - head->inuse;
	head->inuse = c->num;
	head->freelist = NULL;
	move_to(&head->lru, &c->slabs_full);
}

/* The next free object after obj in head's list, checked. Under c->lock. */
static bool next_free(struct kmem_cache *c, struct page *head, void *obj,
		      void **next)
{
	unsigned long n = read_free_word(c, obj);

	if (n && (slab_start(c, (void *)n) != (unsigned long)slab_base(head) ||
		  !is_object_start(c, (void *)n)))
		return false;
	*next = (void *)n;
	return true;
}

/* Takes one free object out of the slabs, or NULL. Under c->lock. */
static void *take_object(struct kmem_cache *c)
{
	struct page *head;
	void *obj;

	head = first_slab(&c->slabs_partial);
	if (!head) {
		head = first_slab(&c->slabs_free);
		if (!head)
			return NULL;
		c->nr_free_slabs--;
		move_to(&head->lru, &c->slabs_partial);
	}
	obj = head->freelist;
	if (!obj || !next_free(c, head, obj, &head->freelist)) {
		freelist_damaged(c, head, obj);
		return take_object(c);
	}
	head->inuse++;
	c->inuse++;
	if (head->inuse == c->num)
		move_to(&head->lru, &c->slabs_full);
	return obj;
}

/* Puts one object back on its slab's free list. Under c->lock. */
static void put_object(struct kmem_cache *c, void *obj)
{
	struct page *head = slab_head(virt_to_page(obj));

	set_free_word(c, obj, (unsigned long)head->freelist);
	head->freelist = obj;
	head->inuse--;
	c->inuse--;
	if (head->inuse == 0) {
		move_to(&head->lru, &c->slabs_free);
		c->nr_free_slabs++;
	} else if (head->inuse == c->num - 1) {
		move_to(&head->lru, &c->slabs_partial);
	}
}

/* ---------------------------------------------------------- CPU arrays */

/* Moves the n oldest objects of an array to the slabs. Interrupts off. */
static void flush_array(struct kmem_cache *c, struct array_cache *ac,
			unsigned int n)
{
	LIST_HEAD(empty);

	spin_lock(&c->lock);
	for (unsigned int i = 0; i < n; i++)
		put_object(c, ac->entry[i]);
	trim_free_slabs(c, &empty, c->free_slabs_kept);
	spin_unlock(&c->lock);
	ac->avail -= n;
	memmove(ac->entry, ac->entry + n, ac->avail * sizeof(ac->entry[0]));
	for (unsigned int i = ac->avail; i < ac->avail + n; i++)
		memleak_erase(&ac->entry[i]);
	release_slabs(c, &empty);
}

/* Fills an empty array with a batch; returns one object or NULL. Interrupts off. */
static void *refill_array(struct kmem_cache *c, struct array_cache *ac,
			  unsigned int gfp)
{
	for (;;) {
		struct page *slab;

		spin_lock(&c->lock);
		while (ac->avail < ac->batch) {
			void *obj = take_object(c);

			if (!obj)
				break;
			set_free_word(c, obj, ARRAY_TAG);
			ac->entry[ac->avail++] = obj;
		}
		spin_unlock(&c->lock);
		if (ac->avail)
			return ac->entry[--ac->avail];
		slab = new_slab(c, gfp);
		if (!slab)
			return NULL;
		spin_lock(&c->lock);
		list_add(&slab->lru, &c->slabs_free);
		c->nr_slabs++;
		c->nr_free_slabs++;
		spin_unlock(&c->lock);
	}
}

/* ---------------------------------------------------------- alloc/free */

static void *object_handed_out(struct kmem_cache *c, void *obj,
			       unsigned int gfp)
{
	if (unlikely(c->flags & SLAB_DEBUG_FLAGS))
		check_free_object(c, obj);
	*free_word(c, obj) = 0;
	if (gfp & __GFP_ZERO)
		memset(obj, 0, c->object_size);
	return obj;
}

static __always_inline void *slab_alloc(struct kmem_cache *c, unsigned int gfp)
{
	struct array_cache *ac;
	unsigned long flags;
	void *obj;

	flags = arch_irq_save();
	ac = &c->cpu[smp_processor_id()];
	if (likely(ac->avail))
		obj = ac->entry[--ac->avail];
	else
		obj = refill_array(c, ac, gfp);
	/* The stale copy above avail must not keep obj alive for the collector. */
	memleak_erase(&ac->entry[ac->avail]);
	arch_irq_restore(flags);
	if (unlikely(!obj))
		return NULL;
	return object_handed_out(c, obj, gfp);
}

__alloc_entry void *kmem_cache_alloc(struct kmem_cache *c, unsigned int gfp)
{
	void *obj;

	if (unlikely(!c)) {
		mm_report("kmem_cache_alloc: no cache");
		return NULL;
	}
	obj = slab_alloc(c, gfp);
	/*
	 * Leak collector hook for cache objects (kmalloc has its own):
	 * here, so that the backtrace starts at the caller.
	 */
	if (!(c->flags & SLAB_NOLEAKTRACE))
		memleak_alloc_typed(obj, c->object_size, 1, c->memleak_type);
	return obj;
}
EXPORT_SYMBOL(kmem_cache_alloc);

void *kmem_cache_alloc_untracked(struct kmem_cache *c, unsigned int gfp)
{
	return slab_alloc(c, gfp);
}

__alloc_entry void *kmem_cache_zalloc(struct kmem_cache *c, unsigned int gfp)
{
	return kmem_cache_alloc(c, gfp | __GFP_ZERO);
}
EXPORT_SYMBOL(kmem_cache_zalloc);

static bool in_arrays(struct kmem_cache *c, const void *obj)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		const struct array_cache *ac = &c->cpu[cpu];
		unsigned int n = READ_ONCE(ac->avail);

		for (unsigned int i = 0; i < n && i < ac->limit; i++)
			if (ac->entry[i] == obj)
				return true;
	}
	return false;
}

static bool in_slab_freelist(struct kmem_cache *c, struct page *head,
			     void *obj)
{
	unsigned long flags = spin_lock_irqsave(&c->lock);
	void *p = head->freelist;
	bool found = false;

	for (unsigned int n = 0; p && n < c->num && !found; n++) {
		found = p == obj;
		if (!next_free(c, head, p, &p))
			break;
	}
	spin_unlock_irqrestore(&c->lock, flags);
	return found;
}

/* A free word that decodes to a tag or a neighbour: obj may be free already. */
static __always_inline bool looks_free(struct kmem_cache *c, void *obj)
{
	unsigned long n = read_free_word(c, obj);

	return n == ARRAY_TAG || n == 0 ||
	       slab_start(c, (void *)n) == slab_start(c, obj);
}

void slab_free(struct kmem_cache *c, struct page *head, void *obj,
	       const char *who)
{
	struct array_cache *ac;
	unsigned long flags;

	if (unlikely(!is_object_start(c, obj))) {
		mm_report("%s: %p is not the start of an object of cache %s",
			  who, obj, c->name);
		return;
	}
	if (unlikely(looks_free(c, obj)) &&
	    (in_arrays(c, obj) || in_slab_freelist(c, head, obj))) {
		mm_report("double free of %p in cache %s", obj, c->name);
		return;
	}
	if (unlikely(c->flags & SLAB_DEBUG_FLAGS))
		debug_on_free(c, obj);
	flags = arch_irq_save();
	/*
	 * Leak collector hook: every slab object comes back here. Before
	 * ac is read: the collector may use other caches on this CPU.
	 */
	if (!(c->flags & SLAB_NOLEAKTRACE))
		memleak_free_irqs_off(obj);
	ac = &c->cpu[smp_processor_id()];
	if (unlikely(ac->avail == ac->limit))
		flush_array(c, ac, ac->batch);
	set_free_word(c, obj, ARRAY_TAG);
	ac->entry[ac->avail++] = obj;
	arch_irq_restore(flags);
}

bool slab_object_live(struct kmem_cache *c, struct page *page,
		      const void *obj)
{
	struct page *head = slab_head(page);
	void *o = (void *)obj;

	if (!is_object_start(c, o))
		return false;
	return !looks_free(c, o) ||
	       !(in_arrays(c, o) || in_slab_freelist(c, head, o));
}

bool slab_object_looks_free(const void *addr)
{
	struct kmem_cache *c;

	if (!virt_addr_valid(addr))
		return false;
	c = slab_cache_of(virt_to_page(addr));
	if (!c || (c->flags & SLAB_NOLEAKTRACE) ||
	    !is_object_start(c, addr))
		return false;
	return looks_free(c, (void *)addr);
}

struct kmem_cache *slab_cache_of(struct page *page)
{
	if (!(page->flags & PG_slab))
		return NULL;
	return slab_head(page)->slab_cache;
}

bool slab_geometry_of(const void *addr, struct slab_geometry *g)
{
	struct kmem_cache *c;

	if (!virt_addr_valid(addr))
		return false;
	c = slab_cache_of(virt_to_page(addr));
	if (!c)
		return false;
	g->base = slab_start(c, addr);
	g->size = c->size;
	g->reciprocal = c->reciprocal;
	g->obj_offset = c->obj_offset;
	g->nr_slots = c->num;
	g->nr_pages = 1u << c->order;
	return true;
}

/* The first page of obj's slab, or NULL (reported) when obj is in none. */
static struct page *object_slab(const void *obj, const char *who)
{
	struct page *page;

	if (!virt_addr_valid(obj)) {
		mm_report("%s: %p is not in RAM", who, obj);
		return NULL;
	}
	page = virt_to_page(obj);
	if (!(page->flags & PG_slab)) {
		mm_report("%s: %p is not in a slab (page free or not a slab page)",
			  who, obj);
		return NULL;
	}
	return slab_head(page);
}

void kmem_cache_free(struct kmem_cache *c, void *obj)
{
	struct page *head;

	if (unlikely(!obj))
		return;
	head = object_slab(obj, "kmem_cache_free");
	if (unlikely(!head))
		return;
	if (unlikely(!c || head->slab_cache != c)) {
		mm_report("kmem_cache_free: %p belongs to cache %s, not %s", obj,
			  head->slab_cache->name, c ? c->name : "(null)");
		return;
	}
	slab_free(c, head, obj, "kmem_cache_free");
}
EXPORT_SYMBOL(kmem_cache_free);

/* ---------------------------------------------------------- caches */

static unsigned long objects_in_arrays(const struct kmem_cache *c)
{
	unsigned long n = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		n += READ_ONCE(c->cpu[cpu].avail);
	return n;
}

unsigned long kmem_cache_active_objects(struct kmem_cache *c)
{
	unsigned long out = READ_ONCE(c->inuse), cached = objects_in_arrays(c);

	return out > cached ? out - cached : 0;
}

/* Gives back every empty slab; returns the pages freed. */
static unsigned long release_free_slabs(struct kmem_cache *c)
{
	LIST_HEAD(empty);
	unsigned long flags = spin_lock_irqsave(&c->lock);

	trim_free_slabs(c, &empty, 0);
	spin_unlock_irqrestore(&c->lock, flags);
	return release_slabs(c, &empty);
}

unsigned long kmem_cache_shrink(struct kmem_cache *c)
{
	unsigned long flags = arch_irq_save();
	struct array_cache *ac = &c->cpu[smp_processor_id()];

	flush_array(c, ac, ac->avail);
	arch_irq_restore(flags);
	return release_free_slabs(c);
}

/*
 * Run on every CPU by slab_shrink_all(): only a CPU touches its own
 * arrays, so each empties its own, interrupts off.
 */
static void flush_this_cpus_arrays(void *unused)
{
	struct kmem_cache *c;
	struct list_head *pos;
	unsigned long flags;

	(void)unused;
	flags = spin_lock_irqsave(&slab_caches_lock);
	for_each_cache(c, pos) {
		struct array_cache *ac = &c->cpu[smp_processor_id()];

		flush_array(c, ac, ac->avail);
	}
	spin_unlock_irqrestore(&slab_caches_lock, flags);
}

/*
 * Every CPU's arrays, not only the caller's: a thread that moved to
 * another CPU meanwhile left its frees in the first one's arrays, and
 * their slabs would stay (a self-test comparing free pages before and
 * after once missed 128 pages so, with 4 CPUs).
 */
unsigned long slab_shrink_all(void)
{
	struct kmem_cache *c;
	struct list_head *pos;
	unsigned long flags, pages = 0;

	/* Its spare objects first, so that their slabs can go too. */
	memleak_shrink();
	on_each_cpu(flush_this_cpus_arrays, NULL, true);
	flags = spin_lock_irqsave(&slab_caches_lock);
	for_each_cache(c, pos)
		pages += release_free_slabs(c);
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	return pages;
}

struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align, unsigned long flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *c = kmem_cache_alloc(&cache_cache, GFP_KERNEL);
	unsigned long irq;

	if (!c)
		return NULL;
	if (setup_cache(c, name, size, align, flags, ctor)) {
		kmem_cache_free(&cache_cache, c);
		return NULL;
	}
	irq = spin_lock_irqsave(&slab_caches_lock);
	list_add_tail(&c->list, &slab_caches);
	spin_unlock_irqrestore(&slab_caches_lock, irq);
	return c;
}
EXPORT_SYMBOL(kmem_cache_create);

struct kmem_cache *kmem_cache_create_typed(const char *name, size_t size,
					   size_t align, unsigned long flags,
					   void (*ctor)(void *),
					   const struct memleak_type *type)
{
	struct kmem_cache *c = kmem_cache_create(name, size, align, flags,
						 ctor);

	if (c)
		c->memleak_type = type;
	return c;
}
EXPORT_SYMBOL(kmem_cache_create_typed);

/*
 * The caller promises nobody uses the cache any more, on any CPU, so
 * every CPU's array can be emptied here.
 */
int kmem_cache_destroy(struct kmem_cache *c)
{
	unsigned long flags, active;

	if (!c || c == &cache_cache) {
		printk("kmem_cache_destroy: %s cannot be destroyed\n",
		       c ? c->name : "(null)");
		return -1;
	}
	active = kmem_cache_active_objects(c);
	if (active) {
		printk("kmem_cache_destroy: cache %s still has %lu objects in use, not destroyed\n",
		       c->name, active);
		return -1;
	}
	flags = arch_irq_save();
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		flush_array(c, &c->cpu[cpu], c->cpu[cpu].avail);
	arch_irq_restore(flags);
	release_free_slabs(c);
	if (c->nr_slabs) {
		printk("kmem_cache_destroy: cache %s keeps %lu damaged slabs, not destroyed\n",
		       c->name, c->nr_slabs);
		return -1;
	}
	flags = spin_lock_irqsave(&slab_caches_lock);
	list_del(&c->list);
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	kmem_cache_free(&cache_cache, c);
	return 0;
}
EXPORT_SYMBOL(kmem_cache_destroy);

void __init kmem_cache_init(void)
{
	INIT_LIST_HEAD(&slab_caches);
	spin_lock_init(&slab_caches_lock);
	if (setup_cache(&cache_cache, "kmem_cache", sizeof(struct kmem_cache),
			CACHE_LINE, 0, NULL))
		panic("slab: cannot set up the cache of caches");
	cache_cache.memleak_type = MEMLEAK_TYPE_OF(kmem_cache);
	list_add(&cache_cache.list, &slab_caches);
}

/* ---------------------------------------------------------- slabinfo */

static int cmd_slabinfo(int argc, char **argv)
{
	unsigned long flags;
	struct kmem_cache *c;
	struct list_head *pos;

	(void)argv;
	if (argc != 1) {
		printk("usage: slabinfo\n");
		return 1;
	}
	printk("%-20s %8s %8s %8s %10s %12s\n", "name", "active", "total",
	       "objsize", "objperslab", "pagesperslab");
	flags = spin_lock_irqsave(&slab_caches_lock);
	for_each_cache(c, pos)
		printk("%-20s %8lu %8lu %8u %10u %12lu\n", c->name,
		       kmem_cache_active_objects(c), c->nr_slabs * c->num,
		       c->object_size, c->num, 1UL << c->order);
	spin_unlock_irqrestore(&slab_caches_lock, flags);
	return 0;
}
SHELL_COMMAND("slabinfo", cmd_slabinfo, "slabinfo",
	      "object caches: objects in use, objects, sizes, slab sizes");
