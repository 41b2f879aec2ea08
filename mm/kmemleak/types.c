/*
 * Typed blocks: the collector knows what a pointer is.
 *
 * A block allocated with kmalloc_obj() or from a KMEM_CACHE_TYPED()
 * cache carries its type (<kernel/memleak_type.h>): a descriptor that
 * says which fields hold pointers. The scan reads such a block at those
 * fields only (precise), so that an address kept in an integer field no
 * longer keeps a leaked block alive; roots and untyped blocks are still
 * read conservatively, every word. While it reads a typed pointer field
 * during the main pass, the scan also checks what it points to:
 *
 *   wrong type  a PTR field points to a block of another known type, or
 *               a LIST field to a list_head of another list;
 *   inside      it points into a typed block, not at the start (PTR) or
 *               at a list_head of its list (LIST);
 *   freed       it points to a free slab object of a tracked cache: a
 *               dangling pointer, a use after free waiting to happen.
 *
 * Each such pointer is a finding, confirmed after the scan with the
 * per-CPU logs flushed (a block allocated during the scan may still wait
 * in a log and look free) and printed by 'memleak' with the allocation
 * traces of both blocks. 'memleak typed=off' scans every block
 * conservatively and checks nothing, to compare.
 *
 * Locking: the scan's functions run under memleak_lock; the findings
 * are the running scan's (it is claimed), confirmed and printed by its
 * caller.
 */
#include <kernel/memleak.h>
#include <kernel/kallsyms.h>
#include <kernel/list.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include "internal.h"

#define MAX_TYPES 255
#define MAX_FINDINGS 16

u8 memleak_type_id(const struct memleak_type *type, size_t size)
{
	unsigned long i;

	if (!type || type < __start_memleak_types ||
	    type >= __stop_memleak_types || size < type->size)
		return 0;
	i = type - __start_memleak_types;
	return i < MAX_TYPES ? (u8)(i + 1) : 0;
}

/* The descriptor of a type id; NULL for none, or while typed scanning is off. */
static const struct memleak_type *type_of_id(u8 id)
{
	if (!id || !memleak.typed)
		return NULL;
	return &__start_memleak_types[id - 1];
}

bool memleak_reads_word(const struct memleak_block *b, unsigned long offset)
{
	const struct memleak_type *type = memleak_block_type(b);

	if (!type || offset >= type->size)
		return true;
	for (unsigned int i = 0; i < type->nr_fields; i++) {
		const struct memleak_field *f = &type->fields[i];

		if (offset - f->offset < f->size)
			return f->kind != MEMLEAK_FIELD_DATA;
	}
	return false;	/* padding between fields */
}

/* ------------------------------------------------------------------ */
/* Findings                                                            */

enum finding_kind { WRONG_TYPE, INSIDE, FREED };

/*
 * A pointer field that points where its type says it may not. Only
 * addresses, kept out of the roots: a finding must not keep either
 * block alive. The traces are taken when it is confirmed.
 */
struct type_finding {
	enum finding_kind kind;
	unsigned long owner;		/* the typed block holding the field */
	size_t owner_size;
	const struct memleak_type *owner_type;
	const struct memleak_field *field;
	unsigned int word;		/* of the field (a list_head has two) */
	unsigned long value;
	unsigned long target;		/* the block it points into; 0: freed */
	size_t target_size;
	const struct memleak_type *target_type;	/* NULL: untyped */
	struct memleak_trace *owner_trace, *target_trace;	/* confirmed */
};

static struct type_finding findings[MAX_FINDINGS] __memleak_noscan;
static unsigned int nr_findings;
/* Found beyond MAX_FINDINGS: counted, not kept. */
static unsigned long nr_lost;

static void drop_traces(struct type_finding *f)
{
	if (f->owner_trace)
		memleak_trace_put(f->owner_trace);
	if (f->target_trace)
		memleak_trace_put(f->target_trace);
	f->owner_trace = f->target_trace = NULL;
}

void memleak_types_new_scan(void)
{
	for (unsigned int i = 0; i < nr_findings; i++)
		drop_traces(&findings[i]);
	memset(findings, 0, sizeof(findings));
	nr_findings = 0;
	nr_lost = 0;
	memleak.nr_type_findings = 0;
	memleak.bytes_precise = memleak.bytes_skipped = 0;
}

/*
 * A new finding; the block value points into is looked up here (the
 * check read the index only), and when there is none after all (value
 * past the end of a block smaller than its slab object) nothing is
 * recorded.
 */
static void record(enum finding_kind kind, const struct memleak_block *owner,
		   const struct memleak_type *type,
		   const struct memleak_field *field, unsigned int word,
		   unsigned long value)
{
	const struct memleak_block *target = NULL;
	struct type_finding *f;

	if (kind != FREED) {
		target = memleak_index_find(value);
		if (!target)
			return;
	}

	for (unsigned int i = 0; i < nr_findings; i++)
		if (findings[i].owner == block_start(owner) &&
		    findings[i].field == field && findings[i].word == word)
			return;	/* seen again: a block rescanned */
	if (nr_findings == MAX_FINDINGS) {
		nr_lost++;
		return;
	}
	f = &findings[nr_findings++];
	*f = (struct type_finding){
		.kind = kind,
		.owner = block_start(owner),
		.owner_size = block_size(owner),
		.owner_type = type,
		.field = field,
		.word = word,
		.value = value,
		.target = target ? block_start(target) : 0,
		.target_size = target ? block_size(target) : 0,
		.target_type = target ? memleak_block_type(target) : NULL,
	};
}

/* ------------------------------------------------------------------ */
/* Checks                                                              */

/* Whether type has a list_head at off on the list that field is on. */
static bool on_same_list(const struct memleak_type *type, unsigned long off,
			 const struct memleak_field *field)
{
	for (unsigned int i = 0; i < type->nr_fields; i++) {
		const struct memleak_field *f = &type->fields[i];

		if (f->kind == MEMLEAK_FIELD_LIST && f->offset == off &&
		    f->target == field->target && f->member == field->member)
			return true;
	}
	return false;
}

/*
 * What is wrong with value, a word of a PTR or LIST field, or -1 when
 * nothing is. The block it points into is known from the index and its
 * slot's record (memleak_index_peek(): its start and type, no range
 * check), the one miss on a random heap. A value in no
 * block may point to a free slab object (one freed while it still
 * waited in a log never grew the blocks' bounds): else it is a global,
 * a stack address, list poison, NULL.
 */
static int check_value(const struct memleak_field *field, unsigned long value)
{
	const struct memleak_type *type;
	unsigned long start, off;
	u8 id;

	if (!value)
		return -1;
	if (!memleak_in_bounds(value) || !memleak_index_peek(value, &start, &id))
		return slab_object_looks_free((void *)value) ? FREED : -1;
	type = type_of_id(id);
	if (!type)
		return -1;	/* an untyped block: nothing is known of it */
	off = value - start;
	if (field->kind == MEMLEAK_FIELD_PTR) {
		if (type != field->target)
			return WRONG_TYPE;
		return off ? INSIDE : -1;
	}
	if (on_same_list(type, off, field))
		return -1;
	return type == field->target || on_same_list(type, 0, field) ? INSIDE :
								       WRONG_TYPE;
}

static void check_field(struct memleak_block *b, unsigned long start,
			const struct memleak_type *type,
			const struct memleak_field *field)
{
	const unsigned long *words =
		(const unsigned long *)(start + field->offset);
	unsigned int n = field->size / sizeof(long);

	for (unsigned int i = 0; i < n; i++) {
		int kind = check_value(field, words[i]);

		if (kind >= 0)
			record(kind, b, type, field, i, words[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Scanning                                                            */

bool memleak_scan_typed_block(struct memleak_block *b, unsigned long start,
			      const struct memleak_type *type,
			      unsigned long *flags)
{
	for (unsigned int i = 0; i < type->nr_fields; i++) {
		const struct memleak_field *f = &type->fields[i];
		unsigned long from = start + f->offset;

		if (f->kind == MEMLEAK_FIELD_DATA) {
			if (!memleak.confirming)
				memleak.bytes_skipped += f->size;
			continue;
		}
		if (f->kind != MEMLEAK_FIELD_ANY && !memleak.confirming) {
			memleak.bytes_precise += f->size;
			check_field(b, start, type, f);
		}
		if (!memleak_scan_words(from, from + f->size, b, flags))
			return false;
	}
	/* Past the type (a flexible array, a larger kmalloc): every word. */
	return memleak_scan_words(start + type->size, start + block_size(b), b,
				  flags);
}

/* ------------------------------------------------------------------ */
/* Confirming and printing                                             */

/*
 * Whether f still holds: its block still allocated with its type, the
 * field still holding the value, the check still failing the same way.
 * memleak_lock held; takes the traces.
 */
static bool still_holds(struct type_finding *f)
{
	struct memleak_block *owner = memleak_index_find(f->owner);
	struct memleak_block *target = memleak_index_find(f->value);
	const unsigned long *word;

	if (!owner || block_start(owner) != f->owner ||
	    memleak_block_type(owner) != f->owner_type)
		return false;
	word = (const unsigned long *)(f->owner + f->field->offset) + f->word;
	if (*word != f->value || check_value(f->field, f->value) != (int)f->kind ||
	    (f->kind != FREED && !target))
		return false;
	f->owner_trace = block_trace(owner);
	memleak_trace_get(f->owner_trace);
	if (target) {
		f->target_trace = block_trace(target);
		memleak_trace_get(f->target_trace);
	}
	return true;
}

void memleak_types_confirm(void)
{
	unsigned long flags;
	unsigned int kept = 0;

	if (!nr_findings)
		return;
	memleak_flush_pending();
	memleak_enter(&flags);
	for (unsigned int i = 0; i < nr_findings; i++)
		if (still_holds(&findings[i]))
			findings[kept++] = findings[i];
	nr_findings = kept;
	memleak.nr_type_findings = kept + nr_lost;
	memleak_leave(flags);
}

static const char *const kind_text[] = {
	[WRONG_TYPE] = "type mismatch",
	[INSIDE] = "pointer into a block",
	[FREED] = "dangling pointer",
};

static void print_trace(const char *what, const struct memleak_trace *t)
{
	char frame[KSYM_PRINT_MAX];

	printk("  %s:\n", what);
	for (unsigned int i = 0; t && i < t->nr_entries; i++) {
		if (!kallsyms_snprint(frame, sizeof(frame), t->entries[i]))
			snprintf(frame, sizeof(frame), "0x%08lx", t->entries[i]);
		printk("    [<%08lx>] %s\n", t->entries[i], frame);
	}
}

/* "struct lt_pair.link.prev" for the word-th word of f. */
static void field_name(const struct type_finding *f, char *buf, size_t len)
{
	static const char *const list_words[] = { "next", "prev" };

	if (f->field->kind == MEMLEAK_FIELD_LIST)
		snprintf(buf, len, "%s.%s.%s", f->owner_type->name,
			 f->field->name, list_words[f->word & 1]);
	else
		snprintf(buf, len, "%s.%s", f->owner_type->name,
			 f->field->name);
}

static void print_finding(const struct type_finding *f)
{
	const char *expected = f->field->target->name;
	char name[96];

	field_name(f, name, sizeof(name));
	printk("memleak: %s: %s at 0x%08lx -> ", kind_text[f->kind], name,
	       f->owner + f->field->offset + f->word * sizeof(long));
	if (f->kind == FREED)
		printk("freed object 0x%08lx (%s expected)\n", f->value,
		       expected);
	else if (f->kind == WRONG_TYPE)
		printk("%s 0x%08lx+0x%lx (size %zu; %s expected)\n",
		       f->target_type->name, f->target, f->value - f->target,
		       f->target_size, expected);
	else
		printk("0x%08lx, inside %s 0x%08lx (size %zu) at +0x%lx\n",
		       f->value, f->target_type->name, f->target,
		       f->target_size, f->value - f->target);
	printk("  in %s 0x%08lx (size %zu)\n", f->owner_type->name, f->owner,
	       f->owner_size);
	print_trace("its backtrace", f->owner_trace);
	if (f->target_trace)
		print_trace("the target's backtrace", f->target_trace);
}

/*
 * Printed from a copy taken under the lock, with its own references on
 * the traces: a scan may start meanwhile and forget the findings.
 */
unsigned long memleak_print_type_findings(void)
{
	struct type_finding copy[MAX_FINDINGS];
	unsigned long flags, lost;
	unsigned int n;

	memleak_enter(&flags);
	n = nr_findings;
	lost = nr_lost;
	memcpy(copy, findings, n * sizeof(copy[0]));
	for (unsigned int i = 0; i < n; i++) {
		if (copy[i].owner_trace)
			memleak_trace_get(copy[i].owner_trace);
		if (copy[i].target_trace)
			memleak_trace_get(copy[i].target_trace);
	}
	memleak_leave(flags);
	for (unsigned int i = 0; i < n; i++)
		print_finding(&copy[i]);
	if (lost)
		printk("memleak: %lu more pointer findings not kept (at most %d)\n",
		       lost, MAX_FINDINGS);
	memleak_enter(&flags);
	for (unsigned int i = 0; i < n; i++)
		drop_traces(&copy[i]);
	memleak_leave(flags);
	task_wipe_dead_stack();
	return n;
}

/* ------------------------------------------------------------------ */
/* Commands                                                            */

/* Live blocks of each type id (0: untyped), from the last census. */
static unsigned long census_blocks[MAX_TYPES + 1];
static unsigned long census_bytes[MAX_TYPES + 1];

static void count_block(struct memleak_block *b, unsigned long start, void *ctx)
{
	(void)start;
	(void)ctx;
	if (!(b->flags & MEMLEAK_ALLOCATED) || block_is_black(b))
		return;
	census_blocks[block_type_id(b)]++;
	census_bytes[block_type_id(b)] += block_size(b);
}

/* Counts the blocks scanned as blocks (not ignored) by type. */
static void take_census(void)
{
	memleak_flush_pending();
	memset(census_blocks, 0, sizeof(census_blocks));
	memset(census_bytes, 0, sizeof(census_bytes));
	memleak_walk_blocks(count_block, NULL);
}

void memleak_print_typed_share(void)
{
	unsigned long n = 0, bytes = 0;

	take_census();
	for (unsigned int i = 1; i <= MAX_TYPES; i++) {
		n += census_blocks[i];
		bytes += census_bytes[i];
	}
	printk("typed blocks:   %lu of %lu (%lu of %lu bytes)\n", n,
	       n + census_blocks[0], bytes, bytes + census_bytes[0]);
}

/* 'memleak typed on|off': typed blocks scanned by type, or whole. */
static int cmd_typed(int argc, char **argv)
{
	unsigned long flags;
	bool on;

	(void)argc;
	if (strcmp(argv[1], "on") && strcmp(argv[1], "off")) {
		printk("memleak typed: '%s' is not on or off\n", argv[1]);
		return 1;
	}
	on = strcmp(argv[1], "on") == 0;
	memleak_enter(&flags);
	memleak.typed = on;
	memleak_leave(flags);
	printk("memleak: typed scanning %s\n", argv[1]);
	return 0;
}

static const char *const field_kind_text[] = {
	[MEMLEAK_FIELD_DATA] = "data",
	[MEMLEAK_FIELD_ANY] = "any",
	[MEMLEAK_FIELD_PTR] = "ptr",
	[MEMLEAK_FIELD_LIST] = "list",
};

static void print_type(const struct memleak_type *t)
{
	u8 id = memleak_type_id(t, t->size);

	printk("%s (%u bytes, type %u): %lu blocks live\n", t->name, t->size,
	       id, census_blocks[id]);
	for (unsigned int i = 0; i < t->nr_fields; i++) {
		const struct memleak_field *f = &t->fields[i];

		printk("  +%-4u %-5s %-16s", f->offset, field_kind_text[f->kind],
		       f->name);
		if (f->kind == MEMLEAK_FIELD_PTR)
			printk(" -> %s", f->target->name);
		else if (f->kind == MEMLEAK_FIELD_LIST)
			printk(" list of %s at +%u", f->target->name, f->member);
		else
			printk(" %u bytes", f->size);
		printk("\n");
	}
}

/* 'memleak types [NAME]': the descriptors, or the one named. */
static int cmd_types(int argc, char **argv)
{
	const struct memleak_type *t;
	unsigned int n = 0;

	take_census();
	for (t = __start_memleak_types; t < __stop_memleak_types; t++) {
		if (argc == 2 && strcmp(t->name + strlen("struct "), argv[1]) &&
		    strcmp(t->name, argv[1]))
			continue;
		print_type(t);
		n++;
	}
	if (argc == 2 && !n) {
		printk("memleak types: no type '%s'\n", argv[1]);
		return 1;
	}
	printk("memleak: %u type%s\n", n, n == 1 ? "" : "s");
	return 0;
}

MEMLEAK_COMMAND("typed", cmd_typed, 1, 1, "on|off",
		"scan typed blocks at their pointer fields (else: whole)");
MEMLEAK_COMMAND("types", cmd_types, 0, 1, "[NAME]",
		"the type descriptors (MEMLEAK_TYPE), or one");
