/*
 * Bitmaps as arrays of unsigned long, bit n in word n / BITS_PER_LONG.
 * Not atomic: callers hold whatever lock guards the bitmap.
 */
#ifndef KERNEL_BITOPS_H
#define KERNEL_BITOPS_H

#include <kernel/kernel.h>
#include <kernel/types.h>

#define BITS_PER_LONG (8 * sizeof(long))
#define BITS_TO_LONGS(n) DIV_ROUND_UP(n, BITS_PER_LONG)

static inline bool test_bit(unsigned long n, const unsigned long *map)
{
	return map[n / BITS_PER_LONG] & (1ul << (n % BITS_PER_LONG));
}

static inline void set_bit(unsigned long n, unsigned long *map)
{
	map[n / BITS_PER_LONG] |= 1ul << (n % BITS_PER_LONG);
}

static inline void clear_bit(unsigned long n, unsigned long *map)
{
	map[n / BITS_PER_LONG] &= ~(1ul << (n % BITS_PER_LONG));
}

#endif
