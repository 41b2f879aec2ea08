# Sources built into the host library (build/host/libkhost.a) and the
# host unit tests, one binary per tests/host/test_*.c. mm/ builds on the
# host through arch/host (pages from an mmap'd arena, no page tables);
# vmalloc and the page-table walker (mm/pgtable.c) need real page
# tables and stay out.
#
# The leak collector's core (HOST_MEMLEAK_SRCS) builds too, configured
# in by -DHOST_MEMLEAK (asm/host-config.h) for its own objects and the
# programs that use it (HOST_MEMLEAK_USERS), which also link with
# arch/host/memleak.ld. Its kernel roots, its scan thread and the
# leaktest scenarios need the kernel image and threads: they stay out.
HOST_MEMLEAK_SRCS := $(filter-out %_test.c %_mod.c mm/kmemleak/roots.c \
	mm/kmemleak/thread.c,$(wildcard mm/kmemleak/*.c)) \
	arch/host/memleak.c
HOST_MEMLEAK_USERS := $(wildcard tests/host/test_memleak*.c) \
	tests/bench/memleak_scan.c tests/bench/memleak_typed.c \
	tests/bench/peers/ours.c
HOST_LIB_SRCS := $(filter-out %_test.c,$(wildcard lib/*.c)) \
	$(filter-out arch/host/memleak.c,$(wildcard arch/host/*.c)) \
	$(filter-out %_test.c mm/vmalloc%.c mm/pgtable.c mm/leaktest%.c \
		mm/written_untracked.c,\
		$(wildcard mm/*.c)) \
	$(HOST_MEMLEAK_SRCS) \
	kernel/lineedit.c kernel/shell.c kernel/printk.c \
	$(wildcard kernel/kallsyms.c) \
	arch/i386/multiboot_info.c
HOST_TEST_SRCS := $(wildcard tests/host/test_*.c)

# The Multiboot reader is i386 code; it and its test find <asm/multiboot.h>
# there (arch/host/include, first on the path, has no such file).
$(patsubst %.c,\%/%.o,arch/i386/multiboot_info.c tests/host/test_multiboot.c): \
	HOST_CFLAGS += -Iarch/i386/include
$(patsubst %.c,\%/%.o,arch/i386/multiboot_info.c): \
	BENCH_CFLAGS += -Iarch/i386/include

# Pattern-specific, so that both the test build and the bench build
# (whatever their directories) get the flag.
$(patsubst %.c,\%/%.o,$(HOST_MEMLEAK_SRCS) $(HOST_MEMLEAK_USERS)): \
	HOST_CFLAGS += -DHOST_MEMLEAK
$(patsubst %.c,\%/%.o,$(HOST_MEMLEAK_SRCS) $(HOST_MEMLEAK_USERS)): \
	BENCH_CFLAGS += -DHOST_MEMLEAK
# The collector's objects are linked whole, not picked from the archive:
# its 'memleak' subcommands register through a linker section, which
# nothing references by name. $(1) is the build directory.
host_memleak_ldflags = -Wl,-T,arch/host/memleak.ld \
	$(patsubst %.c,$(1)/%.o,$(HOST_MEMLEAK_SRCS))
$(patsubst tests/host/%.c,\%/tests/%,$(filter tests/host/%,$(HOST_MEMLEAK_USERS))): \
	HOST_LDFLAGS += $(call host_memleak_ldflags,$(HOST_BUILD))
$(patsubst tests/bench/%.c,\%/bench/%,$(filter tests/bench/%,$(HOST_MEMLEAK_USERS))): \
	BENCH_LDFLAGS += $(call host_memleak_ldflags,$(BENCH_BUILD))

# The checksum table's test sees every page taken and given back, as
# it goes (tests/host/test_memleak_checksums.c).
$(HOST_BUILD)/tests/test_memleak_checksums: HOST_LDFLAGS += \
	-Wl,--wrap=alloc_pages -Wl,--wrap=__free_pages
# These tests refuse the collector's own allocations for a while
# (MEMLEAK_TEST_FAIL_ATOMIC in tests/host/test_memleak.h).
$(HOST_BUILD)/tests/test_memleak_explain \
$(HOST_BUILD)/tests/test_memleak_graph \
$(HOST_BUILD)/tests/test_memleak_oom: HOST_LDFLAGS += \
	-Wl,--wrap=kmem_cache_alloc
