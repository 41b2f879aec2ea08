/*
 * The loader's checks and layout of a module image (docs/modules.md,
 * steps 1 and 2). elf_parse() has made every offset, index and name of
 * the file safe to read; what is checked here is what the loader itself
 * relies on: which sections it loads and that they do not overlap in
 * the file, a symbol table ordered and typed as the toolchain makes it,
 * and relocation tables that patch exactly the loaded sections, inside
 * them, against loaded or undefined symbols. An image that passes is
 * laid out into the core and init areas and copied there.
 *
 * Nothing here touches hardware or allocates: the kernel calls it under
 * module_mutex, the fuzzer (tests/fuzz/fuzz_module.c) on host buffers.
 */
#include <kernel/module.h>
#include <kernel/elf.h>
#include <kernel/errno.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/string.h>

/* Every loaded section starts at least this aligned (word copies, ldrd). */
#define MODULE_MIN_ALIGN 8
/* How far an addend may reach from its symbol (addend_in_reach()). */
#define MODULE_REACH_BEFORE 4096
#define MODULE_REACH_PAST_UNDEF 0x10000

#define KNOWN_SHF                                                          \
	(SHF_WRITE | SHF_ALLOC | SHF_EXECINSTR | SHF_MERGE | SHF_STRINGS | \
	 SHF_INFO_LINK | SHF_LINK_ORDER | SHF_GROUP)

const char *module_info(const struct elf_file *ef, const char *key)
{
	int idx = elf_find_section(ef, ".modinfo");
	size_t klen = strlen(key);
	const char *p, *end;

	if (idx < 0 || !elf_section_data(ef, idx))
		return NULL;
	p = elf_section_data(ef, idx);
	end = p + elf_section(ef, idx)->sh_size;
	while (p < end) {
		const char *nul = memchr(p, '\0', end - p);

		if (!nul)
			return NULL;
		if ((size_t)(nul - p) > klen && strncmp(p, key, klen) == 0 &&
		    p[klen] == '=')
			return p + klen + 1;
		p = nul + 1;
	}
	return NULL;
}

static bool is_init_section(const char *name)
{
	return strncmp(name, ".init", 5) == 0;
}

/* Allocated sections the kernel's own linker script throws away too. */
static bool is_dropped_section(const char *name)
{
	static const char *const prefixes[] = {
		".eh_frame", ".ARM.exidx", ".ARM.extab", ".note", ".modinfo",
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

static bool is_loaded(const struct elf_file *ef, unsigned int i)
{
	return (elf_section(ef, i)->sh_flags & SHF_ALLOC) &&
	       !is_dropped_section(elf_section_name(ef, i));
}

/* Relocations of these are never applied: they are not loaded. */
static bool is_ignored_target(const struct elf_file *ef, unsigned int i)
{
	const struct elf32_shdr *sh = elf_section(ef, i);

	if (sh->sh_flags & SHF_ALLOC)
		return is_dropped_section(elf_section_name(ef, i));
	return sh->sh_type == SHT_PROGBITS &&
	       strncmp(elf_section_name(ef, i), ".debug", 6) == 0;
}

/* Does the section take bytes of the file? */
static bool has_file_bytes(const struct elf32_shdr *sh)
{
	return sh->sh_type != SHT_NULL && sh->sh_type != SHT_NOBITS &&
	       sh->sh_size;
}

static bool overlaps(u32 a, u32 alen, u32 b, u32 blen)
{
	return a < b + blen && b < a + alen;
}

/* ------------------------------------------------------------------ */
/* Sections                                                            */

static bool known_type(u32 type)
{
	switch (type) {
	case SHT_NULL:
	case SHT_PROGBITS:
	case SHT_SYMTAB:
	case SHT_STRTAB:
	case SHT_NOTE:
	case SHT_NOBITS:
	case SHT_REL:
		return true;
	}
	return type >= SHT_LOPROC && type <= SHT_HIPROC;
}

static int check_section_kind(const struct module_image *img, unsigned int i)
{
	const struct elf_file *ef = &img->ef;
	const struct elf32_shdr *sh = elf_section(ef, i);
	const char *name = elf_section_name(ef, i);

	if (sh->sh_type == SHT_RELA) {
		printk("insmod: %s: RELA relocations (%s): our toolchains "
		       "emit REL\n", img->name, name);
		return -ENOEXEC;
	}
	if (!known_type(sh->sh_type) || (sh->sh_flags & ~KNOWN_SHF)) {
		printk("insmod: %s: section %u (%s) has an unknown type 0x%x "
		       "or flags 0x%x\n", img->name, i, name, sh->sh_type,
		       sh->sh_flags);
		return -ENOEXEC;
	}
	if (is_loaded(ef, i) && sh->sh_type != SHT_PROGBITS &&
	    sh->sh_type != SHT_NOBITS) {
		printk("insmod: %s: allocated section %s of type 0x%x cannot "
		       "be loaded\n", img->name, name, sh->sh_type);
		return -ENOEXEC;
	}
	/* A relocation table that lost its type would leave code unpatched. */
	if (strncmp(name, ".rel", 4) == 0 && sh->sh_type != SHT_REL) {
		printk("insmod: %s: section %s is named as a relocation table "
		       "but has type 0x%x\n", img->name, name, sh->sh_type);
		return -ENOEXEC;
	}
	return 0;
}

/*
 * Sections, the ELF header and the section headers share no byte of
 * the file, and each section starts as aligned in the file as it asks
 * to be in memory: what a moved or resized section breaks.
 */
static int check_section_place(const struct module_image *img, unsigned int i)
{
	const struct elf_file *ef = &img->ef;
	const struct elf32_shdr *sh = elf_section(ef, i);
	u32 shoff = ef->ehdr->e_shoff, shlen = ef->shnum * sizeof(*sh);

	if (!has_file_bytes(sh))
		return 0;
	if (sh->sh_addralign > 1 && sh->sh_offset % sh->sh_addralign) {
		printk("insmod: %s: section %s at file offset 0x%x is not "
		       "aligned to %u bytes\n", img->name,
		       elf_section_name(ef, i), sh->sh_offset,
		       sh->sh_addralign);
		return -ENOEXEC;
	}
	if (overlaps(sh->sh_offset, sh->sh_size, 0, sizeof(*ef->ehdr)) ||
	    overlaps(sh->sh_offset, sh->sh_size, shoff, shlen))
		goto overlap;
	for (unsigned int j = 1; j < i; j++) {
		const struct elf32_shdr *o = elf_section(ef, j);

		if (has_file_bytes(o) && overlaps(sh->sh_offset, sh->sh_size,
						  o->sh_offset, o->sh_size))
			goto overlap;
	}
	return 0;
overlap:
	printk("insmod: %s: section %s overlaps another section or the "
	       "headers in the file\n", img->name, elf_section_name(ef, i));
	return -ENOEXEC;
}

static int check_sections(const struct module_image *img)
{
	int err;

	for (unsigned int i = 1; i < img->ef.shnum; i++) {
		err = check_section_kind(img, i);
		if (!err)
			err = check_section_place(img, i);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Symbols                                                             */

static int bad_symbol(const struct module_image *img, unsigned int i,
		      const char *why)
{
	printk("insmod: %s: symbol %u ('%s') %s\n", img->name, i,
	       elf_symbol_name(&img->ef, &img->ef.syms[i]), why);
	return -ENOEXEC;
}

/* Where a defined symbol of kind type may be; NULL when it may. */
static const char *misplaced(const struct module_image *img,
			     const struct elf32_sym *s)
{
	const struct elf32_shdr *sh = elf_section(&img->ef, s->st_shndx);

	switch (ELF32_ST_TYPE(s->st_info)) {
	case STT_SECTION:
		return s->st_value ? "is a section symbol with a value" : NULL;
	case STT_FUNC:
		if (!(sh->sh_flags & SHF_EXECINSTR))
			return "is a function outside code";
		if (s->st_value % img->arch->func_align)
			return "is a misaligned (or Thumb) function";
		return NULL;
	}
	return NULL;
}

static int check_symbol(const struct module_image *img, unsigned int i)
{
	const struct elf32_sym *s = &img->ef.syms[i];
	unsigned int bind = ELF32_ST_BIND(s->st_info);
	unsigned int type = ELF32_ST_TYPE(s->st_info);
	bool local = i < elf_section(&img->ef, img->ef.symtab_index)->sh_info;

	if (s->st_shndx == SHN_COMMON)
		return bad_symbol(img, i, "is common (build with -fno-common)");
	/* ELF puts every local symbol before the first global one. */
	if (local ? bind != STB_LOCAL :
		    (bind != STB_GLOBAL && bind != STB_WEAK))
		return bad_symbol(img, i, "has a binding out of its place");
	if (type > STT_FILE || s->st_other & ~3u)
		return bad_symbol(img, i, "has an unknown type");
	if (s->st_shndx == SHN_UNDEF)
		return local || type == STT_SECTION || type == STT_FILE ?
			       bad_symbol(img, i, "is an undefined local") : 0;
	if (s->st_shndx == SHN_ABS)
		return type == STT_SECTION || type == STT_FUNC ?
			       bad_symbol(img, i, "is absolute code") : 0;
	if (type == STT_FILE)
		return bad_symbol(img, i, "is a file name in a section");
	if (misplaced(img, s))
		return bad_symbol(img, i, misplaced(img, s));
	return 0;
}

static int check_symbols(const struct module_image *img)
{
	static const struct elf32_sym none;
	int err;

	if (memcmp(&img->ef.syms[0], &none, sizeof(none)))
		return bad_symbol(img, 0, "is not the null symbol");
	for (unsigned int i = 1; i < img->ef.nsyms; i++) {
		err = check_symbol(img, i);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Relocation tables                                                   */

static int bad_reloc(const struct module_image *img, unsigned int idx,
		     unsigned int i, const struct elf_reloc *r,
		     const char *why)
{
	printk("insmod: %s: relocation %u of %s (type %u at 0x%x, symbol "
	       "%u) %s\n", img->name, i, elf_section_name(&img->ef, idx),
	       r->type, r->offset, r->sym, why);
	return -ENOEXEC;
}

/*
 * Does the in-place addend keep the relocation near its symbol? The
 * compiler writes an address inside the symbol's section, or a little
 * before it: the PC bias of a call (-4 on i386, -8 on ARM) or the
 * container_of() of a list head (list_for_each_entry() compares with
 * head minus its offset in the entry); from an undefined symbol also a
 * member's offset. A relocation moved onto other bytes reads opcodes
 * as its addend: mostly far off, which this refuses.
 */
static bool addend_in_reach(const struct module_image *img,
			    const struct elf_reloc *r,
			    const struct elf32_sym *sym, const u8 *loc)
{
	s64 a = img->arch->addend(r->type, loc);

	if (sym->st_shndx == SHN_ABS)
		return true;
	if (sym->st_shndx == SHN_UNDEF)
		return a >= -MODULE_REACH_BEFORE &&
		       a <= MODULE_REACH_PAST_UNDEF;
	a += sym->st_value;
	return a >= -MODULE_REACH_BEFORE &&
	       a <= (s64)elf_section(&img->ef, sym->st_shndx)->sh_size;
}

/* Does a branch go to code (or to a symbol of the kernel's)? */
static bool branch_to_code(const struct elf_file *ef, unsigned int target,
			   const struct elf32_sym *sym)
{
	if (!(elf_section(ef, target)->sh_flags & SHF_EXECINSTR))
		return true;	/* i386 .long sym - . in data */
	return sym->st_shndx == SHN_UNDEF ||
	       (sym->st_shndx != SHN_ABS &&
		(elf_section(ef, sym->st_shndx)->sh_flags & SHF_EXECINSTR));
}

/* Its symbol: there, loaded, reached as the compiler reaches it. */
static int check_reloc_symbol(const struct module_image *img,
			      unsigned int idx, unsigned int i,
			      const struct elf_reloc *r,
			      const struct module_reloc_type *t)
{
	const struct elf_file *ef = &img->ef;
	unsigned int target = elf_section(ef, idx)->sh_info;
	const struct elf32_sym *sym = &ef->syms[r->sym];
	const u8 *loc = (const u8 *)elf_section_data(ef, target) + r->offset;

	if (r->sym == 0)
		return bad_reloc(img, idx, i, r, "has no symbol");
	if (sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS &&
	    !is_loaded(ef, sym->st_shndx)) {
		printk("insmod: %s: relocation in %s against section %s, "
		       "which is not loaded\n", img->name,
		       elf_section_name(ef, idx),
		       elf_section_name(ef, sym->st_shndx));
		return -ENOEXEC;
	}
	if (t->branch && !branch_to_code(ef, target, sym))
		return bad_reloc(img, idx, i, r, "branches to data");
	if (!addend_in_reach(img, r, sym, loc))
		return bad_reloc(img, idx, i, r, "has an addend far from its "
				 "symbol");
	return 0;
}

/* Entry i of table idx, which patches the loaded section target. */
static int check_reloc(const struct module_image *img, unsigned int idx,
		       unsigned int i, u32 *next)
{
	const struct elf_file *ef = &img->ef;
	unsigned int target = elf_section(ef, idx)->sh_info;
	u32 target_size = elf_section(ef, target)->sh_size;
	struct module_reloc_type t;
	struct elf_reloc r;

	elf_reloc_get(ef, idx, i, &r);
	if (!img->arch->describe(r.type, &t)) {
		printk("insmod: %s: unknown relocation type %u (%s_*) in %s\n",
		       img->name, r.type, img->arch->type_prefix,
		       elf_section_name(ef, idx));
		return -ENOEXEC;
	}
	if (t.size == 0)
		return 0;
	if (r.offset < *next)
		return bad_reloc(img, idx, i, &r, "overlaps or precedes the "
				 "previous one");
	if (r.offset > target_size || t.size > target_size - r.offset ||
	    r.offset % t.align)
		return bad_reloc(img, idx, i, &r, "patches outside its section "
				 "or misaligned");
	*next = r.offset + t.size;
	return check_reloc_symbol(img, idx, i, &r, &t);
}

/* Is REL table idx named after its target, as the assembler names it? */
static bool named_after_target(const struct elf_file *ef, unsigned int idx)
{
	const char *name = elf_section_name(ef, idx);

	return strncmp(name, ".rel", 4) == 0 &&
	       strcmp(name + 4,
		      elf_section_name(ef, elf_section(ef, idx)->sh_info)) == 0;
}

static int check_reloc_table(const struct module_image *img, unsigned int idx)
{
	const struct elf_file *ef = &img->ef;
	unsigned int target = elf_section(ef, idx)->sh_info;
	u32 next = 0;
	int err;

	if (!named_after_target(ef, idx)) {
		printk("insmod: %s: relocation table %s applies to section %s "
		       "(sh_info %u), not its namesake\n", img->name,
		       elf_section_name(ef, idx), elf_section_name(ef, target),
		       target);
		return -ENOEXEC;
	}
	for (unsigned int j = 1; j < idx; j++) {
		if (elf_section(ef, j)->sh_type == SHT_REL &&
		    elf_section(ef, j)->sh_info == target) {
			printk("insmod: %s: two relocation tables for %s\n",
			       img->name, elf_section_name(ef, target));
			return -ENOEXEC;
		}
	}
	if (is_ignored_target(ef, target))
		return 0;
	if (!is_loaded(ef, target)) {
		printk("insmod: %s: relocation table %s applies to section %s, "
		       "which is not loaded\n", img->name,
		       elf_section_name(ef, idx), elf_section_name(ef, target));
		return -ENOEXEC;
	}
	for (unsigned int i = 0; i < elf_reloc_count(ef, idx); i++) {
		err = check_reloc(img, idx, i, &next);
		if (err)
			return err;
	}
	return 0;
}

static int check_reloc_tables(const struct module_image *img)
{
	int err;

	for (unsigned int i = 1; i < img->ef.shnum; i++) {
		if (elf_section(&img->ef, i)->sh_type != SHT_REL)
			continue;
		err = check_reloc_table(img, i);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The name                                                            */

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

static int check_name(struct module_image *img)
{
	const char *name = module_info(&img->ef, "name");
	size_t len = name ? strnlen(name, MODULE_NAME_MAX) : 0;

	if (!len || len >= MODULE_NAME_MAX) {
		printk("insmod: %s: no module name (or one over %d "
		       "characters) in .modinfo\n", img->name,
		       MODULE_NAME_MAX - 1);
		return -ENOEXEC;
	}
	for (size_t i = 0; i < len; i++) {
		if (!is_name_char(name[i])) {
			printk("insmod: %s: module name '%s' has characters "
			       "other than letters, digits, _ and -\n",
			       img->name, name);
			return -ENOEXEC;
		}
	}
	img->name = name;
	return 0;
}

int module_check_image(struct module_image *img)
{
	int err = check_sections(img);

	if (!err)
		err = check_symbols(img);
	if (!err)
		err = check_reloc_tables(img);
	if (!err)
		err = check_name(img);
	return err;
}

/* ------------------------------------------------------------------ */
/* Layout                                                              */

/* Appends len bytes aligned to align to area a; their offset in *off. */
static int grow(struct module_image *img, struct module_place *a, u32 len,
		u32 align, u32 *off)
{
	u32 start = ALIGN(a->size, max(align, (u32)MODULE_MIN_ALIGN));

	/* a->size <= MODULE_MAX_AREA and align <= 4096: start cannot wrap. */
	if (start > MODULE_MAX_AREA || len > MODULE_MAX_AREA - start) {
		printk("insmod: %s: the module needs over %u bytes\n",
		       img->name, MODULE_MAX_AREA);
		return -ENOEXEC;
	}
	*off = start;
	a->size = start + len;
	return 0;
}

/* Code, read-only data, data, then .bss: in that order in each area. */
static bool in_pass(const struct elf32_shdr *sh, int pass)
{
	bool exec = sh->sh_flags & SHF_EXECINSTR;
	bool write = sh->sh_flags & SHF_WRITE;
	bool nobits = sh->sh_type == SHT_NOBITS;

	switch (pass) {
	case 0:
		return exec;
	case 1:
		return !exec && !write;
	case 2:
		return !exec && write && !nobits;
	default:
		return !exec && write && nobits;
	}
}

static enum module_area_id area_of(const struct elf_file *ef, unsigned int i)
{
	return is_init_section(elf_section_name(ef, i)) ? MODULE_AREA_INIT :
							  MODULE_AREA_CORE;
}

static int place_sections(struct module_image *img)
{
	const struct elf_file *ef = &img->ef;
	int err;

	for (int pass = 0; pass < 4; pass++) {
		for (unsigned int i = 1; i < ef->shnum; i++) {
			const struct elf32_shdr *sh = elf_section(ef, i);
			enum module_area_id a = area_of(ef, i);

			if (!is_loaded(ef, i) || !in_pass(sh, pass))
				continue;
			err = grow(img, &img->area[a], sh->sh_size,
				   sh->sh_addralign, &img->sec_off[i]);
			if (err)
				return err;
			img->sec_area[i] = a;
		}
	}
	return 0;
}

/* The arch's space for the relocation tables applied in each area. */
static int place_extra(struct module_image *img)
{
	const struct elf_file *ef = &img->ef;
	u32 extra[MODULE_AREAS] = { 0 };
	int err;

	for (unsigned int i = 1; i < ef->shnum; i++) {
		unsigned int a;
		u32 more;

		if (elf_section(ef, i)->sh_type != SHT_REL)
			continue;
		a = img->sec_area[elf_section(ef, i)->sh_info];
		if (!a)
			continue;
		more = img->arch->extra(ef, i);
		if (more > MODULE_MAX_AREA - extra[a])
			more = MODULE_MAX_AREA;	/* grow() refuses it */
		extra[a] += more;
	}
	for (unsigned int a = MODULE_AREA_CORE; a < MODULE_AREAS; a++) {
		img->area[a].extra_size = extra[a];
		err = grow(img, &img->area[a], extra[a], 8,
			   &img->area[a].extra_off);
		if (err)
			return err;
	}
	return 0;
}

int module_layout(struct module_image *img, u32 tail)
{
	int err = place_sections(img);

	if (!err)
		err = place_extra(img);
	if (!err)
		err = grow(img, &img->area[MODULE_AREA_CORE], tail, 8,
			   &img->tail_off);
	return err;
}

void module_copy_sections(struct module_image *img)
{
	const struct elf_file *ef = &img->ef;

	for (unsigned int i = 1; i < ef->shnum; i++) {
		const struct elf32_shdr *sh = elf_section(ef, i);
		unsigned int a = img->sec_area[i];

		if (a && sh->sh_type != SHT_NOBITS)
			memcpy(img->area[a].base + img->sec_off[i],
			       elf_section_data(ef, i), sh->sh_size);
	}
}
