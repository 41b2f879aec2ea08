# fuzz_radix_tree: lib/radix-tree.c against a sorted array, with failing allocations.
FUZZ_SRCS_fuzz_radix_tree := lib/radix-tree.c
FUZZ_SEEDS_fuzz_radix_tree := tests/fuzz/corpus/radix_tree/*
