/* Host tests for lib/fdt.c, on blobs built here and on one made by dtc. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include <kernel/fdt.h>
#include <kernel/string.h>

#define TOK_BEGIN_NODE	1
#define TOK_END_NODE	2
#define TOK_PROP	3
#define TOK_NOP		4
#define TOK_END		9

/* Header fields, by byte offset. */
#define H_MAGIC		0
#define H_TOTALSIZE	4
#define H_OFF_STRUCT	8
#define H_OFF_STRINGS	12
#define H_OFF_RSVMAP	16
#define H_VERSION	20
#define H_LAST_COMP	24
#define H_SIZE_STRINGS	32
#define H_SIZE_STRUCT	36

#define MAX_BLOB	4096

/*
 * A tiny blob builder: tokens go into st, property names into strs,
 * and finish() lays out header, reservation map, struct and strings.
 */
struct builder {
	u8 st[2048];
	size_t st_len;
	char strs[512];
	size_t str_len;
	u64 rsv[4][2];
	int nr_rsv;
	u32 version;
	u8 blob[MAX_BLOB];
	size_t size;
};

static void put32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put64(u8 *p, u64 v)
{
	put32(p, v >> 32);
	put32(p + 4, (u32)v);
}

static u32 get32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static void b_init(struct builder *b)
{
	memset(b, 0, sizeof(*b));
	b->version = 17;
}

static void b_raw(struct builder *b, const void *data, size_t len)
{
	assert_true(b->st_len + len + 3 < sizeof(b->st));
	memcpy(b->st + b->st_len, data, len);
	b->st_len += len;
	while (b->st_len % 4)
		b->st[b->st_len++] = 0;
}

static void b_token(struct builder *b, u32 tok)
{
	u8 cell[4];

	put32(cell, tok);
	b_raw(b, cell, 4);
}

static void b_begin(struct builder *b, const char *name)
{
	b_token(b, TOK_BEGIN_NODE);
	b_raw(b, name, strlen(name) + 1);
}

static void b_end(struct builder *b)
{
	b_token(b, TOK_END_NODE);
}

static u32 b_string(struct builder *b, const char *name)
{
	size_t len = strlen(name) + 1;
	size_t off;

	for (off = 0; off < b->str_len; off += strlen(b->strs + off) + 1)
		if (!strcmp(b->strs + off, name))
			return off;
	assert_true(b->str_len + len <= sizeof(b->strs));
	memcpy(b->strs + b->str_len, name, len);
	b->str_len += len;
	return off;
}

static void b_prop_at(struct builder *b, u32 nameoff, const void *val,
		      size_t len)
{
	u8 hdr[8];

	b_token(b, TOK_PROP);
	put32(hdr, len);
	put32(hdr + 4, nameoff);
	b_raw(b, hdr, 8);
	if (len)
		b_raw(b, val, len);
}

static void b_prop(struct builder *b, const char *name, const void *val,
		   size_t len)
{
	b_prop_at(b, b_string(b, name), val, len);
}

static void b_prop_str(struct builder *b, const char *name, const char *s)
{
	b_prop(b, name, s, strlen(s) + 1);
}

static void b_prop_cells(struct builder *b, const char *name, int n, ...)
{
	u8 val[64];
	va_list ap;
	int i;

	assert_true(n <= 16);
	va_start(ap, n);
	for (i = 0; i < n; i++)
		put32(val + 4 * i, va_arg(ap, u32));
	va_end(ap);
	b_prop(b, name, val, 4 * n);
}

static void b_rsv(struct builder *b, u64 base, u64 size)
{
	b->rsv[b->nr_rsv][0] = base;
	b->rsv[b->nr_rsv][1] = size;
	b->nr_rsv++;
}

/* Lays the blob out the way dtc does and returns its size. */
static size_t b_finish(struct builder *b)
{
	size_t hdr_len = b->version >= 17 ? 40 : 36;
	size_t rsv_off = (hdr_len + 7) & ~7u;
	size_t st_off = rsv_off + 16 * (b->nr_rsv + 1);
	size_t str_off = st_off + b->st_len;
	int i;

	b->size = str_off + b->str_len;
	assert_true(b->size <= MAX_BLOB);
	memset(b->blob, 0, sizeof(b->blob));
	put32(b->blob + H_MAGIC, FDT_MAGIC);
	put32(b->blob + H_TOTALSIZE, b->size);
	put32(b->blob + H_OFF_STRUCT, st_off);
	put32(b->blob + H_OFF_STRINGS, str_off);
	put32(b->blob + H_OFF_RSVMAP, rsv_off);
	put32(b->blob + H_VERSION, b->version);
	put32(b->blob + H_LAST_COMP, 16);
	put32(b->blob + H_SIZE_STRINGS, b->str_len);
	if (b->version >= 17)
		put32(b->blob + H_SIZE_STRUCT, b->st_len);
	for (i = 0; i < b->nr_rsv; i++) {
		put64(b->blob + rsv_off + 16 * i, b->rsv[i][0]);
		put64(b->blob + rsv_off + 16 * i + 8, b->rsv[i][1]);
	}
	memcpy(b->blob + st_off, b->st, b->st_len);
	memcpy(b->blob + str_off, b->strs, b->str_len);
	return b->size;
}

static void set_hdr(struct builder *b, int field, u32 val)
{
	put32(b->blob + field, val);
}

static u32 hdr_field(const struct builder *b, int field)
{
	return get32(b->blob + field);
}

/*
 * The main test tree, root with 2+1 cells:
 * / { chosen, memory@40000000, memory@100000000, memory-controller@1000,
 *     soc { 1+1 cells: uart@9000000, empty { } } }
 */
static void build_main(struct builder *b)
{
	b_init(b);
	b_rsv(b, 0x48000000, 0x100000);
	b_rsv(b, 0x100000000ULL, 0x2000);
	b_begin(b, "");
	b_token(b, TOK_NOP);
	b_prop_cells(b, "#address-cells", 1, 2);
	b_prop_cells(b, "#size-cells", 1, 1);
	b_prop_str(b, "compatible", "test,board");

	b_begin(b, "chosen");
	b_prop_str(b, "bootargs", "console=ttyAMA0 quiet");
	b_token(b, TOK_NOP);
	b_prop_cells(b, "linux,initrd-start", 2, 0x1, 0x48000000);
	b_prop_cells(b, "linux,initrd-end", 1, 0x48100000);
	b_prop(b, "not-a-string", "abc", 3);
	b_prop(b, "empty", NULL, 0);
	b_end(b);

	b_begin(b, "memory@40000000");
	b_prop_str(b, "device_type", "memory");
	b_prop_cells(b, "reg", 3, 0x0, 0x40000000, 0x08000000);
	b_end(b);

	b_token(b, TOK_NOP);
	b_begin(b, "memory@100000000");
	b_prop_str(b, "device_type", "memory");
	b_prop_cells(b, "reg", 6, 0x1, 0x0, 0x10000000, 0x2, 0x0, 0x1000);
	b_end(b);

	b_begin(b, "memory-controller@1000");
	b_prop_cells(b, "reg", 3, 0x0, 0x1000, 0x100);
	b_end(b);

	b_begin(b, "soc");
	b_prop_cells(b, "#address-cells", 1, 1);
	b_prop_cells(b, "#size-cells", 1, 1);
	b_begin(b, "uart@9000000");
	b_prop_str(b, "compatible", "arm,pl011");
	b_prop_cells(b, "reg", 2, 0x09000000, 0x1000);
	b_end(b);
	b_begin(b, "empty");
	b_end(b);
	b_end(b);

	b_end(b);
	b_token(b, TOK_END);
	b_finish(b);
}

/* A second tree with 1+1 cells and a memory node lacking device_type. */
static void build_small(struct builder *b, u32 version)
{
	b_init(b);
	b->version = version;
	b_begin(b, "");
	b_prop_cells(b, "#address-cells", 1, 1);
	b_prop_cells(b, "#size-cells", 1, 1);
	b_begin(b, "chosen");
	b_prop_cells(b, "linux,initrd-start", 1, 0x81000000);
	b_prop_cells(b, "linux,initrd-end", 1, 0x81200000);
	b_end(b);
	b_begin(b, "memory");
	b_prop_cells(b, "reg", 4, 0x80000000, 0x10000000, 0xc0000000,
		     0x400000);
	b_end(b);
	b_end(b);
	b_token(b, TOK_END);
	b_finish(b);
}

/* A copy in a heap block of exactly its size, so ASan flags any overread. */
static void *exact_copy(const struct builder *b)
{
	void *p = malloc(b->size);

	assert_non_null(p);
	memcpy(p, b->blob, b->size);
	return p;
}

static int node(const void *blob, const char *path)
{
	int n = fdt_path_offset(blob, path);

	if (n < 0)
		fail_msg("%s: %s", path, fdt_strerror(n));
	return n;
}

static void test_check_good(void **state)
{
	struct builder b;

	(void)state;
	build_main(&b);
	assert_int_equal(fdt_check(b.blob, b.size), 0);
	assert_int_equal(fdt_check(b.blob, MAX_BLOB), 0);
	assert_int_equal(fdt_totalsize(b.blob), b.size);
	build_small(&b, 17);
	assert_int_equal(fdt_check(b.blob, b.size), 0);
	build_small(&b, 16);
	assert_int_equal(fdt_check(b.blob, b.size), 0);
	assert_int_equal(fdt_get_reg(b.blob, node(b.blob, "/memory"), NULL, 0),
			 2);
}

static void test_paths(void **state)
{
	struct builder b;
	const void *blob;
	int n;

	(void)state;
	build_main(&b);
	blob = b.blob;
	assert_int_equal(fdt_path_offset(blob, "/"), 0);
	assert_string_equal(fdt_get_name(blob, 0), "");
	assert_string_equal(fdt_get_name(blob, node(blob, "/chosen")),
			    "chosen");
	assert_string_equal(fdt_get_name(blob, node(blob, "//chosen/")),
			    "chosen");
	assert_string_equal(fdt_get_name(blob, node(blob, "/memory")),
			    "memory@40000000");
	assert_string_equal(fdt_get_name(blob, node(blob, "/memory@100000000")),
			    "memory@100000000");
	assert_string_equal(fdt_get_name(blob, node(blob, "/soc/uart")),
			    "uart@9000000");
	assert_string_equal(fdt_get_name(blob, node(blob, "/soc/uart@9000000")),
			    "uart@9000000");
	n = node(blob, "/memory-controller");
	assert_string_equal(fdt_get_name(blob, n), "memory-controller@1000");
	assert_string_equal(fdt_get_name(blob, node(blob, "/soc/empty")),
			    "empty");
	assert_int_equal(fdt_path_offset(blob, "/mem"), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_path_offset(blob, "/memory@4"), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_path_offset(blob, "/uart"), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_path_offset(blob, "/soc/uart@9000000/x"),
			 -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_path_offset(blob, "/chosen/bootargs"),
			 -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_path_offset(blob, "chosen"), -FDT_ERR_BADPATH);
	assert_null(fdt_get_name(blob, 4));
	assert_null(fdt_get_name(blob, 3));
}

static void test_properties(void **state)
{
	struct builder b;
	const void *blob;
	const char *s;
	int chosen, len;

	(void)state;
	build_main(&b);
	blob = b.blob;
	chosen = node(blob, "/chosen");
	s = fdt_getprop(blob, chosen, "bootargs", &len);
	assert_non_null(s);
	assert_int_equal(len, 22);
	assert_string_equal(s, "console=ttyAMA0 quiet");
	assert_string_equal(fdt_getprop_string(blob, chosen, "bootargs"),
			    "console=ttyAMA0 quiet");
	assert_null(fdt_getprop_string(blob, chosen, "not-a-string"));
	assert_null(fdt_getprop_string(blob, chosen, "empty"));
	assert_non_null(fdt_getprop(blob, chosen, "empty", &len));
	assert_int_equal(len, 0);
	assert_null(fdt_getprop(blob, chosen, "nope", &len));
	assert_int_equal(len, -FDT_ERR_NOTFOUND);
	assert_null(fdt_getprop(blob, chosen, "nope", NULL));
	/* Properties of a child are not the parent's. */
	assert_null(fdt_getprop(blob, 0, "bootargs", &len));
	assert_null(fdt_getprop(blob, chosen + 4, "bootargs", &len));
	assert_int_equal(len, -FDT_ERR_BADOFFSET);
}

static void test_read_numbers(void **state)
{
	struct builder b;
	const void *blob;
	u64 v64 = 7;
	u32 v32 = 7;
	int chosen;

	(void)state;
	build_main(&b);
	blob = b.blob;
	chosen = node(blob, "/chosen");
	assert_int_equal(fdt_read_u64(blob, chosen, "linux,initrd-start", &v64),
			 0);
	assert_true(v64 == 0x148000000ULL);
	assert_int_equal(fdt_read_u64(blob, chosen, "linux,initrd-end", &v64),
			 0);
	assert_true(v64 == 0x48100000);
	assert_int_equal(fdt_read_u32(blob, chosen, "linux,initrd-end", &v32),
			 0);
	assert_int_equal(v32, 0x48100000);
	v32 = 7;
	v64 = 7;
	assert_int_equal(fdt_read_u32(blob, chosen, "linux,initrd-start", &v32),
			 -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_read_u32(blob, chosen, "nope", &v32),
			 -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_read_u64(blob, chosen, "not-a-string", &v64),
			 -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_read_u64(blob, chosen, "empty", &v64),
			 -FDT_ERR_BADVALUE);
	assert_int_equal(v32, 7);
	assert_true(v64 == 7);
}

static void test_cells(void **state)
{
	struct builder b;
	const void *blob;

	(void)state;
	build_main(&b);
	blob = b.blob;
	assert_int_equal(fdt_address_cells(blob, 0), 2);
	assert_int_equal(fdt_size_cells(blob, 0), 1);
	assert_int_equal(fdt_address_cells(blob, node(blob, "/soc")), 1);
	assert_int_equal(fdt_size_cells(blob, node(blob, "/soc")), 1);
	/* Not inherited: absent means the spec's defaults. */
	assert_int_equal(fdt_address_cells(blob, node(blob, "/soc/empty")), 2);
	assert_int_equal(fdt_size_cells(blob, node(blob, "/soc/empty")), 1);

	b_init(&b);
	b_begin(&b, "");
	b_prop_cells(&b, "#address-cells", 1, 5);
	b_prop_cells(&b, "#size-cells", 2, 1, 1);
	b_end(&b);
	b_token(&b, TOK_END);
	b_finish(&b);
	assert_int_equal(fdt_check(b.blob, b.size), 0);
	assert_int_equal(fdt_address_cells(b.blob, 0), -FDT_ERR_BADCELLS);
	assert_int_equal(fdt_size_cells(b.blob, 0), -FDT_ERR_BADVALUE);
}

static void test_reg(void **state)
{
	struct builder b;
	struct fdt_reg regs[4];
	const void *blob;

	(void)state;
	build_main(&b);
	blob = b.blob;
	memset(regs, 0, sizeof(regs));
	assert_int_equal(fdt_get_reg(blob, node(blob, "/memory@40000000"),
				     regs, 4), 1);
	assert_true(regs[0].base == 0x40000000 && regs[0].size == 0x08000000);
	assert_int_equal(fdt_get_reg(blob, node(blob, "/memory@100000000"),
				     regs, 4), 2);
	assert_true(regs[0].base == 0x100000000ULL &&
		    regs[0].size == 0x10000000);
	assert_true(regs[1].base == 0x200000000ULL && regs[1].size == 0x1000);
	/* More entries than room: fills max, reports all. */
	memset(regs, 0, sizeof(regs));
	assert_int_equal(fdt_get_reg(blob, node(blob, "/memory@100000000"),
				     regs, 1), 2);
	assert_true(regs[0].base == 0x100000000ULL && regs[1].base == 0);
	assert_int_equal(fdt_get_reg(blob, node(blob, "/soc/uart"), regs, 4),
			 1);
	assert_true(regs[0].base == 0x09000000 && regs[0].size == 0x1000);
	assert_int_equal(fdt_get_reg(blob, node(blob, "/soc/empty"), regs, 4),
			 -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_get_reg(blob, 0, regs, 4), -FDT_ERR_NOTFOUND);

	build_small(&b, 17);
	assert_int_equal(fdt_get_reg(b.blob, node(b.blob, "/memory"), regs, 4),
			 2);
	assert_true(regs[0].base == 0x80000000 && regs[0].size == 0x10000000);
	assert_true(regs[1].base == 0xc0000000 && regs[1].size == 0x400000);
}

static void test_decode_reg(void **state)
{
	static const u8 prop[16] = {
		0x00, 0x00, 0x00, 0x01, 0x80, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x10, 0x00,
	};
	struct fdt_reg regs[4];

	(void)state;
	assert_int_equal(fdt_decode_reg(prop, 16, 2, 2, regs, 4), 1);
	assert_true(regs[0].base == 0x180000000ULL &&
		    regs[0].size == 0x200001000ULL);
	assert_int_equal(fdt_decode_reg(prop, 16, 1, 1, regs, 4), 2);
	assert_true(regs[1].base == 2 && regs[1].size == 0x1000);
	assert_int_equal(fdt_decode_reg(prop, 16, 2, 0, regs, 4), 2);
	assert_true(regs[1].base == 0x200001000ULL && regs[1].size == 0);
	assert_int_equal(fdt_decode_reg(prop, 12, 2, 1, regs, 4), 1);
	assert_int_equal(fdt_decode_reg(prop, 0, 2, 1, regs, 4), 0);
	assert_int_equal(fdt_decode_reg(prop, 16, 2, 1, regs, 4),
			 -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_decode_reg(prop, 15, 1, 0, regs, 4),
			 -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_decode_reg(prop, -4, 1, 0, regs, 4),
			 -FDT_ERR_BADVALUE);
	assert_int_equal(fdt_decode_reg(prop, 12, 3, 0, regs, 4),
			 -FDT_ERR_BADCELLS);
	assert_int_equal(fdt_decode_reg(prop, 12, 1, 3, regs, 4),
			 -FDT_ERR_BADCELLS);
	assert_int_equal(fdt_decode_reg(prop, 12, 0, 0, regs, 4),
			 -FDT_ERR_BADCELLS);
	assert_int_equal(fdt_decode_reg(prop, 12, -1, 1, regs, 4),
			 -FDT_ERR_BADCELLS);
}

static void test_parent(void **state)
{
	struct builder b;
	const void *blob;

	(void)state;
	build_main(&b);
	blob = b.blob;
	assert_int_equal(fdt_parent_offset(blob, node(blob, "/chosen")), 0);
	assert_int_equal(fdt_parent_offset(blob, node(blob, "/soc/uart")),
			 node(blob, "/soc"));
	assert_int_equal(fdt_parent_offset(blob, node(blob, "/soc/empty")),
			 node(blob, "/soc"));
	assert_int_equal(fdt_parent_offset(blob, node(blob, "/soc")), 0);
	assert_int_equal(fdt_parent_offset(blob, 0), -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_parent_offset(blob, 2), -FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_parent_offset(blob, 1 << 20), -FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_parent_offset(blob, -1), -FDT_ERR_BADOFFSET);
}

static int count_matches(const void *blob,
			 int (*next)(const void *, int, const char *),
			 const char *what)
{
	int n, count = 0;

	for (n = next(blob, -1, what); n >= 0; n = next(blob, n, what))
		count++;
	assert_int_equal(n, -FDT_ERR_NOTFOUND);
	return count;
}

static void test_iterate(void **state)
{
	struct builder b;
	const void *blob;
	int n, count = 0;

	(void)state;
	build_main(&b);
	blob = b.blob;
	fdt_for_each_memory_node(blob, n) {
		assert_int_equal(strncmp(fdt_get_name(blob, n), "memory@", 7),
				 0);
		count++;
	}
	assert_int_equal(count, 2);
	assert_int_equal(count_matches(blob, fdt_next_node_by_type, "memory"),
			 2);
	assert_int_equal(count_matches(blob, fdt_next_node_by_type, "mem"), 0);
	assert_int_equal(count_matches(blob, fdt_next_node_by_prefix, "memory"),
			 3);
	assert_int_equal(count_matches(blob, fdt_next_node_by_prefix, "uart"),
			 1);
	assert_int_equal(count_matches(blob, fdt_next_node_by_prefix, ""), 8);
	assert_int_equal(fdt_next_node_by_prefix(blob, 5, "x"),
			 -FDT_ERR_BADOFFSET);

	build_small(&b, 17);
	count = 0;
	fdt_for_each_memory_node(b.blob, n)
		count++;
	assert_int_equal(count, 1);
}

static void test_walk(void **state)
{
	static const char *const order[] = {
		"", "chosen", "memory@40000000", "memory@100000000",
		"memory-controller@1000", "soc", "uart@9000000", "empty",
	};
	static const int depths[] = { 1, 2, 2, 2, 2, 2, 3, 3 };
	struct builder b;
	const void *blob;
	int n, depth = 0, i = 0, soc;

	(void)state;
	build_main(&b);
	blob = b.blob;
	for (n = fdt_next_node(blob, -1, &depth); n >= 0;
	     n = fdt_next_node(blob, n, &depth), i++) {
		assert_true(i < 8);
		assert_string_equal(fdt_get_name(blob, n), order[i]);
		assert_int_equal(depth, depths[i]);
	}
	assert_int_equal(i, 8);
	/* From soc with depth 0: just its subtree. */
	soc = node(blob, "/soc");
	depth = 0;
	i = 0;
	for (n = fdt_next_node(blob, soc, &depth); n >= 0;
	     n = fdt_next_node(blob, n, &depth))
		i++;
	assert_int_equal(i, 2);
	assert_int_equal(n, -FDT_ERR_NOTFOUND);
}

static void test_property_iteration(void **state)
{
	static const char *const names[] = {
		"bootargs", "linux,initrd-start", "linux,initrd-end",
		"not-a-string", "empty",
	};
	struct builder b;
	const char *name;
	int prop, len, i = 0;

	(void)state;
	build_main(&b);
	fdt_for_each_property(b.blob, node(b.blob, "/chosen"), prop) {
		assert_true(i < 5);
		assert_non_null(fdt_property_at(b.blob, prop, &name, &len));
		assert_string_equal(name, names[i]);
		i++;
	}
	assert_int_equal(i, 5);
	assert_int_equal(prop, -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_first_property(b.blob, node(b.blob, "/soc/empty")),
			 -FDT_ERR_NOTFOUND);
	assert_null(fdt_property_at(b.blob, 0, &name, &len));
	assert_int_equal(len, -FDT_ERR_BADOFFSET);
}

static void test_mem_rsv(void **state)
{
	struct builder b;
	u64 base, size;

	(void)state;
	build_main(&b);
	assert_int_equal(fdt_get_mem_rsv(b.blob, 0, &base, &size), 0);
	assert_true(base == 0x48000000 && size == 0x100000);
	assert_int_equal(fdt_get_mem_rsv(b.blob, 1, &base, &size), 0);
	assert_true(base == 0x100000000ULL && size == 0x2000);
	assert_int_equal(fdt_get_mem_rsv(b.blob, 2, &base, &size),
			 -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_get_mem_rsv(b.blob, -1, &base, &size),
			 -FDT_ERR_NOTFOUND);
}

static void test_unaligned_blob(void **state)
{
	struct builder b;
	u8 *buf;
	u64 v;

	(void)state;
	build_main(&b);
	buf = malloc(b.size + 3);
	assert_non_null(buf);
	memcpy(buf + 3, b.blob, b.size);
	assert_int_equal(fdt_check(buf + 3, b.size), 0);
	assert_int_equal(fdt_read_u64(buf + 3, node(buf + 3, "/chosen"),
				      "linux,initrd-start", &v), 0);
	assert_true(v == 0x148000000ULL);
	free(buf);
}

static void test_strerror(void **state)
{
	int i, j;

	(void)state;
	for (i = 1; i < FDT_ERR_MAX; i++) {
		assert_true(strlen(fdt_strerror(-i)) > 0);
		assert_string_equal(fdt_strerror(-i), fdt_strerror(i));
		for (j = 1; j < i; j++)
			assert_true(strcmp(fdt_strerror(-i), fdt_strerror(-j)));
	}
	assert_string_equal(fdt_strerror(-FDT_ERR_BADMAGIC),
			    "bad magic: not a device tree");
	assert_non_null(fdt_strerror(0));
	assert_string_equal(fdt_strerror(-FDT_ERR_MAX), fdt_strerror(1000));
	assert_string_equal(fdt_strerror(-2147483647 - 1), fdt_strerror(1000));
}

/* Checks a malformed blob, then runs lookups on it for ASan to watch. */
static void expect_bad(struct builder *b, size_t max_size, int err)
{
	u8 *blob = exact_copy(b);
	struct fdt_reg regs[2];
	int n, len, got = fdt_check(blob, max_size);

	if (got != err) {
		free(blob);
		fail_msg("want %s, got %s", fdt_strerror(err),
			 fdt_strerror(got));
	}
	if (fdt_totalsize(blob) <= b->size) {
		n = fdt_path_offset(blob, "/chosen");
		fdt_getprop(blob, n, "bootargs", &len);
		fdt_for_each_memory_node(blob, n)
			fdt_get_reg(blob, n, regs, 2);
	}
	free(blob);
}

static void test_bad_header(void **state)
{
	struct builder b;

	(void)state;
	build_main(&b);
	set_hdr(&b, H_MAGIC, 0xfeedd00d);
	expect_bad(&b, b.size, -FDT_ERR_BADMAGIC);

	build_main(&b);
	expect_bad(&b, b.size - 1, -FDT_ERR_TRUNCATED);
	expect_bad(&b, 20, -FDT_ERR_TRUNCATED);
	assert_int_equal(fdt_check(NULL, 100), -FDT_ERR_TRUNCATED);

	set_hdr(&b, H_VERSION, 15);
	expect_bad(&b, b.size, -FDT_ERR_BADVERSION);
	/* A newer version that still reads as v16/v17 is fine. */
	set_hdr(&b, H_VERSION, 0xffffffff);
	assert_int_equal(fdt_check(b.blob, b.size), 0);
	build_main(&b);
	set_hdr(&b, H_LAST_COMP, 18);
	expect_bad(&b, b.size, -FDT_ERR_BADVERSION);

	build_main(&b);
	set_hdr(&b, H_TOTALSIZE, 30);
	expect_bad(&b, b.size, -FDT_ERR_BADLAYOUT);
}

static void test_bad_layout(void **state)
{
	static const struct {
		int field;
		u32 value;
	} cases[] = {
		{ H_OFF_STRUCT, 0x10000 },
		{ H_OFF_STRUCT, 0xfffffffc },
		{ H_OFF_STRUCT, 8 },		/* inside the header */
		{ H_OFF_STRUCT, 0 },
		{ H_OFF_STRINGS, 0x10000 },
		{ H_OFF_RSVMAP, 0x10000 },
		{ H_SIZE_STRUCT, 0x10000 },
		{ H_SIZE_STRUCT, 0xffffffff },
		{ H_SIZE_STRINGS, 0x10000 },
		{ H_SIZE_STRINGS, 0xfffffff0 },
	};
	struct builder b;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		build_main(&b);
		set_hdr(&b, cases[i].field, cases[i].value);
		expect_bad(&b, b.size, -FDT_ERR_BADLAYOUT);
	}
	/* The structure block must be 4-byte aligned. */
	build_main(&b);
	set_hdr(&b, H_OFF_STRUCT, hdr_field(&b, H_OFF_STRUCT) + 2);
	set_hdr(&b, H_SIZE_STRUCT, hdr_field(&b, H_SIZE_STRUCT) - 2);
	expect_bad(&b, b.size, -FDT_ERR_BADLAYOUT);
	/* A reservation map without its terminating entry. */
	build_main(&b);
	set_hdr(&b, H_OFF_RSVMAP, b.size - 8);
	expect_bad(&b, b.size, -FDT_ERR_BADLAYOUT);
}

static void test_bad_property_length(void **state)
{
	struct builder b;

	(void)state;
	b_init(&b);
	b_begin(&b, "");
	b_token(&b, TOK_PROP);
	b_raw(&b, "\x00\x00\x01\x00\x00\x00\x00\x00", 8);	/* len 256 */
	b_raw(&b, "abcd", 4);
	b_end(&b);
	b_token(&b, TOK_END);
	b_string(&b, "x");
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_BADPROPLEN);

	/* A length so large that adding it to the offset would wrap. */
	put32(b.st + 12, 0xfffffffc);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_BADPROPLEN);

	/* The property header itself cut off by the end of the block. */
	b_init(&b);
	b_begin(&b, "");
	b_token(&b, TOK_PROP);
	b_token(&b, 0);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_BADPROPLEN);
}

static void test_bad_names(void **state)
{
	struct builder b;

	(void)state;
	/* The last name runs to the end of the structure block. */
	b_init(&b);
	b_begin(&b, "");
	b_begin(&b, "abcdefg");
	b_finish(&b);
	set_hdr(&b, H_SIZE_STRUCT, b.st_len - 1);
	expect_bad(&b, b.size, -FDT_ERR_BADNAME);

	/* A property name offset past the strings block. */
	b_init(&b);
	b_begin(&b, "");
	b_prop_str(&b, "ok", "1");
	b_prop_at(&b, 100, "v", 2);
	b_end(&b);
	b_token(&b, TOK_END);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_BADSTROFF);

	/* ... and one at the last byte, whose string has no NUL. */
	b_init(&b);
	b_begin(&b, "");
	b_prop_str(&b, "name", "1");
	b_end(&b);
	b_token(&b, TOK_END);
	b_finish(&b);
	set_hdr(&b, H_SIZE_STRINGS, 4);
	expect_bad(&b, b.size, -FDT_ERR_BADSTROFF);
}

static void test_bad_nesting(void **state)
{
	struct builder b;

	(void)state;
	/* An END_NODE too few. */
	b_init(&b);
	b_begin(&b, "");
	b_begin(&b, "child");
	b_end(&b);
	b_token(&b, TOK_END);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_NESTING);

	/* An END_NODE too many. */
	b_init(&b);
	b_begin(&b, "");
	b_end(&b);
	b_end(&b);
	b_token(&b, TOK_END);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_NESTING);

	/* Two roots. */
	b_init(&b);
	b_begin(&b, "");
	b_end(&b);
	b_begin(&b, "");
	b_end(&b);
	b_token(&b, TOK_END);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_BADSTRUCTURE);

	/* A property outside any node. */
	b_init(&b);
	b_prop_str(&b, "stray", "x");
	b_begin(&b, "");
	b_end(&b);
	b_token(&b, TOK_END);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_BADSTRUCTURE);

	/* No root at all. */
	b_init(&b);
	b_token(&b, TOK_NOP);
	b_token(&b, TOK_END);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_BADSTRUCTURE);
}

static void test_bad_tokens(void **state)
{
	struct builder b;

	(void)state;
	/* Balanced, but the block ends without FDT_END. */
	b_init(&b);
	b_begin(&b, "");
	b_end(&b);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_NOEND);

	b_init(&b);
	b_begin(&b, "");
	b_token(&b, 7);
	b_end(&b);
	b_token(&b, TOK_END);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_BADTOKEN);

	/* An empty structure block. */
	b_init(&b);
	b_finish(&b);
	expect_bad(&b, b.size, -FDT_ERR_NOEND);
}

/*
 * Flips every byte of a good blob to a few values: fdt_check must never
 * read outside the blob, nor may the lookups, whatever it said.
 */
static void test_mutations(void **state)
{
	static const u8 values[] = { 0x00, 0x01, 0x03, 0x09, 0x7f, 0x80, 0xff };
	struct builder b;
	struct fdt_reg regs[2];
	size_t pos, v;
	u8 *blob;
	int n, len, err;

	(void)state;
	build_main(&b);
	blob = exact_copy(&b);
	for (pos = 0; pos < b.size; pos++)
		for (v = 0; v < sizeof(values); v++) {
			memcpy(blob, b.blob, b.size);
			blob[pos] = values[v];
			err = fdt_check(blob, b.size);
			assert_true(err <= 0 && err > -FDT_ERR_MAX);
			if (fdt_totalsize(blob) > b.size)
				continue;
			n = fdt_path_offset(blob, "/soc/uart");
			fdt_getprop(blob, n, "reg", &len);
			fdt_get_reg(blob, n, regs, 2);
			n = fdt_path_offset(blob, "/chosen");
			fdt_getprop_string(blob, n, "bootargs");
			fdt_for_each_memory_node(blob, n)
				fdt_get_reg(blob, n, regs, 2);
		}
	free(blob);
}

/* Reads data/name next to this source file; returns its size or 0. */
static size_t read_data(const char *name, u8 *buf, size_t size)
{
	char path[512];
	const char *slash = strrchr(__FILE__, '/');
	ssize_t n;
	int fd;

	path[0] = '\0';
	if (slash)
		strlcat(path, __FILE__, slash - __FILE__ + 2);
	strlcat(path, "data/", sizeof(path));
	strlcat(path, name, sizeof(path));
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		print_message("# cannot open %s\n", path);
		return 0;
	}
	n = read(fd, buf, size);
	close(fd);
	return n > 0 ? (size_t)n : 0;
}

/* virt.dtb comes from dtc, so it checks the reader against a real writer. */
static void test_dtc_blob(void **state)
{
	static u8 buf[MAX_BLOB];
	struct fdt_reg regs[2];
	size_t size = read_data("virt.dtb", buf, sizeof(buf));
	const void *blob = buf;
	u64 start, end, base, rsize;
	int chosen, n, count = 0;

	(void)state;
	assert_true(size > 0);
	assert_int_equal(fdt_check(blob, size), 0);
	assert_int_equal(fdt_totalsize(blob), size);
	chosen = node(blob, "/chosen");
	assert_string_equal(fdt_getprop_string(blob, chosen, "bootargs"),
			    "console=ttyAMA0 test "
			    "autorun=\"selftest;poweroff\"");
	assert_int_equal(fdt_read_u64(blob, chosen, "linux,initrd-start",
				      &start), 0);
	assert_int_equal(fdt_read_u64(blob, chosen, "linux,initrd-end", &end),
			 0);
	assert_true(start == 0x48000000 && end == 0x48100000);
	assert_int_equal(fdt_address_cells(blob, 0), 2);
	assert_int_equal(fdt_size_cells(blob, 0), 2);
	fdt_for_each_memory_node(blob, n) {
		assert_int_equal(fdt_get_reg(blob, n, regs, 2), 1);
		assert_true(regs[0].base == 0x40000000 &&
			    regs[0].size == 0x10000000);
		count++;
	}
	assert_int_equal(count, 1);
	assert_int_equal(fdt_get_reg(blob, node(blob, "/cpus/cpu@0"), regs, 2),
			 1);
	assert_true(regs[0].base == 0 && regs[0].size == 0);
	assert_int_equal(count_matches(blob, fdt_next_node_by_prefix,
				       "virtio_mmio@"), 2);
	assert_int_equal(count_matches(blob, fdt_next_node_by_type, "cpu"), 1);
	assert_int_equal(fdt_get_mem_rsv(blob, 0, &base, &rsize), 0);
	assert_true(base == 0x48000000 && rsize == 0x100000);
	assert_int_equal(fdt_get_mem_rsv(blob, 1, &base, &rsize),
			 -FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_check(blob, size - 1), -FDT_ERR_TRUNCATED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_good),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_properties),
		cmocka_unit_test(test_read_numbers),
		cmocka_unit_test(test_cells),
		cmocka_unit_test(test_reg),
		cmocka_unit_test(test_decode_reg),
		cmocka_unit_test(test_parent),
		cmocka_unit_test(test_iterate),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_property_iteration),
		cmocka_unit_test(test_mem_rsv),
		cmocka_unit_test(test_unaligned_blob),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_bad_header),
		cmocka_unit_test(test_bad_layout),
		cmocka_unit_test(test_bad_property_length),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_bad_nesting),
		cmocka_unit_test(test_bad_tokens),
		cmocka_unit_test(test_mutations),
		cmocka_unit_test(test_dtc_blob),
	};

	return cmocka_run_group_tests_name("fdt", tests, NULL, NULL);
}
