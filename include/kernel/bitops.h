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

/*
 * The first set bit at or after n in a map of size bits, or size when
 * there is none: a word at a time over the clear ones.
 */
static inline unsigned long find_next_bit(const unsigned long *map,
					  unsigned long size, unsigned long n)
{
	while (n < size) {
		unsigned long word = map[n / BITS_PER_LONG] >> (n % BITS_PER_LONG);

		if (word)
			return min(size, n + (unsigned long)__builtin_ctzl(word));
		n = (n / BITS_PER_LONG + 1) * BITS_PER_LONG;
	}
	return size;
}

#endif
