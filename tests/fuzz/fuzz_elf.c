/*
 * libFuzzer target for lib/elf.c: every input is parsed as an i386 and
 * as an ARM module; when the parser accepts it, everything the file
 * describes (names, section contents, symbols, each relocation and the
 * bytes it patches) is read, so that ASan catches any bound the parser
 * failed to check.
 */
#include <kernel/elf.h>
#include <kernel/string.h>
#include <stdlib.h>

static volatile unsigned long sink;

static void walk_relocs(const struct elf_file *ef, unsigned int idx)
{
	const u8 *target = elf_section_data(ef, elf_section(ef, idx)->sh_info);
	struct elf_reloc r;

	for (unsigned int j = 0; j < elf_reloc_count(ef, idx); j++) {
		elf_reloc_get(ef, idx, j, &r);
		sink += strlen(elf_symbol_name(ef, &ef->syms[r.sym]));
		sink += target[r.offset] + target[r.offset + 3] + r.addend;
	}
}

static void walk(const struct elf_file *ef)
{
	for (unsigned int i = 0; i < ef->shnum; i++) {
		const struct elf32_shdr *sh = elf_section(ef, i);
		const u8 *d = elf_section_data(ef, i);

		sink += strlen(elf_section_name(ef, i));
		if (d && sh->sh_size)
			sink += d[0] + d[sh->sh_size - 1];
		if (sh->sh_type == SHT_REL || sh->sh_type == SHT_RELA)
			walk_relocs(ef, i);
	}
	for (unsigned int i = 0; i < ef->nsyms; i++)
		sink += strlen(elf_symbol_name(ef, &ef->syms[i]));
	sink += elf_find_section(ef, ".modinfo");
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const unsigned int machines[] = { EM_386, EM_ARM };
	/* An exact-size copy: 4-byte aligned, and ASan sees its end. */
	u8 *copy = malloc(size ? size : 1);
	struct elf_file ef;

	memcpy(copy, data, size);
	for (unsigned int m = 0; m < 2; m++) {
		int err = elf_parse(&ef, copy, size, machines[m]);

		if (err == 0)
			walk(&ef);
		else
			sink += strlen(elf_strerror(err));
	}
	free(copy);
	return 0;
}
