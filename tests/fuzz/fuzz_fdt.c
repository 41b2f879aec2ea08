/*
 * libFuzzer target for the device tree reader (lib/fdt.c). Every input
 * goes through fdt_check(); then, checked or not, whenever its header
 * fits the input, every lookup runs over it from a copy of exactly
 * totalsize bytes, since the lookups promise never to read past that
 * even on a blob that failed the check. On a blob that passed, the
 * lookups must also agree with each other (parents, depths, paths) and
 * meet no broken structure.
 */
#include <kernel/fdt.h>
#include <kernel/string.h>
#include <stdlib.h>

/* The header's bytes before totalsize can be trusted (v16 header). */
#define HDR_MIN 36
/* Nodes whose parent is looked up: each lookup walks the whole tree. */
#define PARENT_CHECKS 32

static volatile unsigned long sink;

static void fail_if(bool cond)
{
	if (cond)
		abort();
}

/* Reads the first and last byte of a value, so ASan checks its bounds. */
static void touch(const void *val, int len)
{
	const u8 *p = val;

	if (p && len > 0)
		sink += p[0] + p[len - 1];
}

static void walk_props(const void *blob, int node, bool checked)
{
	const char *name;
	int prop, len;

	fdt_for_each_property(blob, node, prop) {
		const void *val = fdt_property_at(blob, prop, &name, &len);

		fail_if(checked && !val);
		if (val) {
			sink += strlen(name);
			touch(val, len);
		}
	}
	fail_if(checked && prop != -FDT_ERR_NOTFOUND);
}

static void look_up_node(const void *blob, int node, bool checked)
{
	struct fdt_reg regs[4];
	const char *s;
	u64 v64;
	u32 v32;
	int len;

	s = fdt_get_name(blob, node);
	fail_if(checked && !s);
	if (s)
		sink += strlen(s);
	s = fdt_getprop_string(blob, node, "device_type");
	if (s)
		sink += strlen(s);
	touch(fdt_getprop(blob, node, "reg", &len), len);
	sink += fdt_read_u32(blob, node, "#address-cells", &v32);
	sink += fdt_read_u64(blob, node, "reg", &v64);
	sink += fdt_address_cells(blob, node) + fdt_size_cells(blob, node);
	sink += fdt_get_reg(blob, node, regs, 4);
	walk_props(blob, node, checked);
}

/* A checked tree: the parent sits one level up, the root has none. */
static void check_parent(const void *blob, int node, int depth, int root)
{
	int parent = fdt_parent_offset(blob, node);
	int d = 0, n;

	if (node == root) {
		fail_if(parent != -FDT_ERR_NOTFOUND);
		return;
	}
	fail_if(parent < 0 || parent >= node);
	/* The node must be among the parent's children, one level down. */
	for (n = parent; (n = fdt_next_node(blob, n, &d)) >= 0 && n != node;)
		;
	fail_if(n != node || d != 1 || depth < 2);
}

static void walk_nodes(const void *blob, bool checked)
{
	int node = -1, depth = 0, root = -1, count = 0;

	while ((node = fdt_next_node(blob, node, &depth)) >= 0) {
		if (root < 0)
			root = node;
		look_up_node(blob, node, checked);
		if (checked && count++ < PARENT_CHECKS)
			check_parent(blob, node, depth, root);
	}
	fail_if(checked && node != -FDT_ERR_NOTFOUND);
	if (checked)
		fail_if(fdt_path_offset(blob, "/") != root);
}

static void search(const void *blob, bool checked)
{
	static const char *const paths[] = {
		"/", "/chosen", "/memory", "/cpus/cpu@0", "//chosen/",
		"/a/b/c/d", "chosen", "/memory@40000000",
	};
	u64 base, size;
	int node, i;

	for (i = 0; i < (int)(sizeof(paths) / sizeof(paths[0])); i++) {
		node = fdt_path_offset(blob, paths[i]);
		if (node >= 0)
			look_up_node(blob, node, checked);
	}
	fdt_for_each_memory_node(blob, node)
		look_up_node(blob, node, checked);
	for (node = -1; (node = fdt_next_node_by_type(blob, node, "cpu")) >= 0;)
		sink += node;
	for (node = -1; (node = fdt_next_node_by_prefix(blob, node, "v")) >= 0;)
		sink += node;
	for (i = 0; fdt_get_mem_rsv(blob, i, &base, &size) == 0; i++)
		sink += base + size;
	fail_if(checked && fdt_get_mem_rsv(blob, i, &base, &size) !=
		-FDT_ERR_NOTFOUND);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 *copy = malloc(size ? size : 1);
	size_t total;
	int err;

	memcpy(copy, data, size);
	err = fdt_check(copy, size);
	sink += strlen(fdt_strerror(err));
	total = size >= HDR_MIN ? fdt_totalsize(copy) : 0;
	if (total && total <= size) {
		size_t len = total > HDR_MIN ? total : HDR_MIN;
		u8 *blob = malloc(len);

		memcpy(blob, copy, len);
		/* Passing with the room it had, it passes with its own size. */
		fail_if(!err && fdt_check(blob, total));
		walk_nodes(blob, !err);
		search(blob, !err);
		free(blob);
	}
	free(copy);
	return 0;
}
