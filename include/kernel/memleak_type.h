/*
 * Type descriptors for the leak collector's precise scanning: which
 * fields of a struct are pointers and what they point to, checked by
 * the compiler, so that the collector reads a typed block at its
 * pointer fields only and checks what each one points to
 * (mm/kmemleak/types.c, docs/memleak.md "Typed blocks").
 *
 *   MEMLEAK_TYPE(lt_pair,
 *           MEMLEAK_PTR(left, lt_node),       struct lt_node *left;
 *           MEMLEAK_DATA_TO(key, hash),       unsigned long key; u32 hash;
 *           MEMLEAK_ANY(cookie),              void *cookie;
 *           MEMLEAK_LIST(link, lt_pair, link)); struct list_head link;
 *
 * describes struct lt_pair. Every field must be listed, in order: the
 * compiler checks that each entry starts where the one before it ends
 * (give or take alignment), so a forgotten field is a build error, and
 * that each PTR field has the type it names, each LIST field is a
 * struct list_head. A block gets its type from kmalloc_obj() or a
 * cache made with KMEM_CACHE_TYPED() (<kernel/slab.h>).
 *
 * The entries:
 *   MEMLEAK_DATA(f)          no pointer to the heap in f: never read
 *   MEMLEAK_DATA_TO(f, l)    the same, for the fields from f to l
 *   MEMLEAK_ANY(f)           f (a pointer, or a struct holding some) is
 *                            read conservatively, every word of it
 *   MEMLEAK_PTR(f, tag)      f is a struct tag *: it points to the start
 *                            of a struct tag block, or outside the heap
 *   MEMLEAK_LIST(f, tag, m)  f is a struct list_head on a list of
 *                            struct tag linked through member m
 *
 * Descriptors live in the linker section "memleak_types", where a
 * block's type id (one byte) finds them; a module's are not registered,
 * so its typed blocks are scanned conservatively. No locking: all of
 * it is constant.
 */
#ifndef KERNEL_MEMLEAK_TYPE_H
#define KERNEL_MEMLEAK_TYPE_H

#include <stddef.h>
#include <kernel/compiler.h>

enum memleak_field_kind {
	MEMLEAK_FIELD_DATA,
	MEMLEAK_FIELD_ANY,
	MEMLEAK_FIELD_PTR,
	MEMLEAK_FIELD_LIST,
};

struct memleak_type;

struct memleak_field {
	const char *name;
	unsigned short offset;
	unsigned short size;
	unsigned short kind;		/* enum memleak_field_kind */
	unsigned short member;		/* LIST: the list_head's offset in target */
	const struct memleak_type *target;	/* PTR, LIST */
};

struct memleak_type {
	const char *name;		/* "struct lt_pair" */
	unsigned int size;
	unsigned int nr_fields;
	const struct memleak_field *fields;
};

/* Each entry is a tuple: (kind, first field, last field, target, member). */
#define MEMLEAK_DATA(f) (DATA, f, f, , )
#define MEMLEAK_DATA_TO(f, l) (DATA, f, l, , )
#define MEMLEAK_ANY(f) (ANY, f, f, , )
#define MEMLEAK_PTR(f, tag) (PTR, f, f, tag, )
#define MEMLEAK_LIST(f, tag, m) (LIST, f, f, tag, m)

/* Calls m(T, kind, first, last, target, member) with an entry's parts. */
#define __mlt_unpack(...) __VA_ARGS__
#define __mlt_call(m, T, ...) m(T, __VA_ARGS__)
#define __mlt_apply(m, T, e) __mlt_call(m, T, __mlt_unpack e)

#define __mlt_first(T, kind, f, l, tag, m) f
#define __mlt_last(T, kind, f, l, tag, m) l
#define __mlt_member(T, f) (((struct T *)0)->f)
#define __mlt_end(T, f) (offsetof(struct T, f) + sizeof(__mlt_member(T, f)))
#define __mlt_align(x, a) (((x) + (a) - 1) / (a) * (a))

/* The compiler's checks of one entry. */
#define __mlt_check(T, kind, f, l, tag, m) __mlt_check_##kind(T, f, l, tag, m)
#define __mlt_check_DATA(T, f, l, tag, m)                                  \
	_Static_assert(offsetof(struct T, l) >= offsetof(struct T, f),     \
		       "memleak type " #T ": " #l " comes before " #f);
#define __mlt_check_ANY(T, f, l, tag, m)                                   \
	_Static_assert(offsetof(struct T, f) % sizeof(void *) == 0 &&      \
			       sizeof(__mlt_member(T, f)) % sizeof(void *) == 0, \
		       "memleak type " #T ": " #f " cannot hold a pointer");
#define __mlt_check_PTR(T, f, l, tag, m)                                   \
	_Static_assert(__builtin_types_compatible_p(                       \
			       __typeof__(__mlt_member(T, f)), struct tag *), \
		       "memleak type " #T ": " #f " is not a struct " #tag " *");
#define __mlt_check_LIST(T, f, l, tag, m)                                  \
	_Static_assert(__builtin_types_compatible_p(                       \
			       __typeof__(__mlt_member(T, f)), struct list_head) && \
			       __builtin_types_compatible_p(               \
				       __typeof__(__mlt_member(tag, m)),   \
				       struct list_head),                  \
		       "memleak type " #T ": " #f " or " #tag "." #m       \
		       " is not a struct list_head");

/* Entry b starts where entry a ends: no field left out in between. */
#define __mlt_pair(T, a, b)                                                \
	_Static_assert(offsetof(struct T, __mlt_apply(__mlt_first, T, b)) == \
			       __mlt_align(__mlt_end(T, __mlt_apply(__mlt_last, T, a)), \
					   __alignof__(__mlt_member(       \
						   T, __mlt_apply(__mlt_first, T, b)))), \
		       "memleak type " #T ": a field is missing, or out of " \
		       "order, before " __stringify(__mlt_apply(__mlt_first, T, b)));
/* The first entry starts the struct, the last one ends it. */
#define __mlt_starts(T, a)                                                 \
	_Static_assert(offsetof(struct T, __mlt_apply(__mlt_first, T, a)) == 0, \
		       "memleak type " #T ": a field is missing at the start");
#define __mlt_ends(T, a)                                                   \
	_Static_assert(__mlt_align(__mlt_end(T, __mlt_apply(__mlt_last, T, a)), \
				   __alignof__(struct T)) == sizeof(struct T), \
		       "memleak type " #T ": a field is missing at the end");

/* One descriptor field per entry. */
#define __mlt_field(T, kind, f, l, tag, m) __mlt_field_##kind(T, f, l, tag, m)
#define __mlt_field_of(T, f, l, kind, member, target)                      \
	{ #f, offsetof(struct T, f), __mlt_end(T, l) - offsetof(struct T, f), \
	  kind, member, target },
#define __mlt_field_DATA(T, f, l, tag, m) \
	__mlt_field_of(T, f, l, MEMLEAK_FIELD_DATA, 0, NULL)
#define __mlt_field_ANY(T, f, l, tag, m) \
	__mlt_field_of(T, f, l, MEMLEAK_FIELD_ANY, 0, NULL)
#define __mlt_field_PTR(T, f, l, tag, m) \
	__mlt_field_of(T, f, l, MEMLEAK_FIELD_PTR, 0, &memleak_type_##tag)
#define __mlt_field_LIST(T, f, l, tag, m)                                  \
	__mlt_field_of(T, f, l, MEMLEAK_FIELD_LIST, offsetof(struct tag, m), \
		       &memleak_type_##tag)

/*
 * m(T, entry) for each entry, and m(T, a, b) for each two in a row
 * (ending with __mlt_ends() of the last): up to 16 entries; a longer
 * struct groups its plain fields with MEMLEAK_DATA_TO().
 */
#define __mlt_nth(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13,  \
		  _14, _15, _16, n, ...) n
#define __mlt_count(...) \
	__mlt_nth(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define __mlt_each(m, T, ...) \
	__concat(__mlt_each_, __mlt_count(__VA_ARGS__))(m, T, __VA_ARGS__)
#define __mlt_pairs(T, ...) \
	__concat(__mlt_pairs_, __mlt_count(__VA_ARGS__))(T, __VA_ARGS__)
#define __mlt_each_1(m, T, a) __mlt_apply(m, T, a)
#define __mlt_each_2(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_1(m, T, __VA_ARGS__)
#define __mlt_each_3(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_2(m, T, __VA_ARGS__)
#define __mlt_each_4(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_3(m, T, __VA_ARGS__)
#define __mlt_each_5(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_4(m, T, __VA_ARGS__)
#define __mlt_each_6(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_5(m, T, __VA_ARGS__)
#define __mlt_each_7(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_6(m, T, __VA_ARGS__)
#define __mlt_each_8(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_7(m, T, __VA_ARGS__)
#define __mlt_each_9(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_8(m, T, __VA_ARGS__)
#define __mlt_each_10(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_9(m, T, __VA_ARGS__)
#define __mlt_each_11(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_10(m, T, __VA_ARGS__)
#define __mlt_each_12(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_11(m, T, __VA_ARGS__)
#define __mlt_each_13(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_12(m, T, __VA_ARGS__)
#define __mlt_each_14(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_13(m, T, __VA_ARGS__)
#define __mlt_each_15(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_14(m, T, __VA_ARGS__)
#define __mlt_each_16(m, T, a, ...) __mlt_apply(m, T, a) __mlt_each_15(m, T, __VA_ARGS__)
#define __mlt_pairs_1(T, a) __mlt_ends(T, a)
#define __mlt_pairs_2(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_1(T, b, ##__VA_ARGS__)
#define __mlt_pairs_3(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_2(T, b, __VA_ARGS__)
#define __mlt_pairs_4(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_3(T, b, __VA_ARGS__)
#define __mlt_pairs_5(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_4(T, b, __VA_ARGS__)
#define __mlt_pairs_6(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_5(T, b, __VA_ARGS__)
#define __mlt_pairs_7(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_6(T, b, __VA_ARGS__)
#define __mlt_pairs_8(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_7(T, b, __VA_ARGS__)
#define __mlt_pairs_9(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_8(T, b, __VA_ARGS__)
#define __mlt_pairs_10(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_9(T, b, __VA_ARGS__)
#define __mlt_pairs_11(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_10(T, b, __VA_ARGS__)
#define __mlt_pairs_12(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_11(T, b, __VA_ARGS__)
#define __mlt_pairs_13(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_12(T, b, __VA_ARGS__)
#define __mlt_pairs_14(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_13(T, b, __VA_ARGS__)
#define __mlt_pairs_15(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_14(T, b, __VA_ARGS__)
#define __mlt_pairs_16(T, a, b, ...) __mlt_pair(T, a, b) __mlt_pairs_15(T, b, __VA_ARGS__)

/* Every check of a descriptor, made whether the collector is built or not. */
#define __MEMLEAK_TYPE_CHECKS(tag, first, ...)                             \
	__mlt_starts(tag, first)                                           \
	__mlt_each(__mlt_check, tag, first, ##__VA_ARGS__)                 \
	__mlt_pairs(tag, first, ##__VA_ARGS__)

#ifdef CONFIG_DEBUG_MEMLEAK

/* Makes memleak_type_<tag> known to a file that does not define it. */
#define MEMLEAK_DECLARE_TYPE(tag) \
	extern const struct memleak_type memleak_type_##tag

#define MEMLEAK_TYPE(tag, ...)                                             \
	__MEMLEAK_TYPE_CHECKS(tag, __VA_ARGS__)                            \
	MEMLEAK_DECLARE_TYPE(tag);                                         \
	static const struct memleak_field __memleak_fields_##tag[] = {     \
		__mlt_each(__mlt_field, tag, __VA_ARGS__)                  \
	};                                                                 \
	const struct memleak_type memleak_type_##tag __used                \
		__section("memleak_types") __aligned(sizeof(void *)) = {   \
			"struct " #tag, sizeof(struct tag),                \
			sizeof(__memleak_fields_##tag) /                   \
				sizeof(__memleak_fields_##tag[0]),         \
			__memleak_fields_##tag                             \
		}

/* The descriptor of struct tag, for the typed allocators. */
#define MEMLEAK_TYPE_OF(tag) (&memleak_type_##tag)

extern const struct memleak_type __start_memleak_types[];
extern const struct memleak_type __stop_memleak_types[];

#else

#define MEMLEAK_DECLARE_TYPE(tag) extern int __memleak_no_type_##tag
#define MEMLEAK_TYPE(tag, ...)                                             \
	__MEMLEAK_TYPE_CHECKS(tag, __VA_ARGS__)                            \
	MEMLEAK_DECLARE_TYPE(tag)
#define MEMLEAK_TYPE_OF(tag) ((const struct memleak_type *)NULL)

#endif /* CONFIG_DEBUG_MEMLEAK */

#endif
