/* Reads flattened device trees without trusting a single length in them. */
#include <kernel/fdt.h>
#include <kernel/string.h>
#include <stddef.h>
#include <stdbool.h>

/* Header fields, as byte offsets: the header is big-endian u32s. */
#define HDR_MAGIC		0
#define HDR_TOTALSIZE		4
#define HDR_OFF_STRUCT		8
#define HDR_OFF_STRINGS		12
#define HDR_OFF_RSVMAP		16
#define HDR_VERSION		20
#define HDR_LAST_COMP		24
#define HDR_SIZE_STRINGS	32
#define HDR_SIZE_STRUCT		36	/* version 17 and later */

#define HDR_LEN_V16		36
#define HDR_LEN_V17		40

#define FDT_BEGIN_NODE	1
#define FDT_END_NODE	2
#define FDT_PROP	3
#define FDT_NOP		4
#define FDT_END		9

#define FIRST_VERSION	16
#define LAST_VERSION	17
#define MAX_CELLS	4
/* Offsets are ints; a bound far below INT_MAX keeps their sums safe. */
#define MAX_TOTALSIZE	0x40000000u

/* The blocks of one blob, with sizes already checked against totalsize. */
struct fdt_view {
	const u8 *blob;
	u32 totalsize;
	const u8 *st;		/* structure block */
	u32 st_size;
	const u8 *str;		/* strings block */
	u32 str_size;
	u32 rsv_off;		/* memory reservation map */
};

static const char *const fdt_errors[FDT_ERR_MAX] = {
	[0] = "no error",
	[FDT_ERR_NOTFOUND] = "not found",
	[FDT_ERR_BADMAGIC] = "bad magic: not a device tree",
	[FDT_ERR_BADVERSION] = "unsupported device tree version",
	[FDT_ERR_TRUNCATED] = "blob is larger than the memory holding it",
	[FDT_ERR_BADLAYOUT] = "header places a block outside the blob",
	[FDT_ERR_BADTOKEN] = "unknown token in the structure block",
	[FDT_ERR_BADNAME] = "node name is not terminated",
	[FDT_ERR_BADPROPLEN] = "property runs past the structure block",
	[FDT_ERR_BADSTROFF] = "property name lies outside the strings block",
	[FDT_ERR_NESTING] = "unbalanced node nesting",
	[FDT_ERR_NOEND] = "structure block does not end with FDT_END",
	[FDT_ERR_BADSTRUCTURE] = "no single root node, or a stray property",
	[FDT_ERR_BADOFFSET] = "offset is not a node or property",
	[FDT_ERR_BADPATH] = "path does not start with '/'",
	[FDT_ERR_BADVALUE] = "property has the wrong size",
	[FDT_ERR_BADCELLS] = "#address-cells or #size-cells out of range",
};

const char *fdt_strerror(int err)
{
	if (err < 0 && err > -FDT_ERR_MAX)
		err = -err;
	if (err < 0 || err >= FDT_ERR_MAX)
		return "unknown device tree error";
	return fdt_errors[err];
}

static u32 hdr(const u8 *blob, int field)
{
	return fdt_be32(blob + field);
}

static u64 be64(const u8 *p)
{
	return (u64)fdt_be32(p) << 32 | fdt_be32(p + 4);
}

/* True when [off, off + size) lies inside [start, total). */
static bool block_inside(u32 off, u32 size, u32 start, u32 total)
{
	return off >= start && off <= total && size <= total - off;
}

static int view_header(struct fdt_view *v, const u8 *b, size_t max_size)
{
	u32 version;

	if (!b || max_size < HDR_LEN_V16)
		return -FDT_ERR_TRUNCATED;
	if (hdr(b, HDR_MAGIC) != FDT_MAGIC)
		return -FDT_ERR_BADMAGIC;
	version = hdr(b, HDR_VERSION);
	if (version < FIRST_VERSION || hdr(b, HDR_LAST_COMP) > LAST_VERSION)
		return -FDT_ERR_BADVERSION;
	v->totalsize = hdr(b, HDR_TOTALSIZE);
	if (v->totalsize > max_size)
		return -FDT_ERR_TRUNCATED;
	if (v->totalsize > MAX_TOTALSIZE ||
	    v->totalsize < (version >= 17 ? HDR_LEN_V17 : HDR_LEN_V16))
		return -FDT_ERR_BADLAYOUT;
	/* Later versions keep the v17 layout, as last_comp_version says. */
	return version >= 17 ? 17 : 16;
}

/* Reads and checks the header; sets up v for the walks below. */
static int view_init(struct fdt_view *v, const void *blob, size_t max_size)
{
	const u8 *b = blob;
	int version = view_header(v, b, max_size);
	u32 st_off, str_off, hdr_len;

	if (version < 0)
		return version;
	hdr_len = version >= 17 ? HDR_LEN_V17 : HDR_LEN_V16;
	st_off = hdr(b, HDR_OFF_STRUCT);
	str_off = hdr(b, HDR_OFF_STRINGS);
	v->blob = b;
	v->rsv_off = hdr(b, HDR_OFF_RSVMAP);
	v->str_size = hdr(b, HDR_SIZE_STRINGS);
	/* Version 16 has no structure size: it runs to the end. */
	if (version >= 17)
		v->st_size = hdr(b, HDR_SIZE_STRUCT);
	else
		v->st_size = st_off <= v->totalsize ? v->totalsize - st_off : 0;
	if (!block_inside(st_off, v->st_size, hdr_len, v->totalsize) ||
	    !block_inside(str_off, v->str_size, hdr_len, v->totalsize) ||
	    !block_inside(v->rsv_off, 0, hdr_len, v->totalsize) || st_off % 4)
		return -FDT_ERR_BADLAYOUT;
	v->st = b + st_off;
	v->str = b + str_off;
	return 0;
}

/* The property name at offset off of the strings block, if terminated. */
static const char *string_at(const struct fdt_view *v, u32 off)
{
	const char *s;

	if (off >= v->str_size)
		return NULL;
	s = (const char *)v->str + off;
	if (strnlen(s, v->str_size - off) == v->str_size - off)
		return NULL;
	return s;
}

static int skip_node_name(const struct fdt_view *v, u32 *off)
{
	const char *name = (const char *)v->st + *off;
	size_t len = strnlen(name, v->st_size - *off);

	if (len == v->st_size - *off)
		return -FDT_ERR_BADNAME;
	*off += len + 1;
	return 0;
}

static int skip_prop(const struct fdt_view *v, u32 *off)
{
	u32 len;

	if (v->st_size - *off < 8)
		return -FDT_ERR_BADPROPLEN;
	len = fdt_be32(v->st + *off);
	if (len > v->st_size - *off - 8)
		return -FDT_ERR_BADPROPLEN;
	*off += 8 + len;
	return 0;
}

/*
 * Reads the token at off and finds where the next one starts, checking
 * that this one fits inside the structure block. Returns the token or a
 * negative error.
 */
static int next_tag(const struct fdt_view *v, int off, int *next)
{
	u32 pos = off;
	u32 tag;
	int err = 0;

	if (off < 0 || pos % 4)
		return -FDT_ERR_BADOFFSET;
	if (pos >= v->st_size || v->st_size - pos < 4)
		return -FDT_ERR_NOEND;
	tag = fdt_be32(v->st + pos);
	pos += 4;
	switch (tag) {
	case FDT_BEGIN_NODE:
		err = skip_node_name(v, &pos);
		break;
	case FDT_PROP:
		err = skip_prop(v, &pos);
		break;
	case FDT_END_NODE:
	case FDT_NOP:
	case FDT_END:
		break;
	default:
		return -FDT_ERR_BADTOKEN;
	}
	if (err)
		return err;
	*next = (pos + 3) & ~3u;
	return tag;
}

static int check_rsvmap(const struct fdt_view *v)
{
	u32 off;

	for (off = v->rsv_off; v->totalsize - off >= 16; off += 16) {
		if (!be64(v->blob + off) && !be64(v->blob + off + 8))
			return 0;
	}
	return -FDT_ERR_BADLAYOUT;
}

/* What one token does to the nesting depth; negative on an error. */
static int check_token(const struct fdt_view *v, int tag, int off, int depth,
		       bool *root_seen)
{
	switch (tag) {
	case FDT_BEGIN_NODE:
		if (depth == 0 && *root_seen)
			return -FDT_ERR_BADSTRUCTURE;
		*root_seen = true;
		return depth + 1;
	case FDT_END_NODE:
		return depth > 0 ? depth - 1 : -FDT_ERR_NESTING;
	case FDT_PROP:
		if (depth == 0)
			return -FDT_ERR_BADSTRUCTURE;
		if (!string_at(v, fdt_be32(v->st + off + 8)))
			return -FDT_ERR_BADSTROFF;
		return depth;
	default:
		return depth;
	}
}

static int check_struct(const struct fdt_view *v)
{
	bool root_seen = false;
	int off = 0, next, tag, depth = 0;

	for (;;) {
		tag = next_tag(v, off, &next);
		if (tag < 0)
			return tag;
		if (tag == FDT_END)
			break;
		depth = check_token(v, tag, off, depth, &root_seen);
		if (depth < 0)
			return depth;
		off = next;
	}
	if (depth)
		return -FDT_ERR_NESTING;
	return root_seen ? 0 : -FDT_ERR_BADSTRUCTURE;
}

int fdt_check(const void *blob, size_t max_size)
{
	struct fdt_view v;
	int err = view_init(&v, blob, max_size);

	if (!err)
		err = check_rsvmap(&v);
	if (!err)
		err = check_struct(&v);
	return err;
}

u32 fdt_totalsize(const void *blob)
{
	if (!blob || hdr(blob, HDR_MAGIC) != FDT_MAGIC)
		return 0;
	return hdr(blob, HDR_TOTALSIZE);
}

int fdt_get_mem_rsv(const void *blob, int index, u64 *base, u64 *size)
{
	struct fdt_view v;
	int err = view_init(&v, blob, SIZE_MAX);
	u32 off;

	if (err)
		return err;
	if (index < 0)
		return -FDT_ERR_NOTFOUND;
	for (off = v.rsv_off; v.totalsize - off >= 16; off += 16) {
		u64 b = be64(v.blob + off), s = be64(v.blob + off + 8);

		if (!b && !s)
			return -FDT_ERR_NOTFOUND;
		if (index-- == 0) {
			*base = b;
			*size = s;
			return 0;
		}
	}
	return -FDT_ERR_BADLAYOUT;
}

/* Fails unless a node starts at offset node; returns where its body starts. */
static int node_body(const struct fdt_view *v, int node)
{
	int next;

	if (next_tag(v, node, &next) != FDT_BEGIN_NODE)
		return -FDT_ERR_BADOFFSET;
	return next;
}

static int walk_next_node(const struct fdt_view *v, int node, int *depth)
{
	int off = 0, next, tag;

	if (node >= 0) {
		off = node_body(v, node);
		if (off < 0)
			return off;
	}
	for (;; off = next) {
		tag = next_tag(v, off, &next);
		if (tag < 0)
			return tag;
		if (tag == FDT_BEGIN_NODE) {
			if (depth)
				(*depth)++;
			return off;
		}
		if (tag == FDT_END)
			return -FDT_ERR_NOTFOUND;
		if (tag == FDT_END_NODE && depth && --(*depth) < 0)
			return -FDT_ERR_NOTFOUND;
	}
}

int fdt_next_node(const void *blob, int node, int *depth)
{
	struct fdt_view v;
	int err = view_init(&v, blob, SIZE_MAX);

	return err ? err : walk_next_node(&v, node, depth);
}

static const char *node_name(const struct fdt_view *v, int node)
{
	/* walk_next_node() or node_body() has checked the terminator. */
	return (const char *)v->st + node + 4;
}

/* A path component without '@' also matches the name before the '@'. */
static bool name_matches(const char *name, const char *comp, size_t len)
{
	if (strncmp(name, comp, len))
		return false;
	if (name[len] == '\0')
		return true;
	return name[len] == '@' && !memchr(comp, '@', len);
}

static int find_child(const struct fdt_view *v, int parent, const char *comp,
		      size_t len)
{
	int depth = 0;
	int node = parent;

	while ((node = walk_next_node(v, node, &depth)) >= 0) {
		if (depth == 1 && name_matches(node_name(v, node), comp, len))
			return node;
	}
	return node;
}

int fdt_path_offset(const void *blob, const char *path)
{
	struct fdt_view v;
	int node = view_init(&v, blob, SIZE_MAX);

	if (node < 0)
		return node;
	if (*path != '/')
		return -FDT_ERR_BADPATH;
	node = walk_next_node(&v, -1, NULL);
	while (node >= 0) {
		const char *end;

		while (*path == '/')
			path++;
		if (!*path)
			break;
		end = strchr(path, '/');
		if (!end)
			end = path + strlen(path);
		node = find_child(&v, node, path, end - path);
		path = end;
	}
	return node;
}

/* Depth of node counting the root as 1, found by walking from the start. */
static int node_depth(const struct fdt_view *v, int node)
{
	int depth = 0, n = -1;

	while ((n = walk_next_node(v, n, &depth)) >= 0) {
		if (n == node)
			return depth;
	}
	return n == -FDT_ERR_NOTFOUND ? -FDT_ERR_BADOFFSET : n;
}

int fdt_parent_offset(const void *blob, int node)
{
	struct fdt_view v;
	int err = view_init(&v, blob, SIZE_MAX);
	int target, depth = 0, n = -1, parent = -FDT_ERR_NOTFOUND;

	if (err)
		return err;
	target = node_depth(&v, node);
	if (target < 0)
		return target;
	/* The parent is the last node one level up before node itself. */
	while ((n = walk_next_node(&v, n, &depth)) >= 0 && n != node) {
		if (depth == target - 1)
			parent = n;
	}
	return parent;
}

const char *fdt_get_name(const void *blob, int node)
{
	struct fdt_view v;

	if (view_init(&v, blob, SIZE_MAX) || node_body(&v, node) < 0)
		return NULL;
	return node_name(&v, node);
}

/* From the token at off, skips NOPs to the next property of this node. */
static int prop_from(const struct fdt_view *v, int off)
{
	int next, tag;

	for (;; off = next) {
		tag = next_tag(v, off, &next);
		if (tag < 0)
			return tag;
		if (tag == FDT_PROP)
			return off;
		if (tag != FDT_NOP)
			return -FDT_ERR_NOTFOUND;
	}
}

static int first_prop(const struct fdt_view *v, int node)
{
	int body = node_body(v, node);

	return body < 0 ? body : prop_from(v, body);
}

static int next_prop(const struct fdt_view *v, int prop)
{
	int next;

	if (next_tag(v, prop, &next) != FDT_PROP)
		return -FDT_ERR_BADOFFSET;
	return prop_from(v, next);
}

/* Value of the property at prop, which next_tag() has already bounded. */
static const void *prop_value(const struct fdt_view *v, int prop,
			      const char **name, int *lenp)
{
	*name = string_at(v, fdt_be32(v->st + prop + 8));
	if (!*name) {
		*lenp = -FDT_ERR_BADSTROFF;
		return NULL;
	}
	*lenp = fdt_be32(v->st + prop + 4);
	return v->st + prop + 12;
}

int fdt_first_property(const void *blob, int node)
{
	struct fdt_view v;
	int err = view_init(&v, blob, SIZE_MAX);

	return err ? err : first_prop(&v, node);
}

int fdt_next_property(const void *blob, int prop)
{
	struct fdt_view v;
	int err = view_init(&v, blob, SIZE_MAX);

	return err ? err : next_prop(&v, prop);
}

const void *fdt_property_at(const void *blob, int prop, const char **name,
			    int *lenp)
{
	struct fdt_view v;
	int next, err = view_init(&v, blob, SIZE_MAX);

	if (!err && next_tag(&v, prop, &next) != FDT_PROP)
		err = -FDT_ERR_BADOFFSET;
	if (err) {
		*lenp = err;
		return NULL;
	}
	return prop_value(&v, prop, name, lenp);
}

static const void *find_prop(const struct fdt_view *v, int node,
			     const char *name, int *lenp)
{
	const char *pname;
	const void *val;
	int prop;

	for (prop = first_prop(v, node); prop >= 0; prop = next_prop(v, prop)) {
		val = prop_value(v, prop, &pname, lenp);
		if (!val)
			return NULL;
		if (!strcmp(pname, name))
			return val;
	}
	*lenp = prop;
	return NULL;
}

const void *fdt_getprop(const void *blob, int node, const char *name, int *lenp)
{
	struct fdt_view v;
	int len, err = view_init(&v, blob, SIZE_MAX);
	const void *val = NULL;

	if (err)
		len = err;
	else
		val = find_prop(&v, node, name, &len);
	if (lenp)
		*lenp = len;
	return val;
}

const char *fdt_getprop_string(const void *blob, int node, const char *name)
{
	int len;
	const char *val = fdt_getprop(blob, node, name, &len);

	if (!val || len <= 0 || !memchr(val, '\0', len))
		return NULL;
	return val;
}

int fdt_read_u32(const void *blob, int node, const char *name, u32 *val)
{
	int len;
	const void *p = fdt_getprop(blob, node, name, &len);

	if (!p)
		return len;
	if (len != 4)
		return -FDT_ERR_BADVALUE;
	*val = fdt_be32(p);
	return 0;
}

int fdt_read_u64(const void *blob, int node, const char *name, u64 *val)
{
	int len;
	const void *p = fdt_getprop(blob, node, name, &len);

	if (!p)
		return len;
	if (len == 4)
		*val = fdt_be32(p);
	else if (len == 8)
		*val = be64(p);
	else
		return -FDT_ERR_BADVALUE;
	return 0;
}

static int read_cells(const void *blob, int node, const char *name, int dflt)
{
	u32 cells = 0;
	int err = fdt_read_u32(blob, node, name, &cells);

	if (err == -FDT_ERR_NOTFOUND)
		return dflt;
	if (err)
		return err;
	return cells > MAX_CELLS ? -FDT_ERR_BADCELLS : (int)cells;
}

int fdt_address_cells(const void *blob, int node)
{
	return read_cells(blob, node, "#address-cells", 2);
}

int fdt_size_cells(const void *blob, int node)
{
	return read_cells(blob, node, "#size-cells", 1);
}

/* A number of 0, 1 or 2 cells. */
static u64 read_number(const u8 *p, int cells)
{
	u64 val = 0;

	while (cells--) {
		val = val << 32 | fdt_be32(p);
		p += 4;
	}
	return val;
}

int fdt_decode_reg(const void *prop, int len, int address_cells,
		   int size_cells, struct fdt_reg *regs, int max)
{
	const u8 *p = prop;
	int entry_len, count, i;

	if (address_cells < 0 || address_cells > 2 || size_cells < 0 ||
	    size_cells > 2 || address_cells + size_cells == 0)
		return -FDT_ERR_BADCELLS;
	entry_len = 4 * (address_cells + size_cells);
	if (len < 0 || len % entry_len)
		return -FDT_ERR_BADVALUE;
	count = len / entry_len;
	for (i = 0; i < count && i < max; i++, p += entry_len) {
		regs[i].base = read_number(p, address_cells);
		regs[i].size = read_number(p + 4 * address_cells, size_cells);
	}
	return count;
}

int fdt_get_reg(const void *blob, int node, struct fdt_reg *regs, int max)
{
	int parent = fdt_parent_offset(blob, node);
	int ac, sc, len;
	const void *prop;

	if (parent < 0)
		return parent;
	ac = fdt_address_cells(blob, parent);
	if (ac < 0)
		return ac;
	sc = fdt_size_cells(blob, parent);
	if (sc < 0)
		return sc;
	prop = fdt_getprop(blob, node, "reg", &len);
	if (!prop)
		return len;
	return fdt_decode_reg(prop, len, ac, sc, regs, max);
}

/* Is device_type of node exactly type? */
static bool has_type(const struct fdt_view *v, int node, const char *type)
{
	int len;
	const char *val = find_prop(v, node, "device_type", &len);
	size_t tlen = strlen(type);

	return val && len >= 0 && (size_t)len > tlen &&
	       !memcmp(val, type, tlen) && val[tlen] == '\0';
}

enum node_match {
	MATCH_PREFIX,
	MATCH_TYPE,
	MATCH_MEMORY,
};

static bool node_matches(const struct fdt_view *v, int node,
			 enum node_match how, const char *what)
{
	const char *name = node_name(v, node);

	switch (how) {
	case MATCH_PREFIX:
		return !strncmp(name, what, strlen(what));
	case MATCH_TYPE:
		return has_type(v, node, what);
	default:
		return name_matches(name, "memory", 6) ||
		       has_type(v, node, "memory");
	}
}

static int next_match(const void *blob, int from, enum node_match how,
		      const char *what)
{
	struct fdt_view v;
	int node = view_init(&v, blob, SIZE_MAX);

	if (node < 0)
		return node;
	node = from;
	while ((node = walk_next_node(&v, node, NULL)) >= 0) {
		if (node_matches(&v, node, how, what))
			return node;
	}
	return node;
}

int fdt_next_node_by_prefix(const void *blob, int from, const char *prefix)
{
	return next_match(blob, from, MATCH_PREFIX, prefix);
}

int fdt_next_node_by_type(const void *blob, int from, const char *type)
{
	return next_match(blob, from, MATCH_TYPE, type);
}

int fdt_next_memory_node(const void *blob, int from)
{
	return next_match(blob, from, MATCH_MEMORY, NULL);
}
