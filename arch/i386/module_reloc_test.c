/* Self-tests of the i386 module relocations on words in a buffer. */
#include <kernel/kernel.h>
#include <kernel/errno.h>
#include <kernel/ktest.h>
#include <kernel/module.h>

static u8 buf[16];

static int reloc(u32 type, unsigned int off, u32 word, u32 sym)
{
	module_put32(buf + off, word);
	return module_relocate_in_place(type, buf + off, sym, 0, NULL);
}

static u32 at(unsigned int off)
{
	return (u32)(uintptr_t)(buf + off);
}

static void test_absolute(struct ktest *t)
{
	KEXPECT_EQ(t, reloc(1, 0, 8, 0x1000), 0);	/* R_386_32 */
	KEXPECT_EQ(t, module_get32(buf), 0x1008);
	/* Packed data: a word at an odd offset. */
	KEXPECT_EQ(t, reloc(1, 3, 0, 0xdeadbeef), 0);
	KEXPECT_EQ(t, module_get32(buf + 3), 0xdeadbeef);
}

static void test_pc_relative(struct ktest *t)
{
	/* call sym: the word holds -4, the distance from its own end. */
	KEXPECT_EQ(t, reloc(2, 0, (u32)-4, at(0) + 0x100), 0);	/* PC32 */
	KEXPECT_EQ(t, module_get32(buf), 0xfc);
	KEXPECT_EQ(t, reloc(4, 4, (u32)-4, at(4) - 0x100), 0);	/* PLT32 */
	KEXPECT_EQ(t, module_get32(buf + 4), (u32)-0x104);
	KEXPECT_EQ(t, module_relocate_in_place(2, buf + 8, at(8), 6, NULL),
		   0);	/* RELA-style addend */
	KEXPECT_EQ(t, module_get32(buf + 8), (u32)-0x104 + 0x104 + 6);
}

static void test_refused(struct ktest *t)
{
	KEXPECT_EQ(t, reloc(0, 0, 0x55, 0x1000), 0);	/* NONE */
	KEXPECT_EQ(t, module_get32(buf), 0x55);
	KEXPECT_EQ(t, reloc(254, 0, 0, 0x1000), -ENOENT);
}

static const struct ktest_case module_reloc_cases[] = {
	KTEST_CASE(test_absolute),
	KTEST_CASE(test_pc_relative),
	KTEST_CASE(test_refused),
	{ NULL, NULL },
};
KTEST_SUITE("module_reloc", module_reloc_cases);
