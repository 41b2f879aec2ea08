/* Integer limits from the compiler's own macros (no libc limits.h here). */
#ifndef KERNEL_LIMITS_H
#define KERNEL_LIMITS_H

#ifndef INT_MAX
#define CHAR_BIT __CHAR_BIT__
#define INT_MAX __INT_MAX__
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX (INT_MAX * 2U + 1U)
#define LONG_MAX __LONG_MAX__
#define LONG_MIN (-LONG_MAX - 1L)
#define ULONG_MAX (LONG_MAX * 2UL + 1UL)
#define LLONG_MAX __LONG_LONG_MAX__
#define LLONG_MIN (-LLONG_MAX - 1LL)
#define ULLONG_MAX (LLONG_MAX * 2ULL + 1ULL)
#endif
#ifndef SIZE_MAX
#define SIZE_MAX __SIZE_MAX__
#endif

#endif
