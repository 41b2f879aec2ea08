/*
 * Built-in leak scenarios (CONFIG_MEMLEAK_TEST), shared by the
 * 'leaktest' command (mm/leaktest.c) and its self-tests.
 */
#ifndef MM_LEAKTEST_H
#define MM_LEAKTEST_H

#include <stddef.h>
#include <stdbool.h>

#define LEAKTEST_MAX_BLOCKS 64

/*
 * Addresses are kept XOR-ed with this mask: the expectation and cleanup
 * lists live in .bss, which the collector scans, and a plain copy of an
 * address there would keep the "leaked" block alive.
 */
#define LEAKTEST_MASK 0xa5a5a5a5UL

enum leaktest_kind { LT_KMALLOC, LT_CACHE, LT_VMALLOC };

struct leaktest_block {
	unsigned long masked;	/* address ^ LEAKTEST_MASK */
	size_t size;
	enum leaktest_kind kind;
	bool expected;		/* a scan must report it */
};

struct leaktest_scenario {
	const char *name;
	const char *help;
	void (*setup)(void);
	/* Undoes what setup put in globals; blocks are freed by the runner. */
	void (*unhook)(void);
	/* Runs between a first scan and the one that is checked. */
	void (*between_scans)(void);
};

extern const struct leaktest_scenario leaktest_scenarios[];
extern const unsigned int leaktest_nr_scenarios;

extern struct leaktest_block leaktest_blocks[LEAKTEST_MAX_BLOCKS];
extern unsigned int leaktest_nr_blocks;

static inline void *leaktest_addr(const struct leaktest_block *b)
{
	return (void *)(b->masked ^ LEAKTEST_MASK);
}

const struct leaktest_scenario *leaktest_find(const char *name);
/* The CPU whose per-CPU copy the "percpu" scenario uses: 1 when possible. */
unsigned int leaktest_percpu_cpu(void);
/* Runs setup and records the blocks; returns 0 or a negative error. */
int leaktest_setup(const struct leaktest_scenario *s);
/* Takes the pattern apart and frees every block it allocated. */
void leaktest_teardown(const struct leaktest_scenario *s);

#endif
