# fuzz_printf: the format parser of lib/printf.c, checked against libc's.
FUZZ_SRCS_fuzz_printf := lib/printf.c
FUZZ_SEEDS_fuzz_printf := tests/fuzz/corpus/printf/*
