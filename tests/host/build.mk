# Sources built into the host library (build/host/libkhost.a) and the
# host unit tests, one binary per tests/host/test_*.c. mm/ builds on the
# host through arch/host (pages from an mmap'd arena, no page tables);
# vmalloc needs real page tables and stays out.
HOST_LIB_SRCS := $(filter-out %_test.c,$(wildcard lib/*.c)) \
	$(wildcard arch/host/*.c) \
	$(filter-out %_test.c mm/vmalloc%.c mm/memleak%.c mm/leaktest%.c,\
		$(wildcard mm/*.c)) \
	kernel/lineedit.c kernel/shell.c $(wildcard kernel/kallsyms.c)
HOST_TEST_SRCS := $(wildcard tests/host/test_*.c)
