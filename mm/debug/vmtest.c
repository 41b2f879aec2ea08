/*
 * The 'vmtest' debug command (CONFIG_DEBUG_VMTEST): allocates, frees,
 * walks and times vmalloc areas by hand, and takes the guard-page and
 * NULL faults on purpose for the boot tests (tests/boot/vmalloc.t). It
 * uses only the public <kernel/vmalloc.h> and <kernel/mmu.h>, whose
 * functions take their own locks.
 */
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/shell.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/vmalloc.h>
#include <kernel/mmu.h>

#define VMTEST_USAGE \
	"guard|null|nullcall|alloc SIZE|free ADDR|walk ADDR|bench PAGES"

/* Read through a volatile so the compiler cannot see the NULL coming. */
static void *volatile vmtest_null;

/* Writes one byte past the end of a fresh two-page area. */
static int vmtest_guard(void)
{
	const unsigned long size = 2 * PAGE_SIZE;
	volatile char *p = vmalloc(size);

	if (!p) {
		printk("vmtest: vmalloc(%lu) failed\n", size);
		return 1;
	}
	memset((char *)p, 0x5a, size);
	printk("vmtest: writing 1 byte past the %lu-byte area at %p\n", size,
	       (void *)p);
	p[size] = 1;
	printk("vmtest: no fault: the guard page at %p is mapped!\n",
	       (void *)&p[size]);
	vfree((void *)p);
	return 1;
}

static int vmtest_null_read(void)
{
	printk("vmtest: reading through a NULL pointer\n");
	printk("vmtest: read %d: address 0 is mapped!\n",
	       *(volatile int *)vmtest_null);
	return 1;
}

static int vmtest_null_call(void)
{
	void (*fn)(void) = (void (*)(void))vmtest_null;

	printk("vmtest: calling a NULL function pointer\n");
	fn();
	printk("vmtest: returned from address 0: it is mapped!\n");
	return 1;
}

static int parse_addr(const char *s, unsigned long *v)
{
	if (kstrtoul(s, 0, v) == 0)
		return 0;
	printk("vmtest: '%s' is not a number\n", s);
	return -1;
}

static int vmtest_alloc(const char *arg)
{
	unsigned long size;
	void *p;

	if (parse_addr(arg, &size))
		return 1;
	p = vmalloc(size);
	printk("vmtest: vmalloc(%lu) = %p\n", size, p);
	return p ? 0 : 1;
}

static int vmtest_free(const char *arg)
{
	unsigned long addr;

	if (parse_addr(arg, &addr))
		return 1;
	vfree((void *)addr);
	return 0;
}

static int vmtest_walk(const char *arg)
{
	unsigned long addr;
	phys_addr_t phys;

	if (parse_addr(arg, &addr))
		return 1;
	phys = virt_to_phys_walk(addr);
	if (phys == PHYS_ADDR_INVALID)
		printk("vmtest: 0x%08lx is not mapped\n", addr);
	else
		printk("vmtest: 0x%08lx -> physical 0x%08llx\n", addr, phys);
	return 0;
}

#define BENCH_ROUNDS 64

/* Times vmalloc + one write per page + vfree of an area of npages. */
static int vmtest_bench(const char *arg)
{
	unsigned long npages;
	u64 start, ns;

	if (parse_addr(arg, &npages))
		return 1;
	if (npages == 0) {
		printk("vmtest: bench needs at least one page\n");
		return 1;
	}
	start = ktime_get_ns();
	for (int i = 0; i < BENCH_ROUNDS; i++) {
		char *p = vmalloc(npages * PAGE_SIZE);

		if (!p)
			return 1;
		for (unsigned long j = 0; j < npages; j++)
			p[j * PAGE_SIZE] = 1;
		vfree(p);
	}
	ns = (ktime_get_ns() - start) / BENCH_ROUNDS;
	if (start == 0) {
		printk("vmtest: no clock yet\n");
		return 1;
	}
	printk("vmtest: vmalloc+touch+vfree of %lu pages: %llu ns "
	       "(%llu ns per page), mean of %d\n", npages, ns,
	       ns / npages, BENCH_ROUNDS);
	return 0;
}

static int cmd_vmtest(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "guard") == 0)
		return vmtest_guard();
	if (argc == 2 && strcmp(argv[1], "null") == 0)
		return vmtest_null_read();
	if (argc == 2 && strcmp(argv[1], "nullcall") == 0)
		return vmtest_null_call();
	if (argc == 3 && strcmp(argv[1], "alloc") == 0)
		return vmtest_alloc(argv[2]);
	if (argc == 3 && strcmp(argv[1], "free") == 0)
		return vmtest_free(argv[2]);
	if (argc == 3 && strcmp(argv[1], "walk") == 0)
		return vmtest_walk(argv[2]);
	if (argc == 3 && strcmp(argv[1], "bench") == 0)
		return vmtest_bench(argv[2]);
	printk("usage: vmtest " VMTEST_USAGE "\n");
	return 1;
}
SHELL_COMMAND("vmtest", cmd_vmtest, "vmtest " VMTEST_USAGE,
	      "vmalloc by hand; guard, null, nullcall fault on purpose");
