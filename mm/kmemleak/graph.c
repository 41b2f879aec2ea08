/*
 * 'memleak graph': the last scan's suspects and the pointers between
 * them as a Graphviz DOT graph, printed between two marker lines so
 * that tools/leak-graph can find it in a console log and draw it:
 *
 *   "0x4f0c2e40" [label="0x4f0c2e40\n64 bytes, direct\nsetup_cycle+0x30/0x80"]
 *   "0x4f0c2e40" -> "0x4f0c2f00" [label="+0x8"]
 *
 * One node per suspect (filled by tier: direct, indirect, possibly
 * lost), labelled with its size and allocation site; one edge per word
 * of a suspect that points to another one (its start or an alias),
 * labelled with the word's offset. At most MAX_NODES nodes and
 * MAX_EDGES edges: what is left out is said, never dropped silently.
 * A possibly lost suspect also gets, when one is found, a reachable
 * block holding a pointer inside it (what made it "possibly lost"
 * rather than direct), drawn dashed: the first one of the list of
 * blocks; a pointer held only by a root has no node. One holder at most
 * per suspect, so these stay within MAX_NODES nodes and edges more:
 *
 *   "0x4f0c1000" [label="0x4f0c1000\n32 bytes, reachable", style=dashed]
 *   "0x4f0c1000" -> "0x4f0c2e40" [label="+0x4", style=dashed]
 *
 * Locking: after a scan of its own, further scans are kept out until
 * the graph is printed (memleak_claim_scan(), which also pins the
 * blocks, as 'memleak why' does), so every verdict drawn is that scan's
 * and one graph's state is never overwritten by another's. The suspects
 * are copied with memleak_lock held (through memleak_walk_blocks());
 * each one's words are then read with the lock held, at most
 * READ_BUDGET words at a time, after finding the block again by its
 * address (a block freed meanwhile is passed over). The holders of
 * interior pointers are looked for the same way, in the pinned blocks
 * listed first by memleak_walk_blocks(), READ_BUDGET words per window.
 * The copies hold block addresses, so they live outside the scan's
 * roots.
 */
#include <kernel/memleak.h>
#include <kernel/kallsyms.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include "internal.h"

#define MAX_NODES 64
#define MAX_EDGES 256
#define READ_BUDGET 1024

struct graph_node {
	unsigned long start;
	size_t size;
	enum memleak_tier tier;
	unsigned long site;	/* first frame of the trace; 0: unknown */
	/* possibly lost: a reachable block pointing inside; 0: none known */
	unsigned long holder;
	size_t holder_size;
	unsigned long holder_offset;	/* of the pointer in the holder */
};

struct graph_edge {
	unsigned int from, to;	/* node indexes */
	unsigned long offset;	/* of the pointer in from */
};

static struct graph_node nodes[MAX_NODES] __memleak_noscan;
static struct graph_edge edges[MAX_EDGES] __memleak_noscan;
static unsigned int nr_nodes, nr_edges;
static unsigned long nodes_left_out, edges_left_out;

static const char *const tier_names[MEMLEAK_NR_TIERS] = {
	[MEMLEAK_DIRECT_LEAK] = "direct",
	[MEMLEAK_INDIRECT_LEAK] = "indirect",
	[MEMLEAK_POSSIBLY_LOST] = "possibly lost",
};

static const char *const tier_colours[MEMLEAK_NR_TIERS] = {
	[MEMLEAK_DIRECT_LEAK] = "#f4a6a6",
	[MEMLEAK_INDIRECT_LEAK] = "#f9d89c",
	[MEMLEAK_POSSIBLY_LOST] = "#c6d8f0",
};

static bool is_suspect(const struct memleak_block *b)
{
	return (b->flags & (MEMLEAK_SUSPECT | MEMLEAK_ALLOCATED)) ==
	       (MEMLEAK_SUSPECT | MEMLEAK_ALLOCATED);
}

/* memleak_walk_blocks() visitor, memleak_lock held. */
static void add_node(struct memleak_block *b, unsigned long start, void *ctx)
{
	const struct memleak_trace *t = block_trace(b);
	struct graph_node *n;

	(void)ctx;
	if (!is_suspect(b))
		return;
	if (nr_nodes == MAX_NODES) {
		nodes_left_out++;
		return;
	}
	n = &nodes[nr_nodes++];
	*n = (struct graph_node){ 0 };
	n->start = start;
	n->size = block_size(b);
	n->tier = memleak_block_tier(b);
	n->site = t && t->nr_entries ? t->entries[0] : 0;
}

/* The node of the block starting at start, or -1. */
static int node_of(unsigned long start)
{
	for (unsigned int i = 0; i < nr_nodes; i++)
		if (nodes[i].start == start)
			return i;
	return -1;
}

static void add_edge(unsigned int from, unsigned int to, unsigned long offset)
{
	if (nr_edges == MAX_EDGES) {
		edges_left_out++;
		return;
	}
	edges[nr_edges++] = (struct graph_edge){ from, to, offset };
}

/* Reads words [*offset, +READ_BUDGET) of node i; false when done. */
static bool read_some_words(unsigned int i, unsigned long *offset)
{
	const struct memleak_block *b = memleak_index_find(nodes[i].start);
	const unsigned long *p, *end;

	if (!b || block_start(b) != nodes[i].start || !is_suspect(b) ||
	    *offset + sizeof(long) > block_size(b))
		return false;
	p = (const unsigned long *)(block_start(b) + *offset);
	end = p + min((block_size(b) - *offset) / sizeof(long),
		      (size_t)READ_BUDGET);
	for (; p < end; p++) {
		const struct memleak_block *t;
		int to;

		if (!memleak_in_bounds(*p) ||
		    !memleak_reads_word(b, (unsigned long)p - block_start(b)))
			continue;
		t = memleak_lookup_block(*p);
		if (t && t != b && is_suspect(t) &&
		    (to = node_of(block_start(t))) >= 0)
			add_edge(i, to, (unsigned long)p - block_start(b));
	}
	*offset = (unsigned long)p - block_start(b);
	return true;
}

static void find_edges(void)
{
	for (unsigned int i = 0; i < nr_nodes; i++) {
		unsigned long offset = 0, flags;
		bool more;

		do {
			memleak_enter(&flags);
			more = read_some_words(i, &offset);
			memleak_leave(flags);
		} while (more);
	}
}

/* ------------------------------------------------------------------ */
/* Reachable blocks pointing inside possibly lost suspects            */

static bool holders_incomplete;

static bool is_reachable(const struct memleak_block *b)
{
	return (b->flags & MEMLEAK_ALLOCATED) && !block_is_black(b) &&
	       !block_is_white(b);
}

/* The node of the possibly lost suspect value points inside, or -1. */
static int lost_node_of(unsigned long value)
{
	const struct memleak_block *t;
	unsigned long start;
	int i;

	/* Unaligned words are never references: the scan skips them. */
	if (value % sizeof(long) || !memleak_in_bounds(value))
		return -1;
	t = memleak_index_find_at(value, &start);
	if (!t || !is_suspect(t) || block_has_key(t, start, value))
		return -1;
	i = node_of(start);
	if (i < 0 || nodes[i].tier != MEMLEAK_POSSIBLY_LOST)
		return -1;
	return i;
}

/*
 * Reads words [from, to) of the reachable block h, a window open, for
 * pointers inside possibly lost suspects with no holder yet. When the
 * window's words are spent, other CPUs get the lock; reading stops if
 * h was freed meanwhile.
 */
static void read_holder_words(const struct memleak_block *h,
			      unsigned long from, unsigned long to,
			      unsigned long *flags, unsigned int *left)
{
	const unsigned long *p = (const unsigned long *)ALIGN(from,
							      sizeof(long));
	const unsigned long *end = (const unsigned long *)ALIGN_DOWN(to,
							     sizeof(long));

	for (; p < end; p++) {
		int i = lost_node_of(*p);

		if (i >= 0 && !nodes[i].holder) {
			nodes[i].holder = block_start(h);
			nodes[i].holder_size = block_size(h);
			nodes[i].holder_offset =
				(unsigned long)p - block_start(h);
		}
		if (--*left)
			continue;
		memleak_leave(*flags);
		memleak_enter(flags);
		*left = READ_BUDGET;
		if (!(h->flags & MEMLEAK_ALLOCATED))
			return;
	}
}

/* What the scan read of h: its scan areas, or all of it. */
static void read_holder(const struct memleak_block *h, unsigned long start,
			unsigned long *flags, unsigned int *left)
{
	struct block_part part;

	if (!is_reachable(h))
		return;
	for_each_block_part(h, start, part) {
		read_holder_words(h, part.start, part.end, flags, left);
		if (!(h->flags & MEMLEAK_ALLOCATED))
			return;		/* gone while the lock was dropped */
	}
}

/* memleak_walk_blocks() visitor, memleak_lock held. */
static void add_holder_candidate(struct memleak_block *b, unsigned long start,
				 void *ctx)
{
	if (is_reachable(b))
		memleak_block_list_add(ctx, b, start);
}

static bool any_possibly_lost(void)
{
	for (unsigned int i = 0; i < nr_nodes; i++)
		if (nodes[i].tier == MEMLEAK_POSSIBLY_LOST)
			return true;
	return false;
}

/*
 * The list of reachable blocks is taken first, so that reading them can
 * let other CPUs in between windows; the claim keeps them pinned.
 */
static void find_holders(void)
{
	struct memleak_block_list all = { { NULL, NULL, 0 }, false };
	struct memleak_queue_chunk *chunk;
	struct memleak_queue_entry *h;
	unsigned long flags;
	unsigned int i, left = READ_BUDGET;

	holders_incomplete = false;
	if (!any_possibly_lost())
		return;
	memleak_walk_blocks(add_holder_candidate, &all);
	memleak_enter(&flags);
	if (!all.out_of_memory)
		memleak_queue_for_each(&all.queue, chunk, i, h)
			read_holder(h->block, h->start, &flags, &left);
	holders_incomplete = all.out_of_memory;
	memleak_queue_empty(&all.queue);
	memleak_leave(flags);
}

/* ------------------------------------------------------------------ */
/* Printing                                                           */

static void print_node(const struct graph_node *n)
{
	char site[KSYM_PRINT_MAX];

	if (!n->site || !kallsyms_snprint(site, sizeof(site), n->site))
		snprintf(site, sizeof(site), "0x%08lx", n->site);
	printk("  \"0x%08lx\" [label=\"0x%08lx\\n%zu bytes, %s\\n%s\", "
	       "fillcolor=\"%s\"];\n", n->start, n->start, n->size,
	       tier_names[n->tier], site, tier_colours[n->tier]);
}

static unsigned int nr_holders;

/* Node i's holder: its node unless an earlier one has the same, its edge. */
static void print_holder(unsigned int i)
{
	const struct graph_node *n = &nodes[i];
	unsigned int j;

	if (!n->holder)
		return;
	for (j = 0; j < i && nodes[j].holder != n->holder; j++)
		;
	if (j == i) {
		printk("  \"0x%08lx\" [label=\"0x%08lx\\n%zu bytes, "
		       "reachable\", style=dashed];\n", n->holder, n->holder,
		       n->holder_size);
		nr_holders++;
	}
	printk("  \"0x%08lx\" -> \"0x%08lx\" [label=\"+0x%lx\", "
	       "style=dashed];\n", n->holder, n->start, n->holder_offset);
}

static void print_graph(void)
{
	printk("memleak: graph begin\n");
	printk("digraph leaks {\n");
	/* Unconnected suspects in rows of five, not one long line. */
	printk("  graph [pack=true, packmode=\"array_c5\"];\n");
	printk("  node [shape=box, style=filled, fontname=\"monospace\"];\n");
	for (unsigned int i = 0; i < nr_nodes; i++)
		print_node(&nodes[i]);
	for (unsigned int i = 0; i < nr_edges; i++)
		printk("  \"0x%08lx\" -> \"0x%08lx\" [label=\"+0x%lx\"];\n",
		       nodes[edges[i].from].start, nodes[edges[i].to].start,
		       edges[i].offset);
	nr_holders = 0;
	for (unsigned int i = 0; i < nr_nodes; i++)
		print_holder(i);
	if (nodes_left_out || edges_left_out)
		printk("  // left out: %lu suspects, %lu pointers\n",
		       nodes_left_out, edges_left_out);
	if (holders_incomplete)
		printk("  // out of memory for the list of blocks: no "
		       "reachable block pointing inside\n");
	printk("}\n");
	printk("memleak: graph end\n");
}

static int cmd_graph(int argc, char **argv)
{
	(void)argc, (void)argv;
	if (memleak_scan_and_claim("graph"))
		return 1;
	nr_nodes = nr_edges = 0;
	nodes_left_out = edges_left_out = 0;
	memleak_walk_blocks(add_node, NULL);
	find_edges();
	find_holders();
	print_graph();
	printk("memleak: graph of %u suspects and %u pointers", nr_nodes,
	       nr_edges);
	if (nr_holders)
		printk(", %u reachable block%s pointing inside", nr_holders,
		       nr_holders == 1 ? "" : "s");
	if (nodes_left_out || edges_left_out)
		printk(" (%lu suspects and %lu pointers left out: at most %d "
		       "and %d)", nodes_left_out, edges_left_out, MAX_NODES,
		       MAX_EDGES);
	if (holders_incomplete)
		printk(" (out of memory: no reachable block pointing inside)");
	printk("; tools/leak-graph draws it\n");
	memleak_release_scan();
	return 0;
}
MEMLEAK_COMMAND("graph", cmd_graph, 0, 0, "",
		"scan; the suspects and their pointers as Graphviz DOT");
