/*
 * In-kernel self-tests printed as KTAP. A suite registers itself with
 * KTEST_SUITE() from the file it tests; 'selftest' runs every suite.
 */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include <kernel/compiler.h>
#include <stdbool.h>

struct ktest {
	int failures;	/* expectations failed in the running case */
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases;	/* ends with a zeroed entry */
};

#define KTEST_CASE(fn) { #fn, fn }

#define KTEST_SUITE(suite_name, case_array)                              \
	static const struct ktest_suite __ktest_suite_##case_array __used \
		__section("ktest_suites") __aligned(sizeof(void *)) = {    \
			.name = suite_name,                               \
			.cases = case_array,                              \
		}

extern const struct ktest_suite __start_ktest_suites[];
extern const struct ktest_suite __stop_ktest_suites[];

void ktest_fail(struct ktest *t, const char *file, int line,
		const char *fmt, ...) __printf(4, 5);

#define KEXPECT(t, cond)                                                  \
	do {                                                              \
		if (!(cond))                                              \
			ktest_fail(t, __FILE__, __LINE__, "%s", #cond);   \
	} while (0)

#define KEXPECT_EQ(t, a, b)                                               \
	do {                                                              \
		long long __a = (long long)(a), __b = (long long)(b);     \
		if (__a != __b)                                           \
			ktest_fail(t, __FILE__, __LINE__,                 \
				   "%s == %s (%lld != %lld)", #a, #b,     \
				   __a, __b);                             \
	} while (0)

/*
 * The value of a suite parameter given to the 'selftest' command
 * ('selftest memleak_stress ops=100000'), or def when it was not given.
 */
unsigned long ktest_param(const char *name, unsigned long def);

/* Runs the suites whose name matches filter (NULL: all); returns failures. */
int ktest_run(const char *filter);

#endif
