# fuzz_module: the module loader's pure steps (check, layout, symbols,
# relocations of both arches) on host buffers, seeded with the built
# modules and the malformed ones of tests/fuzz/corpus/module/.
FUZZ_SRCS_fuzz_module := lib/elf.c lib/printf.c \
	kernel/module_layout.c kernel/module_symbols.c \
	arch/i386/module_reloc.c arch/arm/module_reloc.c
FUZZ_SEEDS_fuzz_module := build/*/modules/*.ko tests/fuzz/corpus/module/*/*.ko
