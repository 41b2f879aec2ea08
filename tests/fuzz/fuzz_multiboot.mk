# fuzz_multiboot: the Multiboot information reader of arch/i386, from
# memory the fuzzer writes (its own header comes from arch/i386/include).
FUZZ_SRCS_fuzz_multiboot := arch/i386/multiboot_info.c
FUZZ_SEEDS_fuzz_multiboot := tests/fuzz/corpus/multiboot/*
$(FUZZ_BUILD)/arch/i386/multiboot_info.o \
$(FUZZ_BUILD)/tests/fuzz/fuzz_multiboot.o: FUZZ_CFLAGS += -Iarch/i386/include
