# Sources built into the host library (build/host/libkhost.a) and the
# host unit tests, one binary per tests/host/test_*.c.
HOST_LIB_SRCS := $(filter-out %_test.c,$(wildcard lib/*.c)) $(wildcard arch/host/*.c) \
	kernel/lineedit.c kernel/shell.c
HOST_TEST_SRCS := $(wildcard tests/host/test_*.c)
