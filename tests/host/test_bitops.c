/*
 * Host tests for <kernel/bitops.h>: set, clear and test one bit, and
 * find_next_bit() against a bit-by-bit search on random maps, from
 * every start, with map sizes that end inside a word.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kernel/bitops.h>

#define MAP_BITS (5 * BITS_PER_LONG)

static unsigned long slow_next_bit(const unsigned long *map,
				   unsigned long size, unsigned long n)
{
	for (; n < size; n++)
		if (test_bit(n, map))
			return n;
	return size;
}

static void test_set_clear(void **state)
{
	unsigned long map[BITS_TO_LONGS(MAP_BITS)] = { 0 };

	(void)state;
	set_bit(0, map);
	set_bit(BITS_PER_LONG - 1, map);
	set_bit(BITS_PER_LONG, map);
	assert_true(test_bit(0, map));
	assert_true(test_bit(BITS_PER_LONG - 1, map));
	assert_true(test_bit(BITS_PER_LONG, map));
	assert_false(test_bit(1, map));
	clear_bit(BITS_PER_LONG - 1, map);
	assert_false(test_bit(BITS_PER_LONG - 1, map));
	assert_int_equal(map[0], 1);
	assert_int_equal(map[1], 1);
}

/* Sparse and dense maps; every start; sizes inside and at word ends. */
static void test_find_next_bit(void **state)
{
	unsigned long map[BITS_TO_LONGS(MAP_BITS)];
	unsigned int seed = 11;

	(void)state;
	for (unsigned int round = 0; round < 200; round++) {
		unsigned int one_in = 1 + round % 70;
		unsigned long size = MAP_BITS - round % (2 * BITS_PER_LONG);

		for (unsigned int i = 0; i < BITS_TO_LONGS(MAP_BITS); i++)
			map[i] = 0;
		for (unsigned long n = 0; n < MAP_BITS; n++)
			if (rand_r(&seed) % one_in == 0)
				set_bit(n, map);
		for (unsigned long n = 0; n <= size; n++)
			assert_int_equal(find_next_bit(map, size, n),
					 slow_next_bit(map, size, n));
	}
}

/* No bit set, or none before the end: the size. */
static void test_find_next_bit_none(void **state)
{
	unsigned long map[BITS_TO_LONGS(MAP_BITS)] = { 0 };

	(void)state;
	assert_int_equal(find_next_bit(map, MAP_BITS, 0), MAP_BITS);
	set_bit(MAP_BITS - 1, map);
	assert_int_equal(find_next_bit(map, MAP_BITS - 1, 3), MAP_BITS - 1);
	assert_int_equal(find_next_bit(map, MAP_BITS, 3), MAP_BITS - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_clear),
		cmocka_unit_test(test_find_next_bit),
		cmocka_unit_test(test_find_next_bit_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
