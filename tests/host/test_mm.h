/*
 * Helpers shared by the host tests of mm/: a fresh allocator per test,
 * free pages counted with every CPU's caches drained, checks of what
 * the allocator reported, a seeded random generator, and every free
 * page taken (out of memory).
 */
#ifndef TEST_MM_H
#define TEST_MM_H

#include <kernel/mm.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/smp.h>
#include <asm/host.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

static inline int mm_setup(void **state)
{
	(void)state;
	host_mm_init();
	host_log_clear();
	return 0;
}

/*
 * The xv6 "countfree" idea: free pages once every CPU's arrays are
 * drained and every empty slab is given back.
 */
static inline unsigned long settled_free_pages(void)
{
	unsigned int cpu = host_cpu_id;

	for (host_cpu_id = 0; host_cpu_id < NR_CPUS; host_cpu_id++)
		slab_shrink_all();
	host_cpu_id = cpu;
	return nr_free_pages();
}

static inline bool log_has(const char *text)
{
	return strstr(host_log(), text) != NULL;
}

/*
 * Asserts that exactly one report was made since `before` (an
 * mm_errors() value) and that the log holds `text`; clears the log.
 */
static inline void expect_report(unsigned long before, const char *text)
{
	if (!log_has(text))
		fail_msg("no report with \"%s\"; log:\n%s", text, host_log());
	assert_int_equal(mm_errors(), before + 1);
	host_log_clear();
}

static inline void expect_no_report(unsigned long before)
{
	if (mm_errors() != before)
		fail_msg("unexpected report; log:\n%s", host_log());
}

/* xorshift64*: the same sequence on every run. */
static inline uint64_t test_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* A byte pattern that tells blocks (by id) and offsets apart. */
static inline unsigned char pattern_byte(unsigned long id, size_t i)
{
	return (unsigned char)(id * 131 + i * 7 + (i >> 8));
}

static inline void fill_pattern(void *p, size_t len, unsigned long id)
{
	unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		b[i] = pattern_byte(id, i);
}

static inline bool check_pattern(const void *p, size_t len, unsigned long id)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < len; i++)
		if (b[i] != pattern_byte(id, i))
			return false;
	return true;
}

/*
 * Every free page of the allocator taken (out of memory for whatever
 * comes next), and given back; the hoard is calloc'd by the test.
 */
struct hoard {
	struct page *page[4096];
	unsigned int order[4096], nr;
};

static inline void take_all_pages(struct hoard *h)
{
	for (int order = MAX_ORDER - 1; order >= 0; order--) {
		struct page *page;

		while (h->nr < ARRAY_SIZE(h->page) &&
		       (page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order))) {
			h->page[h->nr] = page;
			h->order[h->nr++] = order;
		}
	}
}

static inline void give_back_pages(struct hoard *h)
{
	while (h->nr--)
		__free_pages(h->page[h->nr], h->order[h->nr]);
}

#endif
