# fuzz_shell: the line splitter of kernel/shell.c against a model.
FUZZ_SRCS_fuzz_shell := kernel/shell.c kernel/lineedit.c arch/host/task.c
FUZZ_SEEDS_fuzz_shell := tests/fuzz/corpus/shell/*
