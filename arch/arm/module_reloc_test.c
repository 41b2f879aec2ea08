/*
 * Self-tests of the ARM module relocations on instruction words in a
 * buffer: each type's encoding, branches in and out of reach (veneers:
 * made once per target, refused when the space is full or out of reach
 * too), Thumb targets and unknown types refused.
 */
#include <kernel/kernel.h>
#include <kernel/errno.h>
#include <kernel/ktest.h>
#include <kernel/mm.h>
#include <kernel/module.h>

#define BL_MINUS_8	0xebfffffeu	/* bl . (addend -8) */
#define B_MINUS_8	0xeafffffeu	/* b . */
#define MOVW_R0_0	0xe3000000u
#define MOVT_R0_0	0xe3400000u

static u32 words[8] __aligned(8);
static u8 veneers[16] __aligned(8);
#define VENEER_SPACE \
	{ veneers, (u32)(uintptr_t)veneers, sizeof(veneers), 0 }

static int reloc(u32 type, unsigned int i, u32 insn, u32 sym,
		 struct module_arch_space *extra)
{
	module_put32((u8 *)&words[i], insn);
	return module_relocate_in_place(type, (u8 *)&words[i], sym, 0,
				    extra);
}

static u32 at(unsigned int i)
{
	return (u32)(uintptr_t)&words[i];
}

static void test_data_words(struct ktest *t)
{
	KEXPECT_EQ(t, reloc(2, 0, 4, 0x1000, NULL), 0);		/* ABS32 */
	KEXPECT_EQ(t, words[0], 0x1004);
	KEXPECT_EQ(t, reloc(3, 1, 0, at(1) + 0x40, NULL), 0);	/* REL32 */
	KEXPECT_EQ(t, words[1], 0x40);
	KEXPECT_EQ(t, reloc(0, 2, 0x1234, 0x5678, NULL), 0);	/* NONE */
	KEXPECT_EQ(t, words[2], 0x1234);
}

static void test_movw_movt(struct ktest *t)
{
	KEXPECT_EQ(t, reloc(43, 0, MOVW_R0_0, 0x12345678, NULL), 0);
	KEXPECT_EQ(t, words[0], 0xe3050678);
	KEXPECT_EQ(t, reloc(44, 1, MOVT_R0_0, 0x12345678, NULL), 0);
	KEXPECT_EQ(t, words[1], 0xe3410234);
	/* In-place addend 4: movw/movt of sym + 4, carrying into the top. */
	KEXPECT_EQ(t, reloc(44, 2, MOVT_R0_0 | 4, 0x1234fffe, NULL), 0);
	KEXPECT_EQ(t, words[2], 0xe3410235);
}

static void test_branch_in_reach(struct ktest *t)
{
	struct module_arch_space extra = VENEER_SPACE;

	KEXPECT_EQ(t, reloc(28, 0, BL_MINUS_8, at(0) + 0x100, &extra), 0);
	KEXPECT_EQ(t, words[0], 0xeb00003e);
	KEXPECT_EQ(t, reloc(29, 1, B_MINUS_8, at(1) - 0x1000, &extra), 0);
	KEXPECT_EQ(t, words[1], 0xeafffbfe);
	KEXPECT_EQ(t, extra.used, 0);
}

static void test_branch_veneers(struct ktest *t)
{
	struct module_arch_space extra = VENEER_SPACE;
	u32 far = at(0) + 0x4000000, v = (u32)(uintptr_t)veneers;

	KEXPECT_EQ(t, reloc(28, 0, BL_MINUS_8, far, &extra), 0);
	KEXPECT_EQ(t, extra.used, 8);
	/* ldr pc, [pc, #-4], then the target */
	KEXPECT_EQ(t, module_get32(veneers), 0xe51ff004);
	KEXPECT_EQ(t, module_get32(veneers + 4), far);
	KEXPECT_EQ(t, words[0], 0xeb000000 | ((v - at(0) - 8) >> 2 & 0xffffff));
	/* The same target again: the same veneer. */
	KEXPECT_EQ(t, reloc(29, 1, B_MINUS_8, far, &extra), 0);
	KEXPECT_EQ(t, extra.used, 8);
	KEXPECT_EQ(t, words[1], 0xea000000 | ((v - at(1) - 8) >> 2 & 0xffffff));
	KEXPECT_EQ(t, reloc(28, 2, BL_MINUS_8, at(2) - 0x4000000, &extra), 0);
	KEXPECT_EQ(t, extra.used, 16);
	/* Full: refused. */
	KEXPECT_EQ(t, reloc(28, 3, BL_MINUS_8, far + 8, &extra), -ENOEXEC);
}

/*
 * A branch in a page far from both its target and the veneer space (an
 * init area far from the core): refused, never patched with a wrapped
 * offset.
 */
static bool far_from_veneers(const u8 *p)
{
	s32 apart = (s32)((u32)(uintptr_t)p - (u32)(uintptr_t)veneers);

	return apart >= 0x2000000 || apart < -0x2000000;
}

#define FAR_TRIES 64

static void test_veneer_out_of_reach(struct ktest *t)
{
	struct module_arch_space extra = VENEER_SPACE;
	unsigned long pages[FAR_TRIES] = { 0 };
	u8 *page = NULL;
	int n;

	/* Pages near the image (freed __init ones) come first: pass them. */
	for (n = 0; n < FAR_TRIES && !page; n++) {
		pages[n] = get_free_page(GFP_KERNEL);
		if (pages[n] && far_from_veneers((u8 *)pages[n]))
			page = (u8 *)pages[n];
	}
	KEXPECT(t, page != NULL);
	if (page) {
		module_put32(page, BL_MINUS_8);
		KEXPECT_EQ(t, module_relocate_in_place(28, page, at(0), 0,
						   &extra), -ENOEXEC);
		KEXPECT_EQ(t, module_get32(page), BL_MINUS_8);
	}
	while (n--)
		if (pages[n])
			free_page(pages[n]);
}

static void test_refused(struct ktest *t)
{
	struct module_arch_space extra = VENEER_SPACE;

	KEXPECT_EQ(t, reloc(28, 0, BL_MINUS_8, at(0) + 0x101, &extra),
		   -ENOEXEC);	/* Thumb */
	KEXPECT_EQ(t, reloc(254, 1, 0, 0x1000, &extra), -ENOENT);
	KEXPECT_EQ(t, module_relocate_in_place(2, (u8 *)&words[2], 0, 4,
					   &extra), -ENOEXEC);	/* RELA */
}

static const struct ktest_case module_reloc_cases[] = {
	KTEST_CASE(test_data_words),
	KTEST_CASE(test_movw_movt),
	KTEST_CASE(test_branch_in_reach),
	KTEST_CASE(test_branch_veneers),
	KTEST_CASE(test_veneer_out_of_reach),
	KTEST_CASE(test_refused),
	{ NULL, NULL },
};
KTEST_SUITE("module_reloc", module_reloc_cases);
