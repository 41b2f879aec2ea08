/*
 * modtest.ko: the loader's own test module (tests/boot/modules.t), and
 * the sample of a module with parameters and exports. Its init checks
 * that every kind of relocation our compilers emit was applied (calls
 * into the kernel and across sections, absolute and PC-relative words,
 * MOVW/MOVT pairs, and on ARM a B and a BL that need a veneer to reach
 * the kernel), prints its parameters, and returns init_error so that a
 * failing init can be tested. It exports modtest_add() for
 * modtest_user.ko, which makes it "in use". No locking: the loader runs
 * init and exit one module at a time.
 */
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/module.h>
#include <kernel/printk.h>
#include <kernel/string.h>

static int init_error;
static unsigned int count = 1;
static bool verbose;
static char *greeting = "hello";
module_param(init_error, int);
module_param(count, uint);
module_param(verbose, bool);
module_param(greeting, charp);

/* How often modtest_add() was called, by anyone. */
unsigned int modtest_calls;

int modtest_add(int a, int b)
{
	modtest_calls++;
	return a + b;
}
EXPORT_SYMBOL(modtest_add);
EXPORT_SYMBOL(modtest_calls);

/* Called through a pointer in .data: an absolute word relocation. */
static int twice(int x)
{
	return 2 * x;
}

static int (*const volatile fn_table[])(int) = { twice };

/*
 * Hand-written branches and words, for relocations C code does not
 * make here: a tail branch to a kernel function, out of a BL's reach on
 * ARM (R_ARM_JUMP24; i386: R_386_PLT32), and a PC-relative word
 * (R_ARM_REL32, R_386_PC32 in data). The one instruction that differs
 * comes from the arch (ARCH_ASM_TAIL_CALL, <kernel/arch.h>), so this
 * sample stays generic; '%function', .4byte and .balign mean the same
 * to the assembler of both arches.
 */
size_t modtest_tail_strlen(const char *s);
extern const s32 modtest_rel_word;
__asm__(".text\n"
	".global modtest_tail_strlen\n"
	".type modtest_tail_strlen, %function\n"
	"modtest_tail_strlen:\n"
	"	" ARCH_ASM_TAIL_CALL("strlen") "\n"
	".size modtest_tail_strlen, . - modtest_tail_strlen\n"
	".section .rodata\n"
	".global modtest_rel_word\n"
	".balign 4\n"
	"modtest_rel_word:\n"
	"	.4byte twice - .\n"
	".text\n");

/* One line per check; returns how many failed. */
static int __init check(const char *what, bool ok)
{
	if (verbose || !ok)
		printk("modtest: %-28s %s\n", what, ok ? "ok" : "FAILED");
	return !ok;
}

static int __init modtest_init(void)
{
	unsigned int *volatile calls = &modtest_calls;
	char buf[16];
	int failed = 0;

	failed += check("call into the kernel", snprintf(buf, sizeof(buf),
							 "%d", 42) == 2 &&
						  !strcmp(buf, "42"));
	failed += check("call across sections", modtest_add(2, 3) == 5);
	failed += check("absolute word", fn_table[0](21) == 42);
	failed += check("address of a global", *calls == 1);
	failed += check("pc-relative word",
			(uintptr_t)&modtest_rel_word + modtest_rel_word ==
				(uintptr_t)twice);
	failed += check("tail branch into the kernel",
			modtest_tail_strlen("four") == 4);
	if (failed) {
		printk("modtest: %d relocation checks failed\n", failed);
		return -EINVAL;
	}
	printk("modtest: relocations ok; count=%u verbose=%d greeting=%s\n",
	       count, verbose, greeting);
	if (init_error)
		printk("modtest: init returns %d as asked\n", init_error);
	return init_error;
}
module_init(modtest_init);

static void __exit modtest_exit(void)
{
	printk("modtest: exit after %u calls of modtest_add\n", modtest_calls);
}
module_exit(modtest_exit);

MODULE_DESCRIPTION("the loader's test module: relocations, parameters, exports");
