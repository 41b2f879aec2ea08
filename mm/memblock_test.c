/*
 * Self-tests of what memblock left behind on the target: the boot
 * reservations, and boot-style hash tables made after boot.
 */
#include <kernel/memleak.h>
#include <kernel/ktest.h>
#include <kernel/memblock.h>
#include <kernel/mm.h>
#include <kernel/slab.h>

static bool reserved(phys_addr_t addr)
{
	for (int i = 0; i < memblock_reserved.cnt; i++) {
		const struct memblock_region *r = &memblock_reserved.regions[i];

		if (addr >= r->base && addr - r->base < r->size)
			return true;
	}
	return false;
}

static void test_boot_reservations(struct ktest *t)
{
	KEXPECT(t, memblock_retired());
	KEXPECT(t, memblock_memory.cnt >= 1);
	KEXPECT(t, reserved(0));
	KEXPECT(t, reserved(__pa(__kernel_start)));
	KEXPECT(t, reserved(__pa(__kernel_end) - 1));
	KEXPECT(t, reserved(__pa(mem_map)));
	KEXPECT(t, virt_to_page(__kernel_start)->flags & PG_reserved);
	KEXPECT(t, virt_to_page(mem_map)->flags & PG_reserved);
	KEXPECT(t, memblock_alloc(16, 8) == NULL);
	KEXPECT_EQ(t, page_state(NR_RAM_PAGES),
		   memblock_phys_mem_size() >> PAGE_SHIFT);
}

static void test_hash_table_after_boot(struct ktest *t)
{
	unsigned long before;
	unsigned int shift = 0;
	unsigned long *table;
	int nonzero = 0;

	slab_shrink_all();
	before = memleak_nr_free_pages();
	table = alloc_large_system_hash("ktest", sizeof(long), 3000, &shift);
	KEXPECT(t, table != NULL);
	if (!table)
		return;
	KEXPECT_EQ(t, shift, 12);
	for (int i = 0; i < 1 << 12; i++)
		nonzero += table[i] != 0;
	KEXPECT_EQ(t, nonzero, 0);
	free_large_system_hash(table, sizeof(long), shift);
	/* The leak collector's metadata may have grown a slab meanwhile. */
	slab_shrink_all();
	KEXPECT_EQ(t, memleak_nr_free_pages(), before);
}

static const struct ktest_case memblock_cases[] = {
	KTEST_CASE(test_boot_reservations),
	KTEST_CASE(test_hash_table_after_boot),
	{ 0 },
};
KTEST_SUITE("memblock", memblock_cases);
