/*
 * Host tests for lib/elf.c on a small relocatable object built here:
 * the accessors on a good file, then one damaged field at a time (each
 * must give its own error), every truncation, and random byte flips
 * under ASan (a parse that succeeds must leave everything in bounds).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kernel/elf.h>
#include <kernel/string.h>

enum { S_NULL, S_TEXT, S_DATA, S_BSS, S_SYMTAB, S_STRTAB, S_REL, S_SHSTRTAB,
       NR_SECTIONS };
enum { Y_NULL, Y_SECTION, Y_HELPER, Y_INIT, Y_PRINTK, NR_SYMS };

static const char strtab[] = "\0helper\0init_module\0printk";
static const char shstrtab[] =
	"\0.text\0.data\0.bss\0.symtab\0.strtab\0.rel.text\0.shstrtab";

/* The image, word-aligned as the loader requires. */
static union {
	u32 words[256];
	u8 bytes[1024];
} img;
static size_t img_size;

static size_t place(size_t *pos, const void *src, size_t len)
{
	size_t at = *pos;

	memcpy(img.bytes + at, src, len);
	*pos = (at + len + 3) & ~(size_t)3;
	return at;
}

static u32 name_of(const char *table, size_t size, const char *name)
{
	for (size_t i = 1; i < size; i++)
		if (table[i - 1] == '\0' && strcmp(table + i, name) == 0)
			return i;
	return 0;
}

static void set_section(struct elf32_shdr *sh, const char *name, u32 type,
			u32 flags, u32 off, u32 size)
{
	sh->sh_name = name ? name_of(shstrtab, sizeof(shstrtab), name) : 0;
	sh->sh_type = type;
	sh->sh_flags = flags;
	sh->sh_offset = off;
	sh->sh_size = size;
	sh->sh_addralign = type == SHT_NULL ? 0 : 4;
}

/* .text calls printk and references helper; .data holds a word. */
static void build(void)
{
	static const u8 text[16] = { 0x90, 0x90, 0x90, 0x90, 0xc3 };
	static const u32 data[2] = { 1, 2 };
	struct elf32_sym syms[NR_SYMS] = {
		[Y_SECTION] = { .st_info = STT_SECTION, .st_shndx = S_TEXT },
		[Y_HELPER] = { 1, 0, 8, STT_FUNC, 0, S_TEXT },
		[Y_INIT] = { 8, 8, 8, STB_GLOBAL << 4 | STT_FUNC, 0, S_TEXT },
		[Y_PRINTK] = { 20, 0, 0, STB_GLOBAL << 4, 0, SHN_UNDEF },
	};
	struct elf32_rel rel[2] = {
		{ 0, Y_PRINTK << 8 | 2 },
		{ 4, Y_HELPER << 8 | 1 },
	};
	struct elf32_shdr sh[NR_SECTIONS];
	struct elf32_ehdr eh = {
		.e_ident = { 0x7f, 'E', 'L', 'F', ELFCLASS32, ELFDATA2LSB,
			     EV_CURRENT },
		.e_type = ET_REL,
		.e_machine = EM_386,
		.e_version = EV_CURRENT,
		.e_ehsize = sizeof(eh),
		.e_shentsize = sizeof(struct elf32_shdr),
		.e_shnum = NR_SECTIONS,
		.e_shstrndx = S_SHSTRTAB,
	};
	size_t pos = sizeof(eh);

	memset(&img, 0, sizeof(img));
	memset(sh, 0, sizeof(sh));
	set_section(&sh[S_TEXT], ".text", SHT_PROGBITS,
		    SHF_ALLOC | SHF_EXECINSTR, place(&pos, text, sizeof(text)),
		    sizeof(text));
	set_section(&sh[S_DATA], ".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE,
		    place(&pos, data, sizeof(data)), sizeof(data));
	set_section(&sh[S_BSS], ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, pos,
		    32);
	set_section(&sh[S_SYMTAB], ".symtab", SHT_SYMTAB, 0,
		    place(&pos, syms, sizeof(syms)), sizeof(syms));
	sh[S_SYMTAB].sh_entsize = sizeof(struct elf32_sym);
	sh[S_SYMTAB].sh_link = S_STRTAB;
	sh[S_SYMTAB].sh_info = Y_INIT;
	set_section(&sh[S_STRTAB], ".strtab", SHT_STRTAB, 0,
		    place(&pos, strtab, sizeof(strtab)), sizeof(strtab));
	set_section(&sh[S_REL], ".rel.text", SHT_REL, 0,
		    place(&pos, rel, sizeof(rel)), sizeof(rel));
	sh[S_REL].sh_entsize = sizeof(struct elf32_rel);
	sh[S_REL].sh_link = S_SYMTAB;
	sh[S_REL].sh_info = S_TEXT;
	set_section(&sh[S_SHSTRTAB], ".shstrtab", SHT_STRTAB, 0,
		    place(&pos, shstrtab, sizeof(shstrtab)), sizeof(shstrtab));
	eh.e_shoff = place(&pos, sh, sizeof(sh));
	memcpy(img.bytes, &eh, sizeof(eh));
	img_size = pos;
}

static struct elf32_ehdr *ehdr(void)
{
	return (struct elf32_ehdr *)img.bytes;
}

static struct elf32_shdr *shdr(unsigned int i)
{
	return (struct elf32_shdr *)(img.bytes + ehdr()->e_shoff) + i;
}

static struct elf32_sym *sym(unsigned int i)
{
	return (struct elf32_sym *)(img.bytes + shdr(S_SYMTAB)->sh_offset) + i;
}

static struct elf32_rel *rel(unsigned int i)
{
	return (struct elf32_rel *)(img.bytes + shdr(S_REL)->sh_offset) + i;
}

static int parse(void)
{
	struct elf_file ef;

	return elf_parse(&ef, img.bytes, img_size, EM_386);
}

static int setup(void **state)
{
	(void)state;
	build();
	return 0;
}

static void test_good(void **state)
{
	struct elf_file ef;
	struct elf_reloc r;

	(void)state;
	assert_int_equal(elf_parse(&ef, img.bytes, img_size, EM_386), 0);
	assert_int_equal(ef.shnum, NR_SECTIONS);
	assert_int_equal(ef.nsyms, NR_SYMS);
	assert_int_equal(ef.symtab_index, S_SYMTAB);
	assert_string_equal(elf_section_name(&ef, S_REL), ".rel.text");
	assert_int_equal(elf_find_section(&ef, ".bss"), S_BSS);
	assert_int_equal(elf_find_section(&ef, ".nosuch"), -1);
	assert_null(elf_section_data(&ef, S_BSS));
	assert_null(elf_section_data(&ef, S_NULL));
	assert_int_equal(((const u32 *)elf_section_data(&ef, S_DATA))[1], 2);
	assert_string_equal(elf_symbol_name(&ef, &ef.syms[Y_INIT]),
			    "init_module");
	assert_string_equal(elf_symbol_name(&ef, &ef.syms[Y_NULL]), "");
	assert_int_equal(elf_reloc_count(&ef, S_REL), 2);
	elf_reloc_get(&ef, S_REL, 1, &r);
	assert_int_equal(r.offset, 4);
	assert_int_equal(r.type, 1);
	assert_int_equal(r.sym, Y_HELPER);
	assert_int_equal(r.addend, 0);
}

static void test_header(void **state)
{
	(void)state;
	assert_int_equal(elf_parse(&(struct elf_file){ 0 }, img.bytes, img_size,
				   EM_ARM), -ELF_ERR_MACHINE);
	img.bytes[0] = 0x7e;
	assert_int_equal(parse(), -ELF_ERR_MAGIC);
	build();
	img.bytes[EI_CLASS] = 2;
	assert_int_equal(parse(), -ELF_ERR_CLASS);
	build();
	img.bytes[EI_DATA] = 2;
	assert_int_equal(parse(), -ELF_ERR_CLASS);
	build();
	ehdr()->e_version = 2;
	assert_int_equal(parse(), -ELF_ERR_CLASS);
	build();
	ehdr()->e_type = 2;	/* ET_EXEC */
	assert_int_equal(parse(), -ELF_ERR_TYPE);
}

static void test_section_headers(void **state)
{
	u32 shoff = ehdr()->e_shoff;

	(void)state;
	ehdr()->e_shentsize = 32;
	assert_int_equal(parse(), -ELF_ERR_SHDRS);
	build();
	ehdr()->e_shnum = 0;
	assert_int_equal(parse(), -ELF_ERR_SHDRS);
	build();
	ehdr()->e_shstrndx = NR_SECTIONS;
	assert_int_equal(parse(), -ELF_ERR_SHDRS);
	build();
	ehdr()->e_shoff = img_size - 8;
	assert_int_equal(parse(), -ELF_ERR_TRUNCATED);
	ehdr()->e_shoff = 0xfffffff0;
	assert_int_equal(parse(), -ELF_ERR_TRUNCATED);
	ehdr()->e_shoff = shoff - 2;
	assert_int_equal(parse(), -ELF_ERR_ALIGN);
}

static void test_sections(void **state)
{
	(void)state;
	shdr(S_DATA)->sh_offset = img_size;
	assert_int_equal(parse(), -ELF_ERR_SECTION);
	build();
	shdr(S_DATA)->sh_size = 0xfffffff8;
	assert_int_equal(parse(), -ELF_ERR_SECTION);
	build();
	shdr(S_TEXT)->sh_addralign = 12;
	assert_int_equal(parse(), -ELF_ERR_SECTION);
	build();
	shdr(S_BSS)->sh_size = 0x80000000;
	assert_int_equal(parse(), -ELF_ERR_SECTION);
	build();
	/* A .bss may lie anywhere: it has no bytes in the file. */
	shdr(S_BSS)->sh_offset = 0xfffffff0;
	assert_int_equal(parse(), 0);
	build();
	shdr(S_TEXT)->sh_name = sizeof(shstrtab);
	assert_int_equal(parse(), -ELF_ERR_NAME);
}

static void test_string_tables(void **state)
{
	(void)state;
	img.bytes[shdr(S_STRTAB)->sh_offset + sizeof(strtab) - 1] = 'x';
	assert_int_equal(parse(), -ELF_ERR_STRTAB);
	build();
	shdr(S_SHSTRTAB)->sh_type = SHT_PROGBITS;
	assert_int_equal(parse(), -ELF_ERR_STRTAB);
	build();
	shdr(S_SYMTAB)->sh_link = S_DATA;
	assert_int_equal(parse(), -ELF_ERR_STRTAB);
	build();
	shdr(S_STRTAB)->sh_size = 0;
	assert_int_equal(parse(), -ELF_ERR_STRTAB);
}

static void test_symbol_table(void **state)
{
	(void)state;
	shdr(S_SYMTAB)->sh_type = SHT_PROGBITS;
	assert_int_equal(parse(), -ELF_ERR_SYMTAB);
	build();
	shdr(S_DATA)->sh_type = SHT_SYMTAB;
	assert_int_equal(parse(), -ELF_ERR_SYMTAB);
	build();
	shdr(S_SYMTAB)->sh_entsize = 12;
	assert_int_equal(parse(), -ELF_ERR_SYMTAB);
	build();
	shdr(S_SYMTAB)->sh_size -= 4;
	assert_int_equal(parse(), -ELF_ERR_SYMTAB);
	build();
	shdr(S_SYMTAB)->sh_info = NR_SYMS + 1;
	assert_int_equal(parse(), -ELF_ERR_SYMTAB);
	build();
	shdr(S_SYMTAB)->sh_link = NR_SECTIONS;
	assert_int_equal(parse(), -ELF_ERR_SYMTAB);
	build();
	shdr(S_SYMTAB)->sh_offset += 2;
	assert_int_equal(parse(), -ELF_ERR_ALIGN);
}

static void test_symbols(void **state)
{
	(void)state;
	sym(Y_HELPER)->st_name = sizeof(strtab);
	assert_int_equal(parse(), -ELF_ERR_NAME);
	build();
	sym(Y_HELPER)->st_shndx = NR_SECTIONS;
	assert_int_equal(parse(), -ELF_ERR_SYMBOL);
	build();
	sym(Y_HELPER)->st_shndx = SHN_XINDEX;
	assert_int_equal(parse(), -ELF_ERR_SYMBOL);
	build();
	sym(Y_INIT)->st_value = 17;
	assert_int_equal(parse(), -ELF_ERR_SYMBOL);
	build();
	sym(Y_INIT)->st_size = 9;	/* 8 + 9: past the 16 bytes of .text */
	assert_int_equal(parse(), -ELF_ERR_SYMBOL);
	build();
	sym(Y_INIT)->st_value = 16;	/* an end marker is fine */
	sym(Y_INIT)->st_size = 0;
	assert_int_equal(parse(), 0);
	build();
	sym(Y_PRINTK)->st_shndx = SHN_ABS;
	sym(Y_PRINTK)->st_value = 0xdeadbeef;
	assert_int_equal(parse(), 0);
}

static void test_relocations(void **state)
{
	(void)state;
	shdr(S_REL)->sh_entsize = 12;
	assert_int_equal(parse(), -ELF_ERR_RELOC);
	build();
	shdr(S_REL)->sh_type = SHT_RELA;	/* 16 bytes: 12 does not divide */
	shdr(S_REL)->sh_entsize = 12;
	assert_int_equal(parse(), -ELF_ERR_RELOC);
	build();
	shdr(S_REL)->sh_link = S_STRTAB;
	assert_int_equal(parse(), -ELF_ERR_RELOC);
	build();
	shdr(S_REL)->sh_info = 0;
	assert_int_equal(parse(), -ELF_ERR_RELOC);
	build();
	shdr(S_REL)->sh_info = NR_SECTIONS;
	assert_int_equal(parse(), -ELF_ERR_RELOC);
	build();
	shdr(S_REL)->sh_info = S_BSS;
	assert_int_equal(parse(), -ELF_ERR_RELOC);
	build();
	rel(0)->r_info = NR_SYMS << 8 | 1;
	assert_int_equal(parse(), -ELF_ERR_RELOC_ENTRY);
	build();
	rel(1)->r_offset = 13;	/* 4 bytes from 13 leave the 16-byte .text */
	assert_int_equal(parse(), -ELF_ERR_RELOC_ENTRY);
	build();
	rel(1)->r_offset = 12;
	assert_int_equal(parse(), 0);
}

/* Every prefix of the file, each in a buffer of exactly its size. */
static void test_truncated(void **state)
{
	(void)state;
	for (size_t n = 0; n < img_size; n++) {
		u8 *copy = malloc(n ? n : 1);
		struct elf_file ef;

		memcpy(copy, img.bytes, n);
		assert_int_not_equal(elf_parse(&ef, copy, n, EM_386), 0);
		free(copy);
	}
	assert_int_equal(elf_parse(&(struct elf_file){ 0 }, NULL, 0, EM_386),
			 -ELF_ERR_TRUNCATED);
}

static void test_unaligned(void **state)
{
	u8 *buf = malloc(img_size + 1);
	struct elf_file ef;

	(void)state;
	memcpy(buf + 1, img.bytes, img_size);
	assert_int_equal(elf_parse(&ef, buf + 1, img_size, EM_386),
			 -ELF_ERR_ALIGN);
	free(buf);
}

/* Touches everything a parsed file describes, for ASan to check. */
static unsigned long walk(const struct elf_file *ef)
{
	unsigned long sum = 0;
	struct elf_reloc r;

	for (unsigned int i = 0; i < ef->shnum; i++) {
		const u8 *d = elf_section_data(ef, i);

		sum += strlen(elf_section_name(ef, i));
		if (d && elf_section(ef, i)->sh_size)
			sum += d[elf_section(ef, i)->sh_size - 1];
		if (elf_section(ef, i)->sh_type != SHT_REL &&
		    elf_section(ef, i)->sh_type != SHT_RELA)
			continue;
		for (unsigned int j = 0; j < elf_reloc_count(ef, i); j++) {
			elf_reloc_get(ef, i, j, &r);
			sum += strlen(elf_symbol_name(ef, &ef->syms[r.sym]));
			sum += ((const u8 *)elf_section_data(
				ef, elf_section(ef, i)->sh_info))[r.offset + 3];
		}
	}
	for (unsigned int i = 0; i < ef->nsyms; i++)
		sum += strlen(elf_symbol_name(ef, &ef->syms[i]));
	return sum;
}

static void test_random_flips(void **state)
{
	unsigned int seed = 12345, accepted = 0;

	(void)state;
	for (int round = 0; round < 20000; round++) {
		struct elf_file ef;
		u8 *copy = malloc(img_size);

		build();
		for (int k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245 + 12345;
			img.bytes[(seed >> 8) % img_size] ^=
				1u << (seed >> 28) % 8;
		}
		memcpy(copy, img.bytes, img_size);
		if (elf_parse(&ef, copy, img_size, EM_386) == 0) {
			accepted++;
			walk(&ef);
		}
		free(copy);
	}
	/* Some flips hit bytes nothing checks (padding, code): accepted. */
	assert_true(accepted > 0);
}

static void test_strerror(void **state)
{
	(void)state;
	for (int i = 1; i < ELF_ERR_MAX; i++) {
		assert_string_equal(elf_strerror(i), elf_strerror(-i));
		for (int j = 0; j < i; j++)
			assert_string_not_equal(elf_strerror(i),
						elf_strerror(j));
	}
	assert_string_equal(elf_strerror(-ELF_ERR_MAX), "unknown ELF error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_good, setup),
		cmocka_unit_test_setup(test_header, setup),
		cmocka_unit_test_setup(test_section_headers, setup),
		cmocka_unit_test_setup(test_sections, setup),
		cmocka_unit_test_setup(test_string_tables, setup),
		cmocka_unit_test_setup(test_symbol_table, setup),
		cmocka_unit_test_setup(test_symbols, setup),
		cmocka_unit_test_setup(test_relocations, setup),
		cmocka_unit_test_setup(test_truncated, setup),
		cmocka_unit_test_setup(test_unaligned, setup),
		cmocka_unit_test_setup(test_random_flips, setup),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests_name("elf", tests, NULL, NULL);
}
