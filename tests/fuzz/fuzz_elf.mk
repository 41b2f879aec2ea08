# fuzz_elf: lib/elf.c, seeded with the built modules of both arches.
FUZZ_SRCS_fuzz_elf := lib/elf.c
FUZZ_SEEDS_fuzz_elf := build/*/modules/*.ko
