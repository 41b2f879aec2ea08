/* Self-tests of what the boot loader passed: memory is sane and holds us. */
#include <kernel/ktest.h>
#include <kernel/bootinfo.h>

extern char __kernel_start[], __kernel_end[];

static void test_ram_holds_kernel(struct ktest *t)
{
	phys_addr_t start = (unsigned long)__kernel_start;
	phys_addr_t end = (unsigned long)__kernel_end;
	bool inside = false;

	for (int i = 0; i < boot_info.nr_ram; i++) {
		const struct mem_range *r = &boot_info.ram[i];

		if (r->base <= start && end <= r->base + r->size)
			inside = true;
	}
	KEXPECT(t, inside);
	KEXPECT(t, boot_ram_total() >= 16 * 1024 * 1024);
	KEXPECT(t, boot_info.loader != NULL);
}

static const struct ktest_case bootinfo_cases[] = {
	KTEST_CASE(test_ram_holds_kernel),
	{ 0 },
};
KTEST_SUITE("bootinfo", bootinfo_cases);
