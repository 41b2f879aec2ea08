/* Reads flattened device trees (DTB v16/v17) as boot loaders pass them. */
#ifndef KERNEL_FDT_H
#define KERNEL_FDT_H

#include <kernel/types.h>

#define FDT_MAGIC 0xd00dfeed

/*
 * Errors, returned negated (-FDT_ERR_BADMAGIC); fdt_strerror() turns
 * one into a message.
 */
enum fdt_error {
	FDT_ERR_NOTFOUND = 1,	/* no such node or property */
	FDT_ERR_BADMAGIC,	/* not a device tree */
	FDT_ERR_BADVERSION,	/* a format version we cannot read */
	FDT_ERR_TRUNCATED,	/* larger than the memory it was given */
	FDT_ERR_BADLAYOUT,	/* a block lies (partly) outside the blob */
	FDT_ERR_BADTOKEN,	/* unknown token in the structure block */
	FDT_ERR_BADNAME,	/* node name without its terminating NUL */
	FDT_ERR_BADPROPLEN,	/* property runs past the structure block */
	FDT_ERR_BADSTROFF,	/* property name outside the strings block */
	FDT_ERR_NESTING,	/* BEGIN_NODE and END_NODE do not balance */
	FDT_ERR_NOEND,		/* structure block ends without FDT_END */
	FDT_ERR_BADSTRUCTURE,	/* not one root, or a stray property */
	FDT_ERR_BADOFFSET,	/* the offset passed is not a node/property */
	FDT_ERR_BADPATH,	/* path does not start with '/' */
	FDT_ERR_BADVALUE,	/* property has the wrong size */
	FDT_ERR_BADCELLS,	/* #address-cells/#size-cells out of range */
	FDT_ERR_MAX,
};

/*
 * Validates everything the lookups below rely on: the header (magic,
 * version, totalsize <= max_size, every block inside totalsize) and the
 * whole structure block (known tokens, terminated names, properties and
 * their names inside their blocks, balanced nesting, a final FDT_END).
 * Returns 0 or a negative FDT_ERR_ code. Call it once on any blob that
 * comes from outside; afterwards only totalsize bytes are ever read.
 */
int fdt_check(const void *blob, size_t max_size);
const char *fdt_strerror(int err);

/* The blob's size from its header, or 0 when it has no FDT magic. */
u32 fdt_totalsize(const void *blob);

/*
 * Entry index of the memory reservation map. Returns 0, or
 * -FDT_ERR_NOTFOUND past the last entry.
 */
int fdt_get_mem_rsv(const void *blob, int index, u64 *base, u64 *size);

/*
 * Nodes are named by their offset in the structure block, an int >= 0;
 * functions returning a node return a negative error instead when they
 * fail, -FDT_ERR_NOTFOUND when there simply is none. The lookups never
 * read outside the totalsize bytes of the blob, even on a blob that was
 * not checked, but only a checked blob gives meaningful answers.
 */

/*
 * The node after node in document order (node -1: the root). With
 * depth non-NULL it is updated by the level change and the walk stops
 * with -FDT_ERR_NOTFOUND once it leaves the subtree it started in, so
 * depth 0 before the first call visits exactly node's descendants.
 */
int fdt_next_node(const void *blob, int node, int *depth);

/*
 * Node at an absolute path such as "/chosen" or "/memory@40000000".
 * A component without a unit address also matches a node that has one:
 * "/memory" finds "memory@40000000" (the first such node).
 */
int fdt_path_offset(const void *blob, const char *path);
int fdt_parent_offset(const void *blob, int node);
/* The node's name with its unit address ("" for the root); NULL on error. */
const char *fdt_get_name(const void *blob, int node);

/*
 * The value of a property of node, and its length in *lenp. Returns NULL
 * when it is absent (*lenp = -FDT_ERR_NOTFOUND) or on an error (*lenp is
 * the error). lenp may be NULL. Values are big-endian and need not be
 * aligned: decode them with the helpers below.
 */
const void *fdt_getprop(const void *blob, int node, const char *name,
			int *lenp);
/* A property holding a NUL-terminated string (bootargs); NULL otherwise. */
const char *fdt_getprop_string(const void *blob, int node, const char *name);
/* A one-cell property. Returns 0, or an error leaving *val alone. */
int fdt_read_u32(const void *blob, int node, const char *name, u32 *val);
/* A one- or two-cell property, like linux,initrd-start. */
int fdt_read_u64(const void *blob, int node, const char *name, u64 *val);

/* Big-endian cell at p, which need not be aligned. */
static inline u32 fdt_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

/*
 * #address-cells and #size-cells of node, which describe the reg
 * properties of its children: 2 and 1 when absent, as the spec says.
 * Negative on error (-FDT_ERR_BADCELLS above 4 cells).
 */
int fdt_address_cells(const void *blob, int node);
int fdt_size_cells(const void *blob, int node);

/* One entry of a reg property. */
struct fdt_reg {
	u64 base;
	u64 size;
};

/*
 * Decodes a reg value of len bytes made of (address, size) pairs of
 * address_cells and size_cells cells (0 to 2 each). Fills up to max
 * entries and returns how many the property holds, which may be more
 * than max, or a negative error.
 */
int fdt_decode_reg(const void *prop, int len, int address_cells,
		   int size_cells, struct fdt_reg *regs, int max);
/* Same for node's "reg", with the cell counts taken from its parent. */
int fdt_get_reg(const void *blob, int node, struct fdt_reg *regs, int max);

/*
 * Searches, in document order after node from (-1: from the start), for
 * a node whose name starts with prefix, or whose device_type is type.
 */
int fdt_next_node_by_prefix(const void *blob, int from, const char *prefix);
int fdt_next_node_by_type(const void *blob, int from, const char *type);
/*
 * Next memory node: device_type "memory", or named "memory" or
 * "memory@..." (some trees leave device_type out; a plain prefix would
 * also catch "memory-controller@...").
 */
int fdt_next_memory_node(const void *blob, int from);

#define fdt_for_each_memory_node(blob, node)                   \
	for (node = fdt_next_memory_node(blob, -1); node >= 0; \
	     node = fdt_next_memory_node(blob, node))

/*
 * Properties of one node, by offset: the first, then the next, until
 * -FDT_ERR_NOTFOUND. fdt_property_at() returns the value and sets *name
 * and *lenp (NULL on error, with the error in *lenp).
 */
int fdt_first_property(const void *blob, int node);
int fdt_next_property(const void *blob, int prop);
const void *fdt_property_at(const void *blob, int prop, const char **name,
			    int *lenp);

#define fdt_for_each_property(blob, node, prop)                \
	for (prop = fdt_first_property(blob, node); prop >= 0; \
	     prop = fdt_next_property(blob, prop))

#endif
