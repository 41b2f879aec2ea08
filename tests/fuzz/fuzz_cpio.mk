# fuzz_cpio: lib/cpio.c, seeded with the boot archives of both arches.
FUZZ_SRCS_fuzz_cpio := lib/cpio.c
FUZZ_SEEDS_fuzz_cpio := build/*/initrd.cpio
