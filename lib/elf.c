/*
 * ELF32 relocatable objects without trusting a single offset in them:
 * elf_parse() checks the whole file once (headers, sections, names,
 * symbols, relocation tables and their entries), so that the module
 * loader and the fuzzer that drives this file on the host can afterwards
 * index anything the file describes without further checks.
 */
#include <kernel/elf.h>
#include <kernel/string.h>

static const char *const elf_errors[ELF_ERR_MAX] = {
	[0] = "no error",
	[ELF_ERR_TRUNCATED] = "file is truncated",
	[ELF_ERR_ALIGN] = "file or one of its tables is not 4-byte aligned",
	[ELF_ERR_MAGIC] = "not an ELF file",
	[ELF_ERR_CLASS] = "not 32-bit little-endian ELF version 1",
	[ELF_ERR_TYPE] = "not a relocatable object (ET_REL)",
	[ELF_ERR_MACHINE] = "built for another machine",
	[ELF_ERR_SHDRS] = "section header table is malformed or outside the file",
	[ELF_ERR_SECTION] = "a section lies outside the file or has a bad alignment",
	[ELF_ERR_STRTAB] = "a string table is missing or not terminated",
	[ELF_ERR_NAME] = "a name lies outside its string table",
	[ELF_ERR_SYMTAB] = "symbol table is missing, duplicated or malformed",
	[ELF_ERR_SYMBOL] = "a symbol lies outside its section",
	[ELF_ERR_RELOC] = "a relocation table is malformed",
	[ELF_ERR_RELOC_ENTRY] = "a relocation lies outside its section or symbol table",
};

const char *elf_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err >= ELF_ERR_MAX)
		return "unknown ELF error";
	return elf_errors[err];
}

static bool is_pow2_or_zero(u32 x)
{
	return (x & (x - 1)) == 0;
}

/* Does [off, off + len) lie inside the file? */
static bool in_file(const struct elf_file *ef, u32 off, u32 len)
{
	return off <= ef->size && len <= ef->size - off;
}

static int check_header(struct elf_file *ef, unsigned int machine)
{
	const struct elf32_ehdr *eh = ef->ehdr;

	if (ef->size < sizeof(*eh))
		return -ELF_ERR_TRUNCATED;
	if (memcmp(eh->e_ident, "\177ELF", 4))
		return -ELF_ERR_MAGIC;
	if (eh->e_ident[EI_CLASS] != ELFCLASS32 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_ident[EI_VERSION] != EV_CURRENT ||
	    eh->e_version != EV_CURRENT)
		return -ELF_ERR_CLASS;
	if (eh->e_type != ET_REL)
		return -ELF_ERR_TYPE;
	if (eh->e_machine != machine)
		return -ELF_ERR_MACHINE;
	/* shnum 0 would mean "extended numbering", which we never emit. */
	if (eh->e_shentsize != sizeof(struct elf32_shdr) || eh->e_shnum == 0 ||
	    eh->e_shnum > ELF_MAX_SECTIONS || eh->e_shstrndx >= eh->e_shnum)
		return -ELF_ERR_SHDRS;
	if (!in_file(ef, eh->e_shoff, eh->e_shnum * sizeof(struct elf32_shdr)))
		return -ELF_ERR_TRUNCATED;
	if (eh->e_shoff % 4)
		return -ELF_ERR_ALIGN;
	ef->shdrs = (const void *)(ef->data + eh->e_shoff);
	ef->shnum = eh->e_shnum;
	return 0;
}

/* A string table whose last byte ends every string inside it. */
static int check_strtab(const struct elf_file *ef, unsigned int idx,
			const char **strings, u32 *size)
{
	const struct elf32_shdr *sh = elf_section(ef, idx);

	if (sh->sh_type != SHT_STRTAB || sh->sh_size == 0 ||
	    ef->data[sh->sh_offset + sh->sh_size - 1] != '\0')
		return -ELF_ERR_STRTAB;
	*strings = (const char *)ef->data + sh->sh_offset;
	*size = sh->sh_size;
	return 0;
}

static int check_sections(struct elf_file *ef)
{
	int err;

	for (unsigned int i = 0; i < ef->shnum; i++) {
		const struct elf32_shdr *sh = elf_section(ef, i);

		if (sh->sh_addralign > 4096 ||
		    !is_pow2_or_zero(sh->sh_addralign))
			return -ELF_ERR_SECTION;
		/* .bss takes no room in the file, but still room in memory. */
		if (sh->sh_type == SHT_NOBITS ? sh->sh_size > ELF_MAX_SIZE :
		    sh->sh_type != SHT_NULL &&
		    !in_file(ef, sh->sh_offset, sh->sh_size))
			return -ELF_ERR_SECTION;
	}
	err = check_strtab(ef, ef->ehdr->e_shstrndx, &ef->shstrtab,
			   &ef->shstrtab_size);
	if (err)
		return err;
	for (unsigned int i = 0; i < ef->shnum; i++)
		if (elf_section(ef, i)->sh_name >= ef->shstrtab_size)
			return -ELF_ERR_NAME;
	return 0;
}

static int check_symbol(const struct elf_file *ef, const struct elf32_sym *s)
{
	const struct elf32_shdr *sh;

	if (s->st_name >= ef->strtab_size)
		return -ELF_ERR_NAME;
	if (s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS ||
	    s->st_shndx == SHN_COMMON)
		return 0;
	if (s->st_shndx >= ef->shnum)
		return -ELF_ERR_SYMBOL;
	sh = elf_section(ef, s->st_shndx);
	if (s->st_value > sh->sh_size || s->st_size > sh->sh_size - s->st_value)
		return -ELF_ERR_SYMBOL;
	return 0;
}

static int check_symtab(struct elf_file *ef)
{
	const struct elf32_shdr *sh = NULL;
	int err;

	for (unsigned int i = 0; i < ef->shnum; i++) {
		if (elf_section(ef, i)->sh_type != SHT_SYMTAB)
			continue;
		if (sh)
			return -ELF_ERR_SYMTAB;
		sh = elf_section(ef, i);
		ef->symtab_index = i;
	}
	if (!sh || sh->sh_entsize != sizeof(struct elf32_sym) ||
	    sh->sh_size % sizeof(struct elf32_sym) || sh->sh_size == 0 ||
	    sh->sh_link >= ef->shnum)
		return -ELF_ERR_SYMTAB;
	if (sh->sh_offset % 4)
		return -ELF_ERR_ALIGN;
	ef->syms = (const void *)(ef->data + sh->sh_offset);
	ef->nsyms = sh->sh_size / sizeof(struct elf32_sym);
	if (sh->sh_info > ef->nsyms)
		return -ELF_ERR_SYMTAB;
	err = check_strtab(ef, sh->sh_link, &ef->strtab, &ef->strtab_size);
	if (err)
		return err;
	for (unsigned int i = 0; i < ef->nsyms; i++) {
		err = check_symbol(ef, &ef->syms[i]);
		if (err)
			return err;
	}
	return 0;
}

static int check_relocs(const struct elf_file *ef, unsigned int idx)
{
	const struct elf32_shdr *sh = elf_section(ef, idx), *target;
	u32 entsize = sh->sh_type == SHT_REL ? sizeof(struct elf32_rel) :
					       sizeof(struct elf32_rela);
	struct elf_reloc r;

	if (sh->sh_entsize != entsize || sh->sh_size % entsize ||
	    sh->sh_link != ef->symtab_index || sh->sh_info == 0 ||
	    sh->sh_info >= ef->shnum)
		return -ELF_ERR_RELOC;
	if (sh->sh_offset % 4)
		return -ELF_ERR_ALIGN;
	target = elf_section(ef, sh->sh_info);
	if (target->sh_type == SHT_NOBITS || target->sh_type == SHT_NULL)
		return -ELF_ERR_RELOC;
	for (unsigned int i = 0; i < elf_reloc_count(ef, idx); i++) {
		elf_reloc_get(ef, idx, i, &r);
		if (r.sym >= ef->nsyms || target->sh_size < 4 ||
		    r.offset > target->sh_size - 4)
			return -ELF_ERR_RELOC_ENTRY;
	}
	return 0;
}

int elf_parse(struct elf_file *ef, const void *data, size_t size,
	      unsigned int machine)
{
	int err;

	memset(ef, 0, sizeof(*ef));
	if (!data || size > ELF_MAX_SIZE)
		return -ELF_ERR_TRUNCATED;
	if ((uintptr_t)data % 4)
		return -ELF_ERR_ALIGN;
	ef->data = data;
	ef->size = size;
	ef->ehdr = data;
	err = check_header(ef, machine);
	if (!err)
		err = check_sections(ef);
	if (!err)
		err = check_symtab(ef);
	for (unsigned int i = 0; !err && i < ef->shnum; i++) {
		u32 type = elf_section(ef, i)->sh_type;

		if (type == SHT_REL || type == SHT_RELA)
			err = check_relocs(ef, i);
	}
	return err;
}

const char *elf_section_name(const struct elf_file *ef, unsigned int idx)
{
	return ef->shstrtab + elf_section(ef, idx)->sh_name;
}

const void *elf_section_data(const struct elf_file *ef, unsigned int idx)
{
	const struct elf32_shdr *sh = elf_section(ef, idx);

	if (sh->sh_type == SHT_NOBITS || sh->sh_type == SHT_NULL)
		return NULL;
	return ef->data + sh->sh_offset;
}

int elf_find_section(const struct elf_file *ef, const char *name)
{
	for (unsigned int i = 0; i < ef->shnum; i++)
		if (strcmp(elf_section_name(ef, i), name) == 0)
			return i;
	return -1;
}

const char *elf_symbol_name(const struct elf_file *ef,
			    const struct elf32_sym *sym)
{
	return ef->strtab + sym->st_name;
}

void elf_reloc_get(const struct elf_file *ef, unsigned int idx, unsigned int i,
		   struct elf_reloc *r)
{
	const struct elf32_shdr *sh = elf_section(ef, idx);
	const u8 *p = ef->data + sh->sh_offset + i * sh->sh_entsize;
	const struct elf32_rel *rel = (const void *)p;
	const struct elf32_rela *rela = (const void *)p;

	r->offset = rel->r_offset;
	r->type = ELF32_R_TYPE(rel->r_info);
	r->sym = ELF32_R_SYM(rel->r_info);
	r->addend = sh->sh_type == SHT_RELA ? rela->r_addend : 0;
}
