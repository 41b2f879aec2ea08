/*
 * What the host benchmarks of tests/bench/ share: their way of
 * failing (a row that says why, for tests/bench/run, and status 1) and
 * their random numbers (xorshift64*: the same heap on every run) and
 * the median of a few repetitions. Each program defines BENCH, its name
 * in the table, before including this.
 */
#ifndef TESTS_BENCH_BENCH_H
#define TESTS_BENCH_BENCH_H

#include <stdio.h>
#include <stdlib.h>

static inline void die(const char *what)
{
	printf("row\t%s\t%s\t-\t-\t-\t-\n", BENCH, what);
	exit(1);
}

static inline unsigned long next_rand(unsigned long *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717UL;
}

static inline int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of v[0..n) (n > 0), sorting v. */
static inline double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), compare_doubles);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
