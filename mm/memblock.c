/*
 * memblock, the boot-time allocator: two sorted lists of physical
 * ranges, the RAM (memblock_memory) and the parts of it already taken
 * (memblock_reserved). An allocation is first fit from the bottom of
 * RAM and just adds a reserved range. It lives until mm_init() gives
 * every free range to the buddy allocator and retires it.
 *
 * No lock: it runs on the boot CPU before the others are started.
 */
#include <kernel/memblock.h>
#include <kernel/kernel.h>
#include <kernel/memleak.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/string.h>

struct memblock_type memblock_memory = { .name = "memory" };
struct memblock_type memblock_reserved = { .name = "reserved" };
static bool retired;

/* RAM per hash bucket when the caller does not say how many entries. */
#define HASH_SCALE (16 * 1024)
#define HASH_MAX_SHIFT 24

void memblock_init(void)
{
	memblock_memory.cnt = 0;
	memblock_reserved.cnt = 0;
	retired = false;
}

static phys_addr_t region_end(const struct memblock_region *r)
{
	return r->base + r->size;
}

static void remove_region(struct memblock_type *type, int i)
{
	memmove(&type->regions[i], &type->regions[i + 1],
		(type->cnt - i - 1) * sizeof(type->regions[0]));
	type->cnt--;
}

/* Folds the regions after i that overlap or touch it into it. */
static void merge_following(struct memblock_type *type, int i)
{
	struct memblock_region *r = type->regions;

	while (i + 1 < type->cnt && r[i + 1].base <= region_end(&r[i])) {
		phys_addr_t end = max(region_end(&r[i]), region_end(&r[i + 1]));

		r[i].size = end - r[i].base;
		remove_region(type, i + 1);
	}
}

/* Makes room at index i for a new empty region at base; false when full. */
static bool insert_region(struct memblock_type *type, int i, phys_addr_t base)
{
	struct memblock_region *r = type->regions;

	if (type->cnt == MEMBLOCK_MAX_REGIONS)
		return false;
	memmove(&r[i + 1], &r[i], (type->cnt - i) * sizeof(r[0]));
	type->cnt++;
	r[i].base = base;
	r[i].size = 0;
	return true;
}

static int add_range(struct memblock_type *type, phys_addr_t base,
		     phys_addr_t size)
{
	struct memblock_region *r = type->regions;
	phys_addr_t end = base + size;
	int i = 0;

	if (size == 0)
		return 0;
	if (end < base) {
		printk("memblock: %s range %llx+%llx wraps around, ignored\n",
		       type->name, base, size);
		return -1;
	}
	while (i < type->cnt && r[i].base <= base)
		i++;
	if (i > 0 && region_end(&r[i - 1]) >= base) {
		i--;
	} else if (i < type->cnt && r[i].base <= end) {
		r[i].size += r[i].base - base;
		r[i].base = base;
	} else if (!insert_region(type, i, base)) {
		printk("memblock: more than %d %s ranges, %llx+%llx ignored\n",
		       MEMBLOCK_MAX_REGIONS, type->name, base, size);
		return -1;
	}
	if (region_end(&r[i]) < end)
		r[i].size = end - r[i].base;
	merge_following(type, i);
	return 0;
}

int memblock_add(phys_addr_t base, phys_addr_t size)
{
	return add_range(&memblock_memory, base, size);
}

int memblock_reserve(phys_addr_t base, phys_addr_t size)
{
	return add_range(&memblock_reserved, base, size);
}

/* The parts of one RAM region that no reserved region covers. */
static void free_parts(const struct memblock_region *m,
		       void (*fn)(phys_addr_t, phys_addr_t, void *), void *arg)
{
	phys_addr_t pos = m->base, end = region_end(m);

	for (int i = 0; i < memblock_reserved.cnt && pos < end; i++) {
		const struct memblock_region *r = &memblock_reserved.regions[i];

		if (region_end(r) <= pos)
			continue;
		if (r->base >= end)
			break;
		if (r->base > pos)
			fn(pos, r->base, arg);
		pos = region_end(r);
	}
	if (pos < end)
		fn(pos, end, arg);
}

void memblock_for_each_free(void (*fn)(phys_addr_t base, phys_addr_t end,
				       void *arg), void *arg)
{
	for (int i = 0; i < memblock_memory.cnt; i++)
		free_parts(&memblock_memory.regions[i], fn, arg);
}

struct fit {
	phys_addr_t size, align, found;
};

static void try_fit(phys_addr_t base, phys_addr_t end, void *arg)
{
	struct fit *f = arg;
	/* Never address 0: a NULL pointer cannot be an allocation. */
	phys_addr_t start = ALIGN(max(base, f->align), f->align);

	if (f->found || start < base || start + f->size < start)
		return;
	if (start + f->size <= end && start + f->size <= LOWMEM_LIMIT)
		f->found = start;
}

/*
 * Leak collector hook: every boot-time allocation is made here. Not
 * tracked today: its one user, mem_map, is a root of the scan.
 */
void *memblock_alloc(size_t size, size_t align)
{
	struct fit f = { size, align ? align : 8, 0 };

	if (retired) {
		printk("memblock_alloc(%zu) after boot: use kmalloc or alloc_pages\n",
		       size);
		return NULL;
	}
	if (size == 0 || (f.align & (f.align - 1))) {
		printk("memblock_alloc: bad size %zu or alignment %zu\n", size,
		       align);
		return NULL;
	}
	memblock_for_each_free(try_fit, &f);
	if (!f.found || memblock_reserve(f.found, size))
		return NULL;
	memset(__va(f.found), 0, size);
	return __va(f.found);
}

static phys_addr_t total_size(const struct memblock_type *type)
{
	phys_addr_t total = 0;

	for (int i = 0; i < type->cnt; i++)
		total += type->regions[i].size;
	return total;
}

phys_addr_t memblock_phys_mem_size(void)
{
	return total_size(&memblock_memory);
}

/* Only the reserved bytes that are RAM count. */
static void add_free(phys_addr_t base, phys_addr_t end, void *arg)
{
	*(phys_addr_t *)arg += end - base;
}

phys_addr_t memblock_reserved_size(void)
{
	phys_addr_t free = 0;

	memblock_for_each_free(add_free, &free);
	return memblock_phys_mem_size() - free;
}

void memblock_retire(void)
{
	retired = true;
}

bool memblock_retired(void)
{
	return retired;
}

static void dump_type(const struct memblock_type *type)
{
	printk("memblock %s: %d ranges\n", type->name, type->cnt);
	for (int i = 0; i < type->cnt; i++) {
		const struct memblock_region *r = &type->regions[i];

		printk("  [%08llx-%08llx] %llu KiB\n", r->base,
		       region_end(r) - 1, r->size / 1024);
	}
}

void memblock_dump(void)
{
	dump_type(&memblock_memory);
	dump_type(&memblock_reserved);
}

static unsigned int hash_shift_for(unsigned long entries)
{
	unsigned int shift = 0;

	if (entries == 0) {
		phys_addr_t ram = retired ?
			(phys_addr_t)page_state(NR_RAM_PAGES) << PAGE_SHIFT :
			memblock_phys_mem_size();

		entries = (unsigned long)(ram / HASH_SCALE);
	}
	while (shift < HASH_MAX_SHIFT && (1UL << shift) < entries)
		shift++;
	return shift;
}

/* Leak collector hook: large boot hash tables are made here. */
void *alloc_large_system_hash(const char *name, size_t bucket_size,
			      unsigned long entries, unsigned int *hash_shift)
{
	unsigned int shift = hash_shift_for(entries);
	size_t size = bucket_size << shift;
	unsigned int order = get_order(size);
	void *table = NULL;

	if (bucket_size == 0 || size >> shift != bucket_size ||
	    order >= MAX_ORDER) {
		printk("%s hash table: %lu buckets of %zu bytes is too large\n",
		       name, 1UL << shift, bucket_size);
		return NULL;
	}
	if (!retired)
		table = memblock_alloc(PAGE_SIZE << order, PAGE_SIZE);
	else
		table = (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, order);
	if (!table) {
		printk("%s hash table: no memory for %zu bytes\n", name, size);
		return NULL;
	}
	printk("%s hash table entries: %lu (order: %u, %zu bytes, %s)\n", name,
	       1UL << shift, order, size, retired ? "pages" : "boot");
	memleak_alloc(table, size, 1);
	if (hash_shift)
		*hash_shift = shift;
	return table;
}

void free_large_system_hash(void *table, size_t bucket_size,
			    unsigned int hash_shift)
{
	unsigned int order = get_order(bucket_size << hash_shift);

	if (!table)
		return;
	memleak_free(table);
	if (!retired) {
		printk("free_large_system_hash: %p freed during boot, kept\n",
		       table);
		return;
	}
	if (virt_addr_valid(table) && (virt_to_page(table)->flags & PG_reserved))
		free_reserved_area(table, (char *)table + (PAGE_SIZE << order));
	else
		free_pages((unsigned long)table, order);
}
