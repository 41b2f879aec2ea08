/*
 * Object caches (slab allocator) and kmalloc. A cache hands out objects
 * of one size carved from slabs of 1+ pages, with a per-CPU array of
 * free objects in front so the common path takes no lock. kmalloc()
 * is a set of such caches, one per size class, plus whole pages from
 * the buddy allocator above the largest class.
 */
#ifndef KERNEL_SLAB_H
#define KERNEL_SLAB_H

#include <kernel/types.h>
#include <kernel/compiler.h>
#include <kernel/gfp.h>
#include <kernel/memleak_type.h>
#include <kernel/list.h>
#include <kernel/smp.h>
#include <kernel/spinlock.h>
#include <stddef.h>

/* kmem_cache_create() flags */
#define SLAB_HWCACHE_ALIGN	0x01ul	/* align objects to a cache line */
#define SLAB_RED_ZONE		0x02ul	/* guard bytes around each object */
#define SLAB_POISON		0x04ul	/* fill free objects, check on alloc */
#define SLAB_NO_DEBUG		0x08ul	/* never add the CONFIG_SLAB_DEBUG flags */
#define SLAB_KMALLOC		0x10ul	/* one of kmalloc's caches */
#define SLAB_NOLEAKTRACE	0x20ul	/* objects never tracked by the collector */
#define SLAB_PACKED		0x40ul	/* slabs wasting < 1/32 (mm/slab.c) */

#define SLAB_NAME_LEN 24
/* Free objects a CPU may keep; the cache sets its own limit below it. */
#define SLAB_CPU_ARRAY_MAX 120

/*
 * One CPU's stack of free objects (a magazine), in a cache line of its
 * own. Only its CPU touches it, with interrupts off.
 */
struct array_cache {
	unsigned int avail;	/* objects in entry[] */
	unsigned int limit;	/* flush a batch when full */
	unsigned int batch;	/* objects moved per refill or flush */
	void *entry[SLAB_CPU_ARRAY_MAX];
} __aligned(64);

/*
 * Bytes of one cache and of kmem_cache_create()'s bookkeeping; fields
 * are mm/slab.c's (docs/mm.md shows the object layout).
 */
struct kmem_cache {
	/* Read on every allocation and free. */
	unsigned long flags;
	unsigned int size;		/* slot: object, red zones, free word */
	unsigned int object_size;	/* what the user asked for */
	unsigned int obj_offset;	/* object start inside its slot */
	unsigned int fp_offset;		/* free word, from the object start */
	unsigned int num;		/* objects per slab */
	unsigned int order;		/* pages per slab: 2^order */
	u32 reciprocal;			/* 2^32 / size, to find slot numbers */
	unsigned long cookie;		/* scrambles the stored free words */
	void (*ctor)(void *obj);
	/* What its objects are, for the collector (KMEM_CACHE_TYPED()). */
	const struct memleak_type *memleak_type;

	/* Everything below is protected by lock. */
	struct spinlock lock;
	struct list_head slabs_partial;
	struct list_head slabs_full;
	struct list_head slabs_free;
	unsigned long nr_slabs;
	unsigned long nr_free_slabs;
	unsigned long inuse;		/* objects out of slabs (users and arrays) */
	unsigned int free_slabs_kept;	/* empty slabs kept, not given back */

	struct list_head list;		/* in the list of every cache */
	unsigned int align;
	char name[SLAB_NAME_LEN];
	struct array_cache cpu[NR_CPUS];
};

/*
 * A cache of objects of size bytes, aligned to align (0: the word size)
 * and to a cache line with SLAB_HWCACHE_ALIGN. ctor, if any, runs once
 * per object when its slab is made; freed objects must be back in the
 * constructed state. The name is copied. NULL on failure.
 */
struct kmem_cache *kmem_cache_create(const char *name, size_t size,
				     size_t align, unsigned long flags,
				     void (*ctor)(void *));
/*
 * A cache of struct tag objects whose layout the leak collector knows
 * from MEMLEAK_TYPE(tag, ...) (<kernel/memleak_type.h>): it reads them
 * at their pointer fields only, and checks what those point to.
 */
struct kmem_cache *kmem_cache_create_typed(const char *name, size_t size,
					   size_t align, unsigned long flags,
					   void (*ctor)(void *),
					   const struct memleak_type *type);
#define KMEM_CACHE_TYPED(tag, flags)                                    \
	kmem_cache_create_typed(#tag, sizeof(struct tag),              \
				__alignof__(struct tag), flags, NULL,  \
				MEMLEAK_TYPE_OF(tag))
void *kmem_cache_alloc(struct kmem_cache *cache, unsigned int gfp);
void *kmem_cache_zalloc(struct kmem_cache *cache, unsigned int gfp);
/*
 * Frees obj into cache. Double frees, objects of another cache and
 * pointers that are not the start of an object are reported, not freed.
 */
void kmem_cache_free(struct kmem_cache *cache, void *obj);
/* 0, or -1 (cache kept, message printed) while objects are allocated. */
int kmem_cache_destroy(struct kmem_cache *cache);
/*
 * Empties this CPU's array into the slabs and gives every empty slab
 * back to the page allocator; returns the pages freed.
 */
unsigned long kmem_cache_shrink(struct kmem_cache *cache);
/*
 * Every CPU empties its arrays of every cache (on_each_cpu(): not from
 * an interrupt handler), then every empty slab goes back to the page
 * allocator; returns the pages freed.
 */
unsigned long slab_shrink_all(void);
/* Objects handed to users and not freed (arrays not counted). */
unsigned long kmem_cache_active_objects(struct kmem_cache *cache);

/*
 * For mm/ only: the cache an object in a slab page belongs to and the
 * checks kfree() shares with kmem_cache_free().
 */
struct page;
struct kmem_cache *slab_cache_of(struct page *page);
/* page: the slab's first page. */
void slab_free(struct kmem_cache *cache, struct page *page, void *obj,
	       const char *who);
/* kmem_cache_alloc() without the leak collector hook (kmalloc's own). */
void *kmem_cache_alloc_untracked(struct kmem_cache *cache, unsigned int gfp);
/* True when obj starts an object of cache, in page, not free. */
bool slab_object_live(struct kmem_cache *cache, struct page *page,
		      const void *obj);
/*
 * For the leak collector's type checks: whether addr is the start of an
 * object in a slab of a cache whose objects it tracks, and that object
 * looks free (its free word decodes as one). Lockless, so a guess the
 * caller confirms (mm/kmemleak/types.c).
 */
bool slab_object_looks_free(const void *addr);

/*
 * For the leak collector's index: the slots of the slab that holds addr
 * (a slab page), each size bytes from base (the object at obj_offset in
 * it). False when addr is in no slab. The slab must stay (an object of
 * it allocated) while the answer is used.
 */
struct slab_geometry {
	unsigned long base;
	unsigned int size;
	u32 reciprocal;		/* 2^32 / size rounded up; 0: divide */
	unsigned int obj_offset;	/* of the object in its slot (red zone) */
	unsigned int nr_slots;
	unsigned int nr_pages;
};
bool slab_geometry_of(const void *addr, struct slab_geometry *g);

/* kmalloc: size classes of 8 bytes .. 128 KiB, pages above. */
#define KMALLOC_MIN_SIZE 8
#define KMALLOC_MAX_CACHE_SIZE (128 * 1024)
#define KMALLOC_NR_CLASSES 17

/* kmalloc(0) returns this: not NULL, not usable, fine to kfree(). */
#define ZERO_SIZE_PTR ((void *)16)
#define ZERO_OR_NULL_PTR(p) ((unsigned long)(p) <= (unsigned long)ZERO_SIZE_PTR)

void *kmalloc(size_t size, unsigned int gfp);
void *kzalloc(size_t size, unsigned int gfp);
/*
 * kmalloc() of one struct tag, typed for the leak collector like the
 * objects of KMEM_CACHE_TYPED(): MEMLEAK_TYPE(tag, ...) describes it.
 */
void *kmalloc_typed(size_t size, unsigned int gfp,
		    const struct memleak_type *type);
#define kmalloc_obj(tag, gfp) \
	((struct tag *)kmalloc_typed(sizeof(struct tag), gfp, MEMLEAK_TYPE_OF(tag)))
#define kzalloc_obj(tag, gfp) kmalloc_obj(tag, (gfp) | __GFP_ZERO)
/* n * size bytes, zeroed; NULL when the product overflows. */
void *kcalloc(size_t n, size_t size, unsigned int gfp);
/*
 * Resizes p (NULL: kmalloc) keeping min(old, new) bytes; may move it.
 * Returns NULL and leaves p alone on failure; size 0 frees p.
 */
void *krealloc(const void *p, size_t size, unsigned int gfp);
void kfree(const void *p);
/* Usable bytes of a kmalloc block (0 and a warning when p is not one). */
size_t ksize(const void *p);
/* The size class kmalloc() uses for size, or 0 above the largest. */
size_t kmalloc_size_class(size_t size);
/* The cache kmalloc() uses for size, or NULL above the largest class. */
struct kmem_cache *kmalloc_cache(size_t size);

#endif
