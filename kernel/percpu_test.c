/*
 * Self-tests of per-CPU variables: one copy per possible CPU, apart from
 * each other and from the template, each starting from the template's
 * initial value; per-CPU counters bumped on every CPU and summed; and
 * the leak collector's root that covers every copy.
 */
#include <kernel/ktest.h>
#include <kernel/memleak.h>
#include <kernel/percpu.h>
#include <kernel/string.h>

#define PCP_INITIAL 0x5eed
#define BUMPS 25

static DEFINE_PER_CPU(unsigned long, pcp_hits);
static DEFINE_PER_CPU(int, pcp_initialised) = PCP_INITIAL;
static DEFINE_PER_CPU(char, pcp_byte);

static bool inside(const void *p, size_t size, const void *start,
		   const void *end)
{
	return (const char *)p >= (const char *)start &&
	       (const char *)p + size <= (const char *)end;
}

static void test_copies_apart(struct ktest *t)
{
	size_t size = __per_cpu_end - __per_cpu_start;
	const void *start, *end, *start2, *end2;
	unsigned int cpu, other;

	KEXPECT(t, size > 0);
	KEXPECT(t, inside(&pcp_hits, sizeof(pcp_hits), __per_cpu_start,
			  __per_cpu_end));
	KEXPECT(t, !per_cpu_area(NR_CPUS, &start, &end));
	for_each_possible_cpu(cpu) {
		KEXPECT(t, per_cpu_area(cpu, &start, &end));
		KEXPECT_EQ(t, (const char *)end - (const char *)start, size);
		/* Nobody uses the template once the copies exist. */
		KEXPECT(t, start != (const void *)__per_cpu_start);
		KEXPECT(t, inside(per_cpu_ptr(&pcp_hits, cpu), sizeof(long),
				  start, end));
		KEXPECT(t, inside(per_cpu_ptr(&pcp_byte, cpu), 1, start, end));
		for_each_possible_cpu(other) {
			if (other == cpu)
				continue;
			KEXPECT(t, per_cpu_area(other, &start2, &end2));
			KEXPECT(t, end2 <= start || start2 >= end);
		}
	}
}

/* The template's initial value reached every copy. */
static void test_initial_values(struct ktest *t)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		KEXPECT_EQ(t, per_cpu(pcp_initialised, cpu), PCP_INITIAL);
}

struct bump_ctx {
	int wrong;	/* this_cpu_ptr() was not this CPU's copy */
};

static void bump(void *info)
{
	struct bump_ctx *c = info;
	unsigned long *mine = this_cpu_ptr(&pcp_hits);

	if (mine != per_cpu_ptr(&pcp_hits, smp_processor_id()))
		__atomic_add_fetch(&c->wrong, 1, __ATOMIC_SEQ_CST);
	(*mine)++;
}

/* Each CPU counts in its own copy, without atomics; the sum adds up. */
static void test_counters_summed(struct ktest *t)
{
	unsigned long before[NR_CPUS] = { 0 }, sum = 0;
	struct bump_ctx c = { 0 };
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		before[cpu] = per_cpu(pcp_hits, cpu);
	for (int i = 0; i < BUMPS; i++)
		on_each_cpu(bump, &c, true);
	for_each_possible_cpu(cpu) {
		unsigned long mine = per_cpu(pcp_hits, cpu) - before[cpu];

		KEXPECT_EQ(t, mine, cpu_online(cpu) ? BUMPS : 0);
		sum += mine;
	}
	KEXPECT_EQ(t, sum, num_online_cpus() * BUMPS);
	KEXPECT_EQ(t, c.wrong, 0);
}

/* The collector scans every copy (mm/kmemleak/scan.c). */
static void test_collector_root(struct ktest *t)
{
#ifdef CONFIG_DEBUG_MEMLEAK
	const struct memleak_root *root;
	int found = 0;

	for (root = __start_memleak_roots; root < __stop_memleak_roots; root++)
		found += strcmp(root->name, "per-cpu areas") == 0;
	KEXPECT_EQ(t, found, 1);
#else
	(void)t;
#endif
}

static const struct ktest_case percpu_cases[] = {
	KTEST_CASE(test_copies_apart),
	KTEST_CASE(test_initial_values),
	KTEST_CASE(test_counters_summed),
	KTEST_CASE(test_collector_root),
	{ 0 },
};
KTEST_SUITE("percpu", percpu_cases);
