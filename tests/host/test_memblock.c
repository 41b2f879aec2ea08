/*
 * Host tests of memblock, the boot-time allocator, on the raw arena:
 * merging of ranges, free ranges, first-fit aligned zeroed allocation,
 * failures, retirement, boot hash tables, and mm_init()'s handling of
 * RAM above the low memory limit.
 */
#include <kernel/memblock.h>
#include <kernel/bootinfo.h>
#include <kernel/printk.h>
#include "test_mm.h"

#define MIB (1024 * 1024ULL)

static phys_addr_t base;

static int setup(void **state)
{
	(void)state;
	base = __pa(host_arena());
	memblock_init();
	host_log_clear();
	return 0;
}

static void expect_region(const struct memblock_type *t, int i,
			  phys_addr_t start, phys_addr_t size)
{
	assert_true(i < t->cnt);
	assert_int_equal(t->regions[i].base, start);
	assert_int_equal(t->regions[i].size, size);
}

static void test_add_merges(void **state)
{
	(void)state;
	assert_int_equal(memblock_add(base + 4 * MIB, MIB), 0);
	assert_int_equal(memblock_add(base, MIB), 0);
	assert_int_equal(memblock_memory.cnt, 2);
	expect_region(&memblock_memory, 0, base, MIB);
	/* Touching on both sides: one region. */
	memblock_add(base + MIB, 3 * MIB);
	assert_int_equal(memblock_memory.cnt, 1);
	expect_region(&memblock_memory, 0, base, 5 * MIB);
	/* Overlapping the start and covering. */
	memblock_add(base - MIB + 0x1000 + MIB, 6 * MIB);
	expect_region(&memblock_memory, 0, base, 6 * MIB + 0x1000);
	assert_int_equal(memblock_phys_mem_size(), 6 * MIB + 0x1000);
	/* Zero size: nothing. */
	memblock_add(base + 20 * MIB, 0);
	assert_int_equal(memblock_memory.cnt, 1);
}

static void test_add_before_and_merge_next(void **state)
{
	(void)state;
	memblock_add(base + 2 * MIB, MIB);
	memblock_add(base + 8 * MIB, MIB);
	memblock_add(base + MIB, MIB);	/* touches the next one only */
	assert_int_equal(memblock_memory.cnt, 2);
	expect_region(&memblock_memory, 0, base + MIB, 2 * MIB);
	memblock_add(base + 2 * MIB, 7 * MIB);	/* bridges both */
	assert_int_equal(memblock_memory.cnt, 1);
	expect_region(&memblock_memory, 0, base + MIB, 8 * MIB);
}

static void test_table_full(void **state)
{
	(void)state;
	for (int i = 0; i < MEMBLOCK_MAX_REGIONS; i++)
		assert_int_equal(memblock_reserve(base + 2 * i * PAGE_SIZE,
						  PAGE_SIZE), 0);
	assert_int_equal(memblock_reserved.cnt, MEMBLOCK_MAX_REGIONS);
	assert_int_equal(memblock_reserve(base + 2 * MIB, PAGE_SIZE), -1);
	assert_true(log_has("more than 32 reserved ranges"));
	/* A range that merges still fits. */
	assert_int_equal(memblock_reserve(base + PAGE_SIZE, PAGE_SIZE), 0);
	assert_int_equal(memblock_reserved.cnt, MEMBLOCK_MAX_REGIONS - 1);
	assert_int_equal(memblock_add(~0ULL - 10, 100), -1);
	assert_true(log_has("wraps around"));
}

struct ranges {
	int n;
	phys_addr_t r[8][2];
};

static void collect(phys_addr_t start, phys_addr_t end, void *arg)
{
	struct ranges *rs = arg;

	assert_true(rs->n < 8);
	rs->r[rs->n][0] = start;
	rs->r[rs->n][1] = end;
	rs->n++;
}

static void test_free_ranges(void **state)
{
	struct ranges rs = { 0 };

	(void)state;
	memblock_add(base, 4 * MIB);
	memblock_add(base + 8 * MIB, 4 * MIB);
	memblock_reserve(base, MIB);			/* start of a region */
	memblock_reserve(base + 2 * MIB, 0x1000);	/* middle */
	memblock_reserve(base + 3 * MIB, 6 * MIB);	/* across the hole */
	memblock_reserve(base + 100 * MIB, MIB);	/* outside RAM */
	memblock_for_each_free(collect, &rs);
	assert_int_equal(rs.n, 3);
	assert_int_equal(rs.r[0][0], base + MIB);
	assert_int_equal(rs.r[0][1], base + 2 * MIB);
	assert_int_equal(rs.r[1][0], base + 2 * MIB + 0x1000);
	assert_int_equal(rs.r[1][1], base + 3 * MIB);
	assert_int_equal(rs.r[2][0], base + 9 * MIB);
	assert_int_equal(rs.r[2][1], base + 12 * MIB);
	assert_int_equal(memblock_reserved_size(), MIB + 0x1000 + 2 * MIB);
}

static void test_alloc(void **state)
{
	unsigned char *raw = host_arena();
	unsigned char *a, *b, *c;

	(void)state;
	memset(raw, 0xff, 2 * MIB);
	memblock_add(base, 2 * MIB);
	memblock_reserve(base, 100);
	a = memblock_alloc(10, 0);
	assert_ptr_equal(a, raw + 104);		/* first fit, 8-byte aligned */
	b = memblock_alloc(3000, 4096);
	assert_ptr_equal(b, raw + 4096);
	c = memblock_alloc(16, 16);
	assert_ptr_equal(c, raw + 128);		/* fills the gap below b */
	for (int i = 0; i < 3000; i++)
		assert_int_equal(b[i], 0);
	for (int i = 0; i < 10; i++)
		assert_int_equal(a[i], 0);
	assert_int_equal(raw[114], 0xff);	/* past a: untouched */
	/* [0,100) [104,114) [128,144) [4096,7096) */
	assert_int_equal(memblock_reserved.cnt, 4);
	assert_null(memblock_alloc(2 * MIB, 8));
	assert_null(memblock_alloc(64, 24));
	assert_true(log_has("bad size 64 or alignment 24"));
	assert_null(memblock_alloc(0, 8));
}

static void test_retired(void **state)
{
	(void)state;
	memblock_add(base, 4 * MIB);
	memblock_retire();
	assert_true(memblock_retired());
	assert_null(memblock_alloc(64, 8));
	assert_true(log_has("memblock_alloc(64) after boot"));
	memblock_init();
	assert_false(memblock_retired());
}

static void test_boot_hash_table(void **state)
{
	unsigned int shift = 0;
	unsigned char *raw = host_arena();
	void *table;

	(void)state;
	memset(raw, 0xff, 4 * MIB);
	memblock_add(base, 64 * MIB);
	memblock_reserve(base, 1000);
	/* 0 entries: one bucket per 16 KiB of RAM. */
	table = alloc_large_system_hash("Boot test", 16, 0, &shift);
	assert_ptr_equal(table, raw + PAGE_SIZE);
	assert_int_equal(shift, 12);
	for (int i = 0; i < 16 << 12; i++)
		assert_int_equal(((unsigned char *)table)[i], 0);
	assert_true(log_has("Boot test hash table entries: 4096 (order: 4, 65536 bytes, boot)"));
	assert_int_equal(memblock_reserved_size(), 1000 + 65536);
	free_large_system_hash(table, 16, shift);
	assert_true(log_has("freed during boot, kept"));
}

/* RAM above LOWMEM_LIMIT has no struct page: mm_init() leaves it out. */
static void test_mm_init_ignores_high_ram(void **state)
{
	(void)state;
	memset(&boot_info, 0, sizeof(boot_info));
	boot_info.ram[0].base = base;
	boot_info.ram[0].size = HOST_ARENA_SIZE;
	boot_info.ram[1].base = LOWMEM_LIMIT;
	boot_info.ram[1].size = 1024 * MIB;
	boot_info.nr_ram = 2;
	mm_init();
	assert_true(log_has("ignoring RAM 800000000000-80003fffffff above the low memory limit"));
	assert_int_equal(memblock_memory.cnt, 1);
	expect_region(&memblock_memory, 0, base, HOST_ARENA_SIZE);
	assert_true(memblock_retired());
	assert_int_equal(page_state(NR_RAM_PAGES), HOST_ARENA_SIZE / PAGE_SIZE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_add_merges, setup),
		cmocka_unit_test_setup(test_add_before_and_merge_next, setup),
		cmocka_unit_test_setup(test_table_full, setup),
		cmocka_unit_test_setup(test_free_ranges, setup),
		cmocka_unit_test_setup(test_alloc, setup),
		cmocka_unit_test_setup(test_retired, setup),
		cmocka_unit_test_setup(test_boot_hash_table, setup),
		cmocka_unit_test_setup(test_mm_init_ignores_high_ram, setup),
	};

	return cmocka_run_group_tests_name("memblock", tests, NULL, NULL);
}
