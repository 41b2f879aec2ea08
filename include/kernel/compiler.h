/* Compiler attributes and small helpers shared by every file of the kernel. */
#ifndef KERNEL_COMPILER_H
#define KERNEL_COMPILER_H

#define __section(s) __attribute__((section(s)))
#define __used __attribute__((used))
#define __noreturn __attribute__((noreturn))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __aligned(x) __attribute__((aligned(x)))
#define __packed __attribute__((packed))
#define __weak __attribute__((weak))
#define __maybe_unused __attribute__((unused))
#define __noinline __attribute__((noinline))
/*
 * Neither inlined nor cloned (no "fn.constprop.0" copies): the function
 * keeps its name in every backtrace through it.
 */
#define __noipa __attribute__((noipa))
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Stops the compiler from moving memory accesses across this point. */
#define barrier() __asm__ __volatile__("" ::: "memory")
/*
 * Makes var opaque to the optimiser from here on: it can no longer
 * recompute the value from what it was made of, and keeps it instead.
 */
#define OPTIMIZER_HIDE_VAR(var) __asm__("" : "+r"(var))

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

/*
 * Code and data only needed during boot. Without CONFIG_DEBUG_KEEP_INIT
 * the pages holding them are given back to the page allocator.
 */
#define __init __section(".init.text") __noinline
#define __initdata __section(".init.data")

#define __stringify_1(x) #x
#define __stringify(x) __stringify_1(x)
#define __concat_1(a, b) a##b
#define __concat(a, b) __concat_1(a, b)

/*
 * IS_ENABLED(CONFIG_FOO): 1 when CONFIG_FOO is defined as 1 (a "y"
 * option in autoconf.h), else 0, usable in C expressions so that both
 * branches are always compiled.
 */
#define __is_enabled_probe_1 ,
#define __is_enabled_second(a, b, ...) b
#define __is_enabled_expand(...) __is_enabled_second(__VA_ARGS__)
#define __is_enabled_pick(probe) __is_enabled_expand(probe 1, 0)
#define __is_enabled(value) __is_enabled_pick(__is_enabled_probe_##value)
#define IS_ENABLED(option) __is_enabled(option)

#endif
