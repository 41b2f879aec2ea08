/* Runs the initcalls that files register with *_initcall(), level by level. */
#include <kernel/initcall.h>
#include <kernel/printk.h>

extern const struct initcall __initcall_start[], __initcall1_start[],
	__initcall2_start[], __initcall3_start[], __initcall4_start[],
	__initcall_end[];

static const struct initcall *const level_bounds[] = {
	__initcall_start, __initcall1_start, __initcall2_start,
	__initcall3_start, __initcall4_start, __initcall_end,
};

void do_initcalls(int level)
{
	const struct initcall *call;

	for (call = level_bounds[level]; call < level_bounds[level + 1]; call++) {
		int err = call->fn();

		if (err)
			printk("initcall %s failed: error %d\n", call->name, err);
	}
}
