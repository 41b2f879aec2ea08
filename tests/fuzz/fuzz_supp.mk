# fuzz_supp: memleak.supp files and the suppression patterns
# (mm/kmemleak/suppress_pattern.c) against a model and a table matcher.
FUZZ_SRCS_fuzz_supp := mm/kmemleak/suppress_pattern.c lib/printf.c
FUZZ_SEEDS_fuzz_supp := tests/fuzz/corpus/supp/*
