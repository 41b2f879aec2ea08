/* Helpers every kernel file uses: sizes, alignment, container_of. */
#ifndef KERNEL_KERNEL_H
#define KERNEL_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <kernel/compiler.h>
#include <kernel/memleak.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Round x up/down to a multiple of a, which must be a power of two. */
#define ALIGN(x, a) (((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))

#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)

/*
 * The structure that embeds *ptr as its member. Each use also tells the
 * leak collector that blocks of sizeof(type) may be reached through a
 * pointer to that member (an "alias"), see <kernel/memleak.h>.
 */
#define __container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#define container_of(ptr, type, member)                 \
	({                                              \
		DECLARE_MEMLEAK_OFFSET(type, member);   \
		__container_of(ptr, type, member);      \
	})

#endif
