# fuzz_fdt: lib/fdt.c, its check and every lookup, seeded with QEMU's virt tree.
FUZZ_SRCS_fuzz_fdt := lib/fdt.c
FUZZ_SEEDS_fuzz_fdt := tests/host/data/virt.dtb tests/fuzz/corpus/fdt/*
