/*
 * modtest_user.ko: uses modtest.ko's exports, so that modtest is "in
 * use" while this is loaded, and so that loading it alone fails on an
 * undefined symbol (tests/boot/modules.t).
 */
#include <kernel/module.h>
#include <kernel/printk.h>

int modtest_add(int a, int b);
extern unsigned int modtest_calls;

static int __init modtest_user_init(void)
{
	int sum = modtest_add(40, 2);

	printk("modtest_user: modtest_add(40, 2) = %d, %u calls so far\n", sum,
	       modtest_calls);
	return sum == 42 ? 0 : -1;
}
module_init(modtest_user_init);

static void __exit modtest_user_exit(void)
{
	printk("modtest_user: exit\n");
}
module_exit(modtest_user_exit);

MODULE_DESCRIPTION("uses modtest's exports: modtest is in use while it is loaded");
