/*
 * The "machine" of the host build: RAM is one mmap'd arena that
 * host_mm_init() describes in boot_info before calling mm_init(), as a
 * boot loader would. Also the globals generic code expects from
 * kernel/ files that are not in the host library.
 */
#include <kernel/bootinfo.h>
#include <kernel/init.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <asm/host.h>

#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

/* Buddy blocks are naturally aligned: align the arena to the largest. */
#define ARENA_ALIGN (PAGE_SIZE << (MAX_ORDER - 1))

struct boot_info boot_info;
bool test_mode = true;
unsigned long host_irqs_off;
unsigned int host_cpu_id;
unsigned long host_arena_size = HOST_ARENA_SIZE;

static void *arena;
static unsigned long outside_ram_used;

static void die(const char *msg)
{
	if (write(2, msg, strlen(msg)) < 0)
		abort();
	abort();
}

void *host_arena(void)
{
	unsigned long base;
	void *map;

	if (arena)
		return arena;
	map = mmap(NULL, host_arena_size + HOST_OUTSIDE_RAM_SIZE + ARENA_ALIGN,
		   PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED)
		die("host: cannot map the RAM arena\n");
	base = ALIGN((unsigned long)map, ARENA_ALIGN);
	/* mm_init() reserves all RAM below the kernel image. */
	if (base < (unsigned long)__kernel_end)
		die("host: the arena lies below the program image\n");
	arena = (void *)base;
	return arena;
}

void host_arena_populate(void)
{
	volatile char *p = host_arena();

	for (unsigned long off = 0; off < host_arena_size; off += PAGE_SIZE)
		p[off] = 0;
}

void *host_outside_ram(size_t size)
{
	char *start = (char *)host_arena() + host_arena_size + outside_ram_used;

	size = ALIGN(size, PAGE_SIZE);
	if (outside_ram_used + size > HOST_OUTSIDE_RAM_SIZE)
		die("host: the memory outside RAM is used up\n");
	outside_ram_used += size;
	return start;
}

void host_mm_init(void)
{
	memset(&boot_info, 0, sizeof(boot_info));
	boot_info.loader = "host";
	boot_info.ram[0].base = __pa(host_arena());
	boot_info.ram[0].size = host_arena_size;
	boot_info.nr_ram = 1;
	host_irqs_off = 0;
	host_cpu_id = 0;
	mm_init();
}
