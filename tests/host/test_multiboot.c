/*
 * Host tests for the Multiboot information reader
 * (arch/i386/multiboot_info.c): a fake physical memory at MEM_BASE holds
 * the information structure, its memory map, modules and command line.
 */
/* Kernel headers first, as in the other tests (see test_shell.c). */
#include <kernel/bootinfo.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <asm/multiboot.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#define MEM_BASE 0x10000u
#define MEM_SIZE 4096
#define INFO MEM_BASE
#define MMAP (MEM_BASE + 0x100)
#define MODS (MEM_BASE + 0x400)
#define CMDLINE (MEM_BASE + 0x800)
#define GIB4 0x100000000ULL

static u8 mem[MEM_SIZE];
static struct mem_range ram[32];
static int nr_ram;
static struct boot_info bi;
/* Calls of map(): a reader going round in circles fails, not hangs. */
static int maps;

static const void *map(void *ctx, u32 addr, u32 len)
{
	(void)ctx;
	assert_true(++maps < 10000);
	if (addr < MEM_BASE || addr - MEM_BASE > MEM_SIZE ||
	    len > MEM_SIZE - (addr - MEM_BASE))
		return NULL;
	return mem + (addr - MEM_BASE);
}

static void add_ram(void *ctx, u64 base, u64 size)
{
	(void)ctx;
	assert_true(nr_ram < 32);
	ram[nr_ram].base = base;
	ram[nr_ram].size = size;
	nr_ram++;
}

static const struct multiboot_env env = { map, add_ram, NULL };

static struct multiboot_info *info(void)
{
	return (struct multiboot_info *)(mem + (INFO - MEM_BASE));
}

static int setup(void **state)
{
	(void)state;
	memset(mem, 0, sizeof(mem));
	memset(&bi, 0, sizeof(bi));
	nr_ram = 0;
	maps = 0;
	return 0;
}

/* Writes an entry of size+4 bytes at *pos of the map and moves past it. */
static void put_entry(u32 *pos, u32 size, u64 addr, u64 len, u32 type)
{
	struct multiboot_mmap_entry e = { size, addr, len, type };

	memcpy(mem + (*pos - MEM_BASE), &e, sizeof(e));
	*pos += size + 4;
}

static void use_mmap(u32 end)
{
	info()->flags |= MB_INFO_MMAP;
	info()->mmap_addr = MMAP;
	info()->mmap_length = end - MMAP;
}

static int read_info(void)
{
	return multiboot_read(&env, INFO, &bi);
}

static void assert_range(int i, u64 base, u64 size)
{
	assert_true(i < nr_ram);
	assert_int_equal(ram[i].base, base);
	assert_int_equal(ram[i].size, size);
}

static void test_mmap(void **state)
{
	u32 pos = MMAP;

	(void)state;
	put_entry(&pos, 20, 0, 0x9fc00, MB_MEMORY_AVAILABLE);
	put_entry(&pos, 20, 0xf0000, 0x10000, 2);
	put_entry(&pos, 20, 0x100000, 0x7ee0000, MB_MEMORY_AVAILABLE);
	use_mmap(pos);
	assert_int_equal(read_info(), 0);
	assert_string_equal(bi.loader, "multiboot");
	assert_int_equal(nr_ram, 2);
	assert_range(0, 0, 0x9fc00);
	assert_range(1, 0x100000, 0x7ee0000);
}

/* Loaders may append fields: size says where the next entry starts. */
static void test_mmap_longer_entries(void **state)
{
	u32 pos = MMAP;

	(void)state;
	put_entry(&pos, 24, 0x1000, 0x1000, MB_MEMORY_AVAILABLE);
	put_entry(&pos, 28, 0x3000, 0x1000, MB_MEMORY_AVAILABLE);
	use_mmap(pos);
	assert_int_equal(read_info(), 0);
	assert_int_equal(nr_ram, 2);
	assert_range(1, 0x3000, 0x1000);
}

static void test_mmap_above_4g(void **state)
{
	u32 pos = MMAP;

	(void)state;
	put_entry(&pos, 20, GIB4, 0x10000000, MB_MEMORY_AVAILABLE);
	put_entry(&pos, 20, 0xc0000000, 0x80000000, MB_MEMORY_AVAILABLE);
	put_entry(&pos, 20, 0x100000, 0, MB_MEMORY_AVAILABLE);
	use_mmap(pos);
	assert_int_equal(read_info(), 0);
	assert_int_equal(nr_ram, 1);
	assert_range(0, 0xc0000000, 0x40000000);
}

/* Found by fuzz_multiboot: base + len wrapped, so len was kept whole. */
static void test_mmap_length_wraps(void **state)
{
	u32 pos = MMAP;

	(void)state;
	put_entry(&pos, 20, 0x5e71, ~0ULL - 0xfff, MB_MEMORY_AVAILABLE);
	use_mmap(pos);
	assert_int_equal(read_info(), 0);
	assert_int_equal(nr_ram, 1);
	assert_range(0, 0x5e71, GIB4 - 0x5e71);
}

/*
 * Found by fuzz_multiboot: size 0xfffffffc made the step to the next
 * entry 0 (mod 2^32), and the reader went round the same entry forever.
 */
static void test_mmap_size_wraps(void **state)
{
	u32 pos = MMAP;

	(void)state;
	put_entry(&pos, 20, 0x1000, 0x1000, MB_MEMORY_AVAILABLE);
	put_entry(&pos, 0xfffffffc, 0x2000, 0x1000, MB_MEMORY_AVAILABLE);
	pos = MMAP + 2 * 24;
	put_entry(&pos, 20, 0x3000, 0x1000, MB_MEMORY_AVAILABLE);
	use_mmap(pos);
	assert_int_equal(read_info(), 0);
	assert_int_equal(nr_ram, 2);
	assert_range(1, 0x2000, 0x1000);
}

/* An entry too short for its own fields ends the map. */
static void test_mmap_short_entry(void **state)
{
	u32 pos = MMAP;

	(void)state;
	put_entry(&pos, 0, 0x1000, 0x1000, MB_MEMORY_AVAILABLE);
	pos = MMAP + 24;
	put_entry(&pos, 20, 0x3000, 0x1000, MB_MEMORY_AVAILABLE);
	use_mmap(pos);
	assert_int_equal(read_info(), 0);
	assert_int_equal(nr_ram, 0);
}

/* The map's length, not the entries, says where it ends. */
static void test_mmap_bounds(void **state)
{
	u32 pos = MMAP;

	(void)state;
	put_entry(&pos, 20, 0x1000, 0x1000, MB_MEMORY_AVAILABLE);
	put_entry(&pos, 20, 0x3000, 0x1000, MB_MEMORY_AVAILABLE);
	use_mmap(pos - 1);
	assert_int_equal(read_info(), 0);
	assert_int_equal(nr_ram, 1);

	/* A map outside memory, or wrapping past 4 GiB, is not read. */
	setup(NULL);
	use_mmap(MMAP + 24);
	info()->mmap_addr = MEM_BASE + MEM_SIZE - 8;
	assert_int_equal(read_info(), 0);
	info()->mmap_addr = 0xfffffff0;
	assert_int_equal(read_info(), 0);
	assert_int_equal(nr_ram, 0);
}

static void test_mem_upper(void **state)
{
	(void)state;
	info()->flags = MB_INFO_MEMORY;
	info()->mem_upper = 127 * 1024;
	assert_int_equal(read_info(), 0);
	assert_int_equal(nr_ram, 1);
	assert_range(0, 0x100000, 127 << 20);

	/* Without PAE, RAM stops at 4 GiB. */
	setup(NULL);
	info()->flags = MB_INFO_MEMORY;
	info()->mem_upper = ~0u;
	assert_int_equal(read_info(), 0);
	assert_range(0, 0x100000, GIB4 - 0x100000);

	/* The map, when there is one, wins. */
	setup(NULL);
	info()->flags = MB_INFO_MEMORY;
	info()->mem_upper = 1024;
	use_mmap(MMAP);
	assert_int_equal(read_info(), 0);
	assert_int_equal(nr_ram, 0);
}

static void test_cmdline(void **state)
{
	char *s = (char *)mem + (CMDLINE - MEM_BASE);

	(void)state;
	strlcpy(s, "console=ttyS0 autorun=\"x;y\"", 64);
	info()->flags = MB_INFO_CMDLINE;
	info()->cmdline = CMDLINE;
	assert_int_equal(read_info(), 0);
	assert_string_equal(bi.cmdline, "console=ttyS0 autorun=\"x;y\"");

	/* Cut to fit, still terminated. */
	memset(s, 'a', 1000);
	s[1000] = '\0';
	assert_int_equal(read_info(), 0);
	assert_int_equal(strlen(bi.cmdline), BOOT_CMDLINE_SIZE - 1);

	/* Unterminated at the end of memory: what there is. */
	memset(mem + MEM_SIZE - 4, 'b', 4);
	info()->cmdline = MEM_BASE + MEM_SIZE - 4;
	assert_int_equal(read_info(), 0);
	assert_string_equal(bi.cmdline, "bbbb");

	info()->cmdline = 0x100;
	assert_int_equal(read_info(), 0);
	assert_string_equal(bi.cmdline, "");
}

static void put_module(int i, u32 start, u32 end)
{
	struct multiboot_module m = { start, end, 0, 0 };

	memcpy(mem + (MODS - MEM_BASE) + i * sizeof(m), &m, sizeof(m));
}

static void test_modules(void **state)
{
	(void)state;
	put_module(0, 0x200000, 0x210000);
	put_module(1, 0x300000, 0x310000);
	info()->flags = MB_INFO_MODS;
	info()->mods_addr = MODS;
	info()->mods_count = 0;
	assert_int_equal(read_info(), 0);
	assert_int_equal(bi.initrd_end, 0);

	/* The first module is the boot archive. */
	info()->mods_count = 2;
	assert_int_equal(read_info(), 0);
	assert_int_equal(bi.initrd_start, 0x200000);
	assert_int_equal(bi.initrd_end, 0x210000);
}

/* Found by fuzz_multiboot: a module may claim to end before it starts. */
static void test_module_backwards(void **state)
{
	(void)state;
	put_module(0, 0x210000, 0x200000);
	info()->flags = MB_INFO_MODS;
	info()->mods_addr = MODS;
	info()->mods_count = 1;
	assert_int_equal(read_info(), 0);
	assert_int_equal(bi.initrd_start, 0);
	assert_int_equal(bi.initrd_end, 0);

	/* A module list outside memory is ignored too. */
	info()->mods_addr = MEM_BASE + MEM_SIZE - 8;
	assert_int_equal(read_info(), 0);
	assert_int_equal(bi.initrd_end, 0);
}

static void test_unreadable_info(void **state)
{
	(void)state;
	assert_int_equal(multiboot_read(&env, 0x1000, &bi), -EFAULT);
	assert_int_equal(multiboot_read(&env, MEM_BASE + MEM_SIZE - 8, &bi),
			 -EFAULT);
	assert_null(bi.loader);
}

#define T(fn) cmocka_unit_test_setup(fn, setup)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_mmap),
		T(test_mmap_longer_entries),
		T(test_mmap_above_4g),
		T(test_mmap_length_wraps),
		T(test_mmap_size_wraps),
		T(test_mmap_short_entry),
		T(test_mmap_bounds),
		T(test_mem_upper),
		T(test_cmdline),
		T(test_modules),
		T(test_module_backwards),
		T(test_unreadable_info),
	};

	return cmocka_run_group_tests_name("multiboot", tests, NULL, NULL);
}
