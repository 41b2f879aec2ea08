/*
 * ELF32 relocatable objects (modules): the format's structures and a
 * parser that checks every offset, size and index in a file before
 * anything else reads it, so the loader can walk sections, symbols and
 * relocations of an untrusted image without bounds checks of its own.
 */
#ifndef KERNEL_ELF_H
#define KERNEL_ELF_H

#include <kernel/types.h>

#define EI_NIDENT 16
#define EI_CLASS 4
#define EI_DATA 5
#define EI_VERSION 6
#define ELFCLASS32 1
#define ELFDATA2LSB 1
#define EV_CURRENT 1
#define ET_REL 1
#define EM_386 3
#define EM_ARM 40

#define SHN_UNDEF 0
#define SHN_LORESERVE 0xff00
#define SHN_ABS 0xfff1
#define SHN_COMMON 0xfff2
#define SHN_XINDEX 0xffff

#define SHT_NULL 0
#define SHT_PROGBITS 1
#define SHT_SYMTAB 2
#define SHT_STRTAB 3
#define SHT_RELA 4
#define SHT_NOTE 7
#define SHT_NOBITS 8
#define SHT_REL 9
#define SHT_LOPROC 0x70000000	/* to 0x7fffffff: .ARM.exidx, .ARM.attributes */
#define SHT_HIPROC 0x7fffffff

#define SHF_WRITE 0x1
#define SHF_ALLOC 0x2
#define SHF_EXECINSTR 0x4
#define SHF_MERGE 0x10
#define SHF_STRINGS 0x20
#define SHF_INFO_LINK 0x40
#define SHF_LINK_ORDER 0x80
#define SHF_GROUP 0x200
#define SHF_TLS 0x400

#define STB_LOCAL 0
#define STB_GLOBAL 1
#define STB_WEAK 2
#define STT_NOTYPE 0
#define STT_OBJECT 1
#define STT_FUNC 2
#define STT_SECTION 3
#define STT_FILE 4

#define ELF32_ST_BIND(info) ((info) >> 4)
#define ELF32_ST_TYPE(info) ((info) & 0xf)
#define ELF32_ST_VISIBILITY(other) ((other) & 0x3)
#define ELF32_R_SYM(info) ((info) >> 8)
#define ELF32_R_TYPE(info) ((info) & 0xff)

struct elf32_ehdr {
	u8 e_ident[EI_NIDENT];
	u16 e_type;
	u16 e_machine;
	u32 e_version;
	u32 e_entry;
	u32 e_phoff;
	u32 e_shoff;
	u32 e_flags;
	u16 e_ehsize;
	u16 e_phentsize;
	u16 e_phnum;
	u16 e_shentsize;
	u16 e_shnum;
	u16 e_shstrndx;
};

struct elf32_shdr {
	u32 sh_name;
	u32 sh_type;
	u32 sh_flags;
	u32 sh_addr;
	u32 sh_offset;
	u32 sh_size;
	u32 sh_link;
	u32 sh_info;
	u32 sh_addralign;
	u32 sh_entsize;
};

struct elf32_sym {
	u32 st_name;
	u32 st_value;
	u32 st_size;
	u8 st_info;
	u8 st_other;
	u16 st_shndx;
};

struct elf32_rel {
	u32 r_offset;
	u32 r_info;
};

struct elf32_rela {
	u32 r_offset;
	u32 r_info;
	s32 r_addend;
};

/* Errors, returned negated; elf_strerror() turns one into a message. */
enum elf_error {
	ELF_ERR_TRUNCATED = 1,	/* smaller than its headers say */
	ELF_ERR_ALIGN,		/* image or table not 4-byte aligned */
	ELF_ERR_MAGIC,		/* not ELF */
	ELF_ERR_CLASS,		/* not 32-bit little-endian ELF version 1 */
	ELF_ERR_TYPE,		/* not a relocatable object */
	ELF_ERR_MACHINE,	/* built for another architecture */
	ELF_ERR_SHDRS,		/* section headers outside the file, bad size */
	ELF_ERR_SECTION,	/* a section outside the file or misaligned */
	ELF_ERR_STRTAB,		/* a string table is missing or unterminated */
	ELF_ERR_NAME,		/* a name outside its string table */
	ELF_ERR_SYMTAB,		/* no symbol table, or a malformed one */
	ELF_ERR_SYMBOL,		/* a symbol in no section, or outside it */
	ELF_ERR_RELOC,		/* a relocation table that does not fit */
	ELF_ERR_RELOC_ENTRY,	/* an entry outside its section or symbols */
	ELF_ERR_MAX,
};

/* Upper bounds far above any module we build, so sums never overflow. */
#define ELF_MAX_SECTIONS 4096
#define ELF_MAX_SIZE 0x10000000u

/* One checked image: everything points into the caller's buffer. */
struct elf_file {
	const u8 *data;
	u32 size;
	const struct elf32_ehdr *ehdr;
	const struct elf32_shdr *shdrs;
	unsigned int shnum;
	const char *shstrtab;		/* section names */
	u32 shstrtab_size;
	unsigned int symtab_index;
	const struct elf32_sym *syms;
	unsigned int nsyms;
	const char *strtab;		/* symbol names */
	u32 strtab_size;
};

/*
 * Checks an image of size bytes (4-byte aligned) built for machine and
 * fills ef. Checked: the header; every section inside the file and its
 * name inside the section-name table; alignments that are powers of two;
 * exactly one symbol table with its string table, every name inside it,
 * every symbol in an existing section (or undefined/absolute) and its
 * value inside that section; every REL/RELA table with the right entry
 * size, linked to the symbol table, applying to an existing section,
 * each entry's symbol existing and its 4 bytes inside that section.
 * Returns 0 or a negative ELF_ERR_ code; on error ef is unusable.
 */
int elf_parse(struct elf_file *ef, const void *data, size_t size,
	      unsigned int machine);
const char *elf_strerror(int err);

/* Section idx (< shnum) and its name; its contents (NULL for NOBITS). */
static inline const struct elf32_shdr *elf_section(const struct elf_file *ef,
						   unsigned int idx)
{
	return &ef->shdrs[idx];
}
const char *elf_section_name(const struct elf_file *ef, unsigned int idx);
const void *elf_section_data(const struct elf_file *ef, unsigned int idx);

/* Index of the first section called name, or -1. */
int elf_find_section(const struct elf_file *ef, const char *name);

/* A symbol's name ("" for none). */
const char *elf_symbol_name(const struct elf_file *ef,
			    const struct elf32_sym *sym);

/* Relocation entries of a checked REL or RELA section. */
static inline unsigned int elf_reloc_count(const struct elf_file *ef,
					   unsigned int idx)
{
	const struct elf32_shdr *sh = elf_section(ef, idx);

	return sh->sh_size / sh->sh_entsize;
}

/*
 * Entry i of REL/RELA section idx: its offset in the target section,
 * type, symbol index and addend (0 for REL: the addend is in place).
 */
struct elf_reloc {
	u32 offset;
	u32 type;
	u32 sym;
	s32 addend;
};
void elf_reloc_get(const struct elf_file *ef, unsigned int idx, unsigned int i,
		   struct elf_reloc *r);

#endif
