# fuzz_lineedit: kernel/lineedit.c, its state and its echo checked after each byte.
FUZZ_SRCS_fuzz_lineedit := kernel/lineedit.c
FUZZ_SEEDS_fuzz_lineedit := tests/fuzz/corpus/lineedit/*
