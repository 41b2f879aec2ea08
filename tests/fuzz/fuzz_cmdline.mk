# fuzz_cmdline: lib/cmdline.c against a model, with every buffer size that matters.
FUZZ_SRCS_fuzz_cmdline := lib/cmdline.c
FUZZ_SEEDS_fuzz_cmdline := tests/fuzz/corpus/cmdline/*
