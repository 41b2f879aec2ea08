/*
 * The boot-time allocator: lists of RAM ranges and of reserved ranges,
 * used before the page allocator exists (to place the page array, for
 * one). mm_init() hands everything it has not reserved to the buddy
 * allocator and retires it; from then on memblock_alloc() refuses.
 */
#ifndef KERNEL_MEMBLOCK_H
#define KERNEL_MEMBLOCK_H

#include <kernel/types.h>
#include <kernel/compiler.h>
#include <stddef.h>

#define MEMBLOCK_MAX_REGIONS 32

struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
};

/* Sorted by base; overlapping and touching regions are merged. */
struct memblock_type {
	const char *name;
	int cnt;
	struct memblock_region regions[MEMBLOCK_MAX_REGIONS];
};

extern struct memblock_type memblock_memory;
extern struct memblock_type memblock_reserved;

/* Empties both lists and makes memblock usable (again). */
void memblock_init(void);

/* Return 0, or -1 with a message when the list is full. */
int memblock_add(phys_addr_t base, phys_addr_t size);
int memblock_reserve(phys_addr_t base, phys_addr_t size);

/*
 * size zeroed bytes aligned to align (a power of two; 0 means 8), from
 * the lowest free RAM, reserved for good. NULL when nothing fits or
 * memblock is retired; callers report.
 */
void *memblock_alloc(size_t size, size_t align);

/* Calls fn for each free range [base, end) of RAM, lowest first. */
void memblock_for_each_free(void (*fn)(phys_addr_t base, phys_addr_t end,
				       void *arg), void *arg);

/* Bytes of RAM in the memory list, and of it reserved. */
phys_addr_t memblock_phys_mem_size(void);
phys_addr_t memblock_reserved_size(void);

/* After this memblock_alloc() fails: the page allocator owns the RAM. */
void memblock_retire(void);
bool memblock_retired(void);

void memblock_dump(void);

/*
 * A hash table of 2^shift buckets of bucket_size bytes, zeroed, for at
 * least `entries` entries (0: one bucket per 16 KiB of RAM). Comes from
 * memblock during boot, from the page allocator afterwards; prints its
 * name and size. *hash_shift (if not NULL) gets the shift. NULL on
 * failure.
 */
void *alloc_large_system_hash(const char *name, size_t bucket_size,
			      unsigned long entries, unsigned int *hash_shift);
/* Gives a table from alloc_large_system_hash() back to the page allocator. */
void free_large_system_hash(void *table, size_t bucket_size,
			    unsigned int hash_shift);

#endif
