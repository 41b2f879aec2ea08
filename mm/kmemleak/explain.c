/*
 * Explaining a verdict of the scan (docs/memleak.md, "Explaining a
 * verdict"). 'memleak refs ADDR' lists every root location and every
 * tracked block that holds a pointer into the block holding ADDR, and
 * what each pointer is (its start, an alias, an interior address);
 * 'memleak why ADDR' shows one path of pointers from a root to a
 * reachable block, the shortest: a breadth-first search from the roots
 * through the blocks the scan found reachable, each queued block
 * followed by the block it was found in (its parent).
 *
 * Locking: both run after a scan of their own, and keep further scans
 * out meanwhile (memleak_claim_scan(), which also pins the blocks), so
 * the colours they read are that scan's and the metadata of every block
 * they queue stays valid. Memory is read with memleak_lock held and
 * interrupts off, WINDOW_WORDS words at a time, as the scan does; a
 * block freed in between (MEMLEAK_ALLOCATED cleared) is read no
 * further. The search's queue is made of the collector's queue chunks;
 * when they run out the search stops, says so and clears its marks
 * (MEMLEAK_EXPLAIN_SEEN): nothing else is changed. Its state is in
 * noscan memory: a copy of ADDR there must not pass for a reference.
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/kernel.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/task.h>
#include "internal.h"

/* Words read per IRQ-off window, the scan's SCAN_BUDGET. */
#define WINDOW_WORDS 1024
/* Referrers 'memleak refs' names; the others are counted. */
#define MAX_SHOWN 32
/* Blocks of a path 'memleak why' names, nearest the target first. */
#define MAX_PATH 32
#define LOCATION_MAX 160

/* ------------------------------------------------------------------ */
/* Reading memory in bounded windows                                  */

static unsigned long window_flags;
static unsigned int window_left;

static void window_open(void)
{
	memleak_enter(&window_flags);
	window_left = WINDOW_WORDS;
}

static void window_close(void)
{
	memleak_leave(window_flags);
}

/*
 * Calls found(where, value, ctx) for each word of [start, end) that may
 * point into a block, a window open, until found() returns false. When
 * the window's words are spent, other CPUs get the lock for a moment;
 * reading stops if owner (when given) was freed meanwhile. Returns false
 * when it stopped early.
 */
static bool read_words(unsigned long start, unsigned long end,
		       const struct memleak_block *owner,
		       bool (*found)(unsigned long where, unsigned long value,
				     void *ctx),
		       void *ctx)
{
	const unsigned long *p, *stop;

	p = (const unsigned long *)ALIGN(start, sizeof(long));
	stop = (const unsigned long *)ALIGN_DOWN(end, sizeof(long));

	while (p < stop) {
		unsigned long n = min((unsigned long)(stop - p),
				      (unsigned long)window_left);

		for (const unsigned long *q = p + n; p < q; p++)
			if (memleak_in_bounds(*p) &&
			    (!owner ||
			     memleak_reads_word(owner,
						(unsigned long)p -
							block_start(owner))) &&
			    !found((unsigned long)p, *p, ctx))
				return false;
		window_left -= n;
		if (window_left)
			continue;
		window_close();
		window_open();
		if (owner && !(owner->flags & MEMLEAK_ALLOCATED))
			return false;
	}
	return true;
}

/* The parts of b the scan reads: its scan areas, or all of it. */
static bool read_block(const struct memleak_block *b,
		       bool (*found)(unsigned long, unsigned long, void *),
		       void *ctx)
{
	struct block_part part;

	if (!(b->flags & MEMLEAK_ALLOCATED))
		return true;
	for_each_block_part(b, block_start(b), part)
		if (!read_words(part.start, part.end, b, found, ctx))
			return false;
	return true;
}

/* ------------------------------------------------------------------ */
/* What the user asked about                                          */

/* Whether value points into b (a block of size 0 holds its start). */
static bool points_into(const struct memleak_block *b, unsigned long value)
{
	return value - block_start(b) < max(block_size(b), (size_t)1);
}

/* Whether the scan counts value as a reference to b. */
static bool counts_for_scan(const struct memleak_block *b,
			    unsigned long value)
{
	if (memleak.interior)
		return points_into(b, value);
	return value % sizeof(long) == 0 &&
	       block_has_key(b, block_start(b), value);
}

/* What a pointer into b is: its start, an alias, an interior address. */
static void describe_pointer(const struct memleak_block *b,
			     unsigned long value, char *buf, size_t size)
{
	unsigned long start = block_start(b), off = value - start;

	if (off == 0 ||
	    (block_has_key(b, start, value) && off == block_pad_offset(b)))
		snprintf(buf, size, "start");
	else if (block_has_key(b, start, value))
		snprintf(buf, size, "alias +0x%lx", off);
	else
		snprintf(buf, size, "interior +0x%lx%s", off,
			 memleak.interior ? "" : ", no reference to the scan");
}

/* The last scan's verdict on b. */
static const char *verdict(const struct memleak_block *b)
{
	if (!(b->flags & MEMLEAK_ALLOCATED))
		return "freed since the scan";
	if (block_is_black(b))
		return "ignored (memleak_ignore: never scanned)";
	if (!block_is_white(b))
		return "reachable";
	if (!(b->flags & MEMLEAK_SUSPECT))
		return "unreachable, not reported (younger than the minimum "
		       "age, cleared, or newer than the scan)";
	switch (memleak_block_tier(b)) {
	case MEMLEAK_INDIRECT_LEAK:
		return "a suspect (indirect leak)";
	case MEMLEAK_POSSIBLY_LOST:
		return "a suspect (possibly lost)";
	default:
		return "a suspect (direct leak)";
	}
}

/*
 * The address asked about. Kept here, in noscan memory, while the scan
 * runs: a copy in a live frame of the command would be read as a
 * pointer to the very block asked about, and make it reachable.
 */
static unsigned long asked_addr __memleak_noscan;

/* Parses argv[1] into asked_addr; its frame is dead by the scan. */
static __noinline bool parse_addr(char **argv)
{
	unsigned long addr;

	if (kstrtoul(argv[1], 16, &addr)) {
		printk("memleak %s: '%s' is not a hex address\n", argv[0],
		       argv[1]);
		return false;
	}
	asked_addr = addr;
	return true;
}

/* The block holding the address argv[1] names, with the scan claimed. */
static struct memleak_block *target_of(char **argv)
{
	struct memleak_block *b;
	unsigned long addr, flags;

	if (!parse_addr(argv))
		return NULL;
	/* parse_addr()'s dead frame lies where the scan's callers go. */
	task_wipe_dead_stack();
	if (memleak_scan_and_claim(argv[0]))
		return NULL;
	addr = READ_ONCE(asked_addr);
	memleak_enter(&flags);
	b = memleak_index_find(addr);
	memleak_leave(flags);
	if (!b) {
		printk("memleak %s: 0x%08lx is not inside any tracked block\n",
		       argv[0], addr);
		memleak_release_scan();
	}
	return b;
}

static void print_block_header(const char *cmd, const struct memleak_block *b)
{
	printk("memleak %s: block 0x%08lx (size %zu) is %s\n", cmd,
	       block_start(b), block_size(b), verdict(b));
}

/* ------------------------------------------------------------------ */
/* memleak refs                                                       */

/* One pointer into the target: in a root (block NULL) or in a block. */
struct referrer {
	const char *root;
	const struct memleak_block *block;
	unsigned long where, value;
};

struct refs {
	const struct memleak_block *target;
	const char *root;		/* the root being read, or NULL */
	const struct memleak_block *block;	/* the block being read */
	unsigned long nr_roots, nr_blocks;
	unsigned int nr_shown;
	struct referrer shown[MAX_SHOWN];
};

static struct refs refs __memleak_noscan;

static bool note_referrer(unsigned long where, unsigned long value, void *ctx)
{
	struct refs *r = ctx;

	if (!points_into(r->target, value))
		return true;
	if (r->nr_shown < MAX_SHOWN)
		r->shown[r->nr_shown++] = (struct referrer){
			r->root, r->block, where, value
		};
	if (r->block)
		r->nr_blocks++;
	else
		r->nr_roots++;
	return true;
}

static void refs_in_root(unsigned long start, unsigned long end,
			 const char *root, void *ctx)
{
	struct refs *r = ctx;

	r->root = root;
	r->block = NULL;
	window_open();
	read_words(start, end, NULL, note_referrer, r);
	window_close();
}

static void collect_block(struct memleak_block *b, unsigned long start,
			  void *ctx)
{
	if (b->flags & MEMLEAK_ALLOCATED)
		memleak_block_list_add(ctx, b, start);
}

/*
 * Every block is read in full, whatever the scan reads of it: a pointer
 * the scan passes over is still worth knowing about. The list of blocks
 * is taken first (memleak_walk_blocks()), so that reading them can let
 * other CPUs in between windows. False when out of memory.
 */
static bool refs_in_blocks(struct refs *r)
{
	struct memleak_block_list all = { { NULL, NULL, 0 }, false };
	struct memleak_queue_chunk *chunk;
	struct memleak_queue_entry *e;
	unsigned int i;
	bool ok;

	memleak_walk_blocks(collect_block, &all);
	window_open();
	ok = !all.out_of_memory;
	if (ok) {
		memleak_queue_for_each(&all.queue, chunk, i, e) {
			r->root = NULL;
			r->block = e->block;
			if (e->block->flags & MEMLEAK_ALLOCATED)
				read_words(e->start,
					   e->start + block_size(e->block),
					   e->block, note_referrer, r);
		}
	}
	memleak_queue_empty(&all.queue);
	window_close();
	return ok;
}

/* Whether the scan reads the word at off of b (its scan areas). */
static bool in_scan_areas(const struct memleak_block *b, unsigned long off)
{
	const struct memleak_scan_area *a = block_scan_areas(b);

	if (!a)
		return true;
	for (; a; a = a->next)
		if (off - a->offset < a->length)
			return true;
	return false;
}

static void print_referrer(const struct referrer *ref)
{
	const struct memleak_block *b = ref->block;
	char what[64], where[LOCATION_MAX];

	describe_pointer(refs.target, ref->value, what, sizeof(what));
	if (!b) {
		memleak_describe_root(ref->where, ref->root, where,
				      sizeof(where));
		printk("  %s: 0x%08lx, %s\n", where, ref->value, what);
		return;
	}
	printk("  block 0x%08lx (size %zu)+0x%lx: 0x%08lx, %s; that block "
	       "is %s%s\n",
	       block_start(b), block_size(b), ref->where - block_start(b),
	       ref->value,
	       what, verdict(b),
	       in_scan_areas(b, ref->where - block_start(b))
		       ? ""
		       : ", and this word is outside its scan areas");
}

static int cmd_refs(int argc, char **argv)
{
	unsigned long floor = (unsigned long)__builtin_frame_address(0);
	struct memleak_block *b = target_of(argv);
	bool complete;

	(void)argc;
	if (!b)
		return 1;
	memset(&refs, 0, sizeof(refs));
	refs.target = b;
	memleak_walk_roots(refs_in_root, &refs, floor);
	complete = refs_in_blocks(&refs);
	print_block_header("refs", b);
	for (unsigned int i = 0; i < refs.nr_shown; i++)
		print_referrer(&refs.shown[i]);
	if (refs.nr_roots + refs.nr_blocks > refs.nr_shown)
		printk("  ... and %lu more\n",
		       refs.nr_roots + refs.nr_blocks - refs.nr_shown);
	if (!complete)
		printk("memleak refs: out of memory for the list of blocks: "
		       "only the roots were read\n");
	printk("memleak refs: %lu pointer%s into block 0x%08lx: %lu in roots, "
	       "%lu in blocks\n",
	       refs.nr_roots + refs.nr_blocks,
	       refs.nr_roots + refs.nr_blocks == 1 ? "" : "s", block_start(b),
	       refs.nr_roots, refs.nr_blocks);
	memleak_release_scan();
	return complete ? 0 : 1;
}

/* ------------------------------------------------------------------ */
/* memleak why                                                        */

/*
 * The search's queue holds pairs: a block, then the block it was found
 * in; NULL for a block found in a root, the block itself for one the
 * scan starts from (min_count 0, memleak_not_leak()).
 */
struct search {
	struct memleak_queue queue;
	const struct memleak_block *target;
	struct memleak_block *parent;	/* the block being read */
	unsigned long nr_seen;
	bool found, out_of_memory;
};

static struct search search __memleak_noscan;

/* A place in the queue that stays valid while pairs are added. */
struct queue_cursor {
	struct memleak_queue_chunk *chunk;
	unsigned int i;
};

static bool cursor_next(const struct memleak_queue *q, struct queue_cursor *c,
			struct memleak_block **b)
{
	if (!c->chunk) {
		if (!q->first)
			return false;
		c->chunk = q->first;
		c->i = c->chunk->head;
	}
	while (c->i == c->chunk->tail) {
		if (!c->chunk->next)
			return false;
		c->chunk = c->chunk->next;
		c->i = c->chunk->head;
	}
	*b = c->chunk->entry[c->i++].block;
	return true;
}

/* Queues b, found in parent; false when out of memory. */
static bool enqueue(struct search *s, struct memleak_block *b,
		    struct memleak_block *parent)
{
	/* Marked only once queued: end_search() unmarks what is queued. */
	if (!memleak_queue_push(&s->queue, b, block_start(b))) {
		s->out_of_memory = true;
		return false;
	}
	b->flags |= MEMLEAK_EXPLAIN_SEEN;
	s->nr_seen++;
	if (!memleak_queue_push(&s->queue, parent,
				parent ? block_start(parent) : 0)) {
		s->out_of_memory = true;
		return false;
	}
	if (b == s->target)
		s->found = true;
	return !s->found;
}

/* A word read: its block joins the queue if the scan found it reachable. */
static bool follow(unsigned long where, unsigned long value, void *ctx)
{
	struct search *s = ctx;
	struct memleak_block *b = memleak_index_find(value);

	(void)where;
	if (s->found || s->out_of_memory)
		return false;
	if (!b || !(b->flags & MEMLEAK_ALLOCATED) ||
	    (b->flags & MEMLEAK_EXPLAIN_SEEN) || !block_is_gray(b) ||
	    !counts_for_scan(b, value))
		return true;
	return enqueue(s, b, s->parent);
}

static void follow_root(unsigned long start, unsigned long end,
			const char *root, void *ctx)
{
	struct search *s = ctx;

	(void)root;
	if (s->found || s->out_of_memory)
		return;
	s->parent = NULL;
	window_open();
	read_words(start, end, NULL, follow, s);
	window_close();
}

/* Blocks the scan starts from, as if a root pointed at them. */
static void follow_never_leak(struct memleak_block *b, unsigned long start,
			      void *ctx)
{
	struct search *s = ctx;

	(void)start;
	if (s->found || s->out_of_memory || !(b->flags & MEMLEAK_ALLOCATED) ||
	    (b->flags & MEMLEAK_EXPLAIN_SEEN) || b->min_count != 0 ||
	    block_is_black(b))
		return;
	enqueue(s, b, b);
}

/* Breadth first: each queued block is read in turn, which queues more. */
static void search_blocks(struct search *s)
{
	struct queue_cursor c = { NULL, 0 };
	struct memleak_block *b, *parent;

	window_open();
	while (!s->found && !s->out_of_memory &&
	       cursor_next(&s->queue, &c, &b) &&
	       cursor_next(&s->queue, &c, &parent)) {
		s->parent = b;
		read_block(b, follow, s);
	}
	window_close();
}

/* The parent queued with b (b must be queued). */
static struct memleak_block *parent_of(const struct search *s,
				       const struct memleak_block *b)
{
	struct queue_cursor c = { NULL, 0 };
	struct memleak_block *e, *parent;

	while (cursor_next(&s->queue, &c, &e) &&
	       cursor_next(&s->queue, &c, &parent))
		if (e == b)
			return parent;
	return NULL;
}

/* Takes the marks off every queued block and gives the queue back. */
static void end_search(struct search *s)
{
	struct queue_cursor c = { NULL, 0 };
	struct memleak_block *b, *parent;
	unsigned long n = 0;

	window_open();
	while (cursor_next(&s->queue, &c, &b)) {
		b->flags &= ~MEMLEAK_EXPLAIN_SEEN;
		if (!cursor_next(&s->queue, &c, &parent))
			break;
		if (++n % WINDOW_WORDS == 0) {
			window_close();
			window_open();
		}
	}
	memleak_queue_empty(&s->queue);
	window_close();
}

/* Where a pointer into to was found: a word of from, or of a root. */
struct edge {
	const struct memleak_block *to;
	const char *root;
	unsigned long where;
};

static bool find_edge(unsigned long where, unsigned long value, void *ctx)
{
	struct edge *e = ctx;

	if (e->where || !points_into(e->to, value) ||
	    !counts_for_scan(e->to, value))
		return true;
	e->where = where;
	return false;
}

static void find_edge_in_root(unsigned long start, unsigned long end,
			      const char *root, void *ctx)
{
	struct edge *e = ctx;

	if (e->where)
		return;
	window_open();
	read_words(start, end, NULL, find_edge, e);
	window_close();
	if (e->where && !e->root)
		e->root = root;
}

/* The offset in from of a pointer to to, or -1 when it is gone. */
static long edge_offset(const struct memleak_block *from,
			const struct memleak_block *to)
{
	struct edge e = { to, NULL, 0 };

	window_open();
	read_block(from, find_edge, &e);
	window_close();
	return e.where ? (long)(e.where - block_start(from)) : -1;
}

static void print_hop(const struct memleak_block *b,
		      const struct memleak_block *next)
{
	long off = edge_offset(b, next);

	if (off < 0)
		printk("  -> block 0x%08lx (size %zu) (its pointer is gone "
		       "since)\n",
		       block_start(b), block_size(b));
	else
		printk("  -> block 0x%08lx (size %zu)+0x%lx\n", block_start(b),
		       block_size(b), (unsigned long)off);
}

/* The start of the path: the root word pointing at first. */
static void print_root(struct memleak_block *first, unsigned long floor)
{
	struct edge e = { first, NULL, 0 };
	char where[LOCATION_MAX];

	if (parent_of(&search, first) == first) {
		printk("  root: block 0x%08lx (size %zu), never a leak "
		       "(min_count 0, memleak_not_leak())\n",
		       block_start(first), block_size(first));
		return;
	}
	memleak_walk_roots(find_edge_in_root, &e, floor);
	if (!e.where) {
		printk("  root: (its pointer is gone since)\n");
		return;
	}
	memleak_describe_root(e.where, e.root, where, sizeof(where));
	printk("  root %s\n", where);
}

/* The path found, from its root to the target. */
static void print_path(struct memleak_block *target, unsigned long addr,
		       unsigned long floor)
{
	static struct memleak_block *path[MAX_PATH] __memleak_noscan;
	struct memleak_block *b = target, *parent;
	unsigned int n = 0;
	unsigned long more = 0;

	/* path[0] is the target, path[n - 1] the first block after a root. */
	for (;;) {
		if (n < MAX_PATH)
			path[n++] = b;
		else
			more++;
		parent = parent_of(&search, b);
		if (!parent || parent == b)
			break;
		b = parent;
	}
	printk("memleak why: a path of %lu pointer%s from a root to 0x%08lx:"
	       "\n", n + more, n + more == 1 ? "" : "s", addr);
	print_root(b, floor);
	if (more == 1) {
		print_hop(b, path[n - 1]);
	} else if (more) {
		printk("  -> block 0x%08lx (size %zu)\n", block_start(b),
		       block_size(b));
		printk("  -> ... %lu more blocks\n", more - 1);
	}
	for (unsigned int i = n - 1; i > 0; i--)
		print_hop(path[i], path[i - 1]);
	printk("  -> 0x%08lx\n", addr);
}

static int cmd_why(int argc, char **argv)
{
	unsigned long floor = (unsigned long)__builtin_frame_address(0);
	struct memleak_block *b = target_of(argv);
	unsigned long addr;
	int ret = 0;

	(void)argc;
	if (!b)
		return 1;
	addr = READ_ONCE(asked_addr);
	print_block_header("why", b);
	if (!block_is_gray(b) || !(b->flags & MEMLEAK_ALLOCATED)) {
		printk("memleak why: no path from a root: see 'memleak refs "
		       "%s' for what points at it\n", argv[1]);
		memleak_release_scan();
		return 0;
	}
	memset(&search, 0, sizeof(search));
	search.target = b;
	memleak_walk_roots(follow_root, &search, floor);
	memleak_walk_blocks(follow_never_leak, &search);
	search_blocks(&search);
	if (search.found) {
		print_path(b, addr, floor);
	} else if (search.out_of_memory) {
		printk("memleak why: out of memory for the search after %lu "
		       "blocks: no path found (nothing was changed)\n",
		       search.nr_seen);
		ret = 1;
	} else {
		printk("memleak why: 0x%08lx is reachable but no path from a "
		       "root leads to it now: its contents changed since the "
		       "scan before (so the scan kept it), or its pointer "
		       "moved\n", addr);
	}
	end_search(&search);
	memleak_release_scan();
	return ret;
}

MEMLEAK_COMMAND("refs", cmd_refs, 1, 1, "ADDR",
		"who points into the block holding ADDR, after a scan");
MEMLEAK_COMMAND("why", cmd_why, 1, 1, "ADDR",
		"a path of pointers from a root to the block holding ADDR");
