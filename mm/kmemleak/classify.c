/*
 * Sorting a scan's suspects into the tiers LeakSanitizer and Valgrind
 * users know, so that a report says where a leak starts:
 *
 *   possibly lost  reachable memory points inside the block, but not at
 *                  its start nor an alias (the scan sets
 *                  MEMLEAK_INTERIOR_REF): maybe a leak, maybe a pointer
 *                  the collector was not told about;
 *   indirect       only other suspects point to it: it goes away when
 *                  the direct leak that holds it is fixed;
 *   direct         nothing points to it: the leak to fix.
 *
 * A ring of suspects with no way in (a leaked circular list) would be
 * all indirect. As Valgrind does with such a "clique", the first of them
 * in the list of suspects is taken as its leader, direct, and the rest
 * are indirect from it. The first one not yet covered may also lie
 * downstream of a ring that comes later in the list: when the walk from
 * that ring's leader reaches it, it stops being a leader, so that each
 * group of suspects nothing else points into has exactly one.
 *
 *   suspects ──▶ 1. each one's words (noted as step 4 summed them): a
 *                   suspect pointed to by another one is INDIRECT, and
 *                   one that points to another one (REFERS_TO_SUSPECTS)
 *                   is listed, a referrer, and so is each such pointer
 *                   (an edge: from, to)
 *                2. if any is INDIRECT: from every direct referrer, walk
 *                   the suspects its edges point to (COVERED), reading
 *                   again only the referrers among them
 *                3. a referrer still not covered leads a ring: direct,
 *                   walk from it; repeat
 *
 * The first pass reads no block: step 4 of the scan reads every white
 * block whole for its checksum, and notes then each word that may point
 * to another white block (memleak_classify_note()): in bounds, read as
 * a pointer (typed blocks), and to no marked slot. Every suspect was
 * white then, and the marks only grow, so the notes hold every word of
 * the first pass; it looks them up, those of suspects only. On a large
 * heap this spares reading every suspect's memory a second time. The
 * walks start from the referrers only: a suspect that points to none
 * is covered by nothing but itself, and leads no ring (each member of
 * a ring points to the next). On make bench's heap of 1 M blocks, 38%
 * of the suspects are referrers. The walk from the direct ones takes
 * their edges from pass 1, and reads no direct suspect either.
 *
 * The walks read suspects one after another, as many as a window of
 * memleak_lock allows (CLASSIFY_BUDGET words, each suspect counting
 * SUSPECT_WORDS more). In both, the words that may point to suspects
 * wait in a batch whose records are fetched together before they are
 * looked up (struct reader). Runs at the end of memleak_scan(), the
 * collector pinned (the queue's blocks stay valid); a block freed
 * between windows (no longer MEMLEAK_ALLOCATED) is dropped.
 */
#include <kernel/memleak.h>
#include <kernel/kernel.h>
#include <kernel/string.h>
#include "internal.h"

/* Words read per window, and what each suspect costs it besides. */
#define CLASSIFY_BUDGET 1024
#define SUSPECT_WORDS 32
/* References a window collects before it looks their blocks up. */
#define NR_REFERENCES 64

/*
 * The words step 4 noted: for each white block with any, an entry with
 * the block and its start, then an entry per word, the block and the
 * word itself in place of a start (an address, not a block: looked up
 * later). noting is the block of the last entry.
 */
static struct memleak_queue notes;
static struct memleak_block *noting;

static bool is_suspect(const struct memleak_block *b)
{
	return (b->flags & (MEMLEAK_SUSPECT | MEMLEAK_ALLOCATED)) ==
	       (MEMLEAK_SUSPECT | MEMLEAK_ALLOCATED);
}

/*
 * A pass reads suspects one after another, many in one window of
 * memleak_lock. A word that may refer to another suspect (in bounds, in
 * no marked slot) waits in refs[] until the window ends or refs[] is
 * full; then the records of all of them are fetched at once, and only
 * then looked up. On a large heap each record is a cache miss: fetched
 * one at a time, as each word is found, the misses would not overlap.
 */
struct reference {
	struct memleak_block *from;
	unsigned long from_start, to;
};

struct reader {
	struct reference refs[NR_REFERENCES];
	unsigned int nr_refs;
	unsigned long budget;
	/* Each other suspect t (at start) a word of ref->from refers to. */
	void (*visit)(const struct reference *ref, struct memleak_block *t,
		      unsigned long start, void *ctx);
	/*
	 * The next suspect to read in *s, memleak_lock held; false at the
	 * end. s->block NULL: none this time (the window may need
	 * reopening).
	 */
	bool (*next)(struct reader *r, struct memleak_queue_entry *s);
	void *ctx;
};

static void visit_references(struct reader *r)
{
	for (unsigned int i = 0; i < r->nr_refs; i++) {
		const struct memleak_block *t;

		t = memleak_index_slot(r->refs[i].to);
		if (t)
			__builtin_prefetch(t);
	}
	for (unsigned int i = 0; i < r->nr_refs; i++) {
		unsigned long start;
		struct memleak_block *t = memleak_index_find_at(r->refs[i].to,
								&start);

		if (t && block_has_key(t, start, r->refs[i].to) &&
		    t != r->refs[i].from && is_suspect(t))
			r->visit(&r->refs[i], t, start, r->ctx);
	}
	r->nr_refs = 0;
}

/* Adds to the batch a word of from (at from_start) that may refer to t. */
static void add_reference(struct reader *r, struct memleak_block *from,
			  unsigned long from_start, unsigned long to)
{
	if (r->nr_refs == NR_REFERENCES)
		visit_references(r);
	r->refs[r->nr_refs++] = (struct reference){ from, from_start, to };
}

/* Reads s's words from *offset on, as many as the window has left. */
static void read_words(struct reader *r, struct memleak_block *s,
		       unsigned long start, unsigned long *offset)
{
	const unsigned long *p = (const unsigned long *)(start + *offset);
	const unsigned long *end =
		p + min((block_size(s) - *offset) / sizeof(long), r->budget);
	const unsigned long lowest = ~memleak.min_addr_inv;	/* see scan_words() */

	r->budget -= (unsigned long)(end - p);
	for (;; p++) {
		while (p < end && *p < lowest)
			p++;
		if (p == end)
			break;
		/* Most words point to reachable blocks: marked. */
		if (!memleak_in_bounds(*p) ||
		    !memleak_reads_word(s, (unsigned long)p - start) ||
		    memleak_index_marked(*p))
			continue;
		add_reference(r, s, start, *p);
	}
	*offset = (unsigned long)p - start;
}

/*
 * Reads every suspect r->next() gives, a window at a time, each costing
 * the window SUSPECT_WORDS besides its words: a suspect freed between
 * two windows (no longer MEMLEAK_ALLOCATED) is left.
 */
static void read_suspects(struct reader *r)
{
	struct memleak_queue_entry s = { NULL, 0 };
	unsigned long offset = 0, flags;

	memleak_scan_window_enter(&flags);
	r->budget = CLASSIFY_BUDGET;
	for (;;) {
		if (!r->budget) {
			visit_references(r);
			memleak_scan_window_leave(flags);
			memleak_scan_window_enter(&flags);
			r->budget = CLASSIFY_BUDGET;
		}
		if (s.block && is_suspect(s.block) &&
		    offset + sizeof(long) <= block_size(s.block)) {
			read_words(r, s.block, s.start, &offset);
			continue;
		}
		if (!r->next(r, &s))
			break;
		offset = 0;
		if (s.block)
			r->budget -= min(r->budget,
					 (unsigned long)SUSPECT_WORDS);
	}
	visit_references(r);
	memleak_scan_window_leave(flags);
}

/*
 * The blocks of a queue in turn, each one's record fetched ahead, and
 * its memory when a walk will read it (prefetch_root()).
 */
struct queue_pos {
	const struct memleak_queue_chunk *chunk;
	unsigned int i;
};

static struct queue_pos queue_start(const struct memleak_queue *q)
{
	return (struct queue_pos){ q->first, q->first ? q->first->head : 0 };
}

/*
 * A walk reads a root's memory only when it points to suspects and no
 * walk covered it yet: most roots are not read, and their memory is not
 * fetched (their records are, further ahead, for these flags).
 */
static void prefetch_root(const struct memleak_queue_chunk *chunk,
			  unsigned int i)
{
	const struct memleak_queue_entry *e = memleak_queue_ahead(chunk, i);
	const u16 read = MEMLEAK_REFERS_TO_SUSPECTS | MEMLEAK_COVERED;

	memleak_queue_prefetch_record(chunk, i);
	if (e && (e->block->flags & read) == MEMLEAK_REFERS_TO_SUSPECTS)
		memleak_prefetch_memory(e->block, e->start);
}

/* The next entry; with memory, its memory fetched ahead (else a record). */
static const struct memleak_queue_entry *next_in_queue(struct queue_pos *pos,
							bool memory)
{
	while (pos->chunk && pos->i >= pos->chunk->tail) {
		pos->chunk = pos->chunk->next;
		pos->i = pos->chunk ? pos->chunk->head : 0;
	}
	if (!pos->chunk)
		return NULL;
	if (memory)
		prefetch_root(pos->chunk, pos->i);
	else
		memleak_queue_prefetch_record(pos->chunk, pos->i);
	return &pos->chunk->entry[pos->i++];
}

void memleak_classify_note(struct memleak_block *from, unsigned long start,
			   unsigned long word)
{
	if (!memleak.enabled)
		return;
	if ((from != noting && !memleak_queue_push(&notes, from, start)) ||
	    !memleak_queue_push(&notes, from, word)) {
		memleak_disable("out of memory for classifying suspects");
		return;
	}
	noting = from;
}

/* What pass 1 finds: how many are indirect, the referrers, the edges. */
struct first_pass {
	unsigned long nr_indirect;
	struct memleak_queue *referrers;
	struct memleak_queue *edges;	/* (from, from's start), (to, start) */
};

/*
 * Pass 1: a suspect another one points to is indirect; one that points
 * to another one is a referrer, listed the first time (its notes are
 * in a row, so the referrers come in the order of the suspects), and
 * each such pointer is an edge.
 */
static void mark_indirect(const struct reference *ref, struct memleak_block *t,
			  unsigned long start, void *ctx)
{
	struct first_pass *pass = ctx;
	struct memleak_block *from = ref->from;

	if ((!(from->flags & MEMLEAK_REFERS_TO_SUSPECTS) &&
	     !memleak_queue_push(pass->referrers, from, ref->from_start)) ||
	    !memleak_queue_push(pass->edges, from, ref->from_start) ||
	    !memleak_queue_push(pass->edges, t, start))
		memleak_disable("out of memory for classifying suspects");
	from->flags |= MEMLEAK_REFERS_TO_SUSPECTS;
	if (!(t->flags & MEMLEAK_INDIRECT))
		pass->nr_indirect++;
	t->flags |= MEMLEAK_INDIRECT;
}

/*
 * Pass 1 from the notes, each taken from the queue: those of suspects
 * go to the batch, a window of memleak_lock per CLASSIFY_BUDGET notes.
 * Returns how many suspects it found indirect; lists the referrers and
 * the edges.
 */
static unsigned long read_notes(struct memleak_queue *referrers,
				struct memleak_queue *edges)
{
	struct first_pass pass = { 0, referrers, edges };
	struct reader r = { .visit = mark_indirect, .ctx = &pass };
	struct memleak_block *from = NULL;
	unsigned long from_start = 0, flags, n = 0;
	struct memleak_queue_entry note;

	memleak_scan_window_enter(&flags);
	while (memleak_queue_pop(&notes, &note)) {
		if (note.block != from) {	/* a block's first: its start */
			from = note.block;
			from_start = note.start;
		} else if (is_suspect(from)) {
			add_reference(&r, from, from_start, note.start);
		}
		if (++n % CLASSIFY_BUDGET == 0) {
			visit_references(&r);
			memleak_scan_window_leave(flags);
			memleak_scan_window_enter(&flags);
		}
	}
	visit_references(&r);
	noting = NULL;
	memleak_scan_window_leave(flags);
	return pass.nr_indirect;
}

/*
 * Walks from the suspects root() picks, in the queue's order: what is
 * left to read of the walk under way, and the suspect it began at.
 */
struct walk {
	struct memleak_queue todo;
	struct memleak_block *from;
	struct queue_pos roots;
	bool (*root)(struct memleak_block *b);
	unsigned long nr_covered_indirect;	/* pointed to by a suspect */
	/*
	 * Each walk ends before the next root is looked at: for rings,
	 * whose leader is the first one no earlier walk covered. The walks
	 * from direct suspects cover the same blocks in any order, so
	 * their references wait in batches across roots, their records
	 * fetched together, as in the first pass.
	 */
	bool in_order;
	/* Its roots are pass 1's edges (next_edge()). */
	bool by_edges;
};

/*
 * Covers t the first time a walk reaches it, and queues it to be read
 * when it points to suspects itself (most do not: no second read).
 * memleak_lock held.
 */
static void cover(struct memleak_block *t, unsigned long start, struct walk *w)
{
	if (t->flags & MEMLEAK_COVERED)
		return;
	t->flags |= MEMLEAK_COVERED;
	if (t->flags & MEMLEAK_INDIRECT)
		w->nr_covered_indirect++;
	if ((t->flags & MEMLEAK_REFERS_TO_SUSPECTS) &&
	    !memleak_queue_push(&w->todo, t, start))
		memleak_disable("out of memory for classifying suspects");
}

/*
 * Covers a suspect another one points to. Such a suspect is indirect:
 * only a ring's leader, taken as direct before the walk from a suspect
 * upstream of its ring came by, is not yet, and is no leader after all
 * (unless the walk is its own, back round its ring).
 */
static void cover_target(const struct reference *ref, struct memleak_block *t,
			 unsigned long start, void *ctx)
{
	struct walk *w = ctx;

	(void)ref;
	if (t != w->from)
		t->flags |= MEMLEAK_INDIRECT;
	cover(t, start, w);
}

/* What taking an edge costs the window, in words. */
#define EDGE_WORDS 4

static bool is_direct(struct memleak_block *b);

/*
 * The walk from direct suspects takes their references from pass 1's
 * edges, in a row, a direct referrer's memory not read again: only the
 * suspects it reaches that are referrers themselves are read (cover()).
 * A direct referrer is covered at its first edge, so that the walk for
 * rings passes it over. False after the last edge and batch.
 */
static bool next_edge(struct reader *r, struct walk *w)
{
	const struct memleak_queue_entry *from, *to = NULL;

	from = next_in_queue(&w->roots, false);
	if (from)
		to = next_in_queue(&w->roots, true);
	if (!to) {
		if (!r->nr_refs)
			return false;
		visit_references(r);	/* the last batch may reach more */
		return true;
	}
	r->budget -= min(r->budget, (unsigned long)EDGE_WORDS);
	if (is_suspect(from->block) && is_direct(from->block)) {
		from->block->flags |= MEMLEAK_COVERED;
		w->from = from->block;
		if (is_suspect(to->block))
			cover_target(NULL, to->block, to->start, w);
	}
	return true;
}

/*
 * The next suspect a walk reads: one it reached; else none this time,
 * and either the references waiting are looked up (they may reach
 * more: at once in a walk in order, as they belong to this walk; in
 * the others when a batch is full, or the roots are done) or the next
 * suspect in the queue is looked at and, when it is a root, covered.
 */
static bool next_to_walk(struct reader *r, struct memleak_queue_entry *s)
{
	struct walk *w = r->ctx;
	const struct memleak_queue_entry *e;
	struct memleak_block *b;

	if (memleak_queue_pop(&w->todo, s))
		return true;
	s->block = NULL;
	if (r->nr_refs && w->in_order) {
		visit_references(r);
		return true;
	}
	if (w->by_edges)
		return next_edge(r, w);
	e = next_in_queue(&w->roots, true);
	if (!e && r->nr_refs) {
		visit_references(r);	/* the last batch may reach more */
		return true;
	}
	if (!e)
		return false;
	b = e->block;
	r->budget -= min(r->budget, (unsigned long)SUSPECT_WORDS);
	if (is_suspect(b) && w->root(b)) {
		w->from = b;
		cover(b, e->start, w);
	}
	return true;
}

/*
 * Covers the suspects of the queue roots for which root(b) holds, and
 * everything reachable from them; root may also change b (a ring's
 * leader). Returns how many indirect suspects it covered.
 */
static unsigned long walk_from_each(struct memleak_queue *roots,
				    bool (*root)(struct memleak_block *b),
				    bool in_order, bool by_edges)
{
	struct walk w = {
		.todo = { NULL, NULL, 0 },
		.roots = queue_start(roots),
		.root = root,
		.in_order = in_order,
		.by_edges = by_edges,
	};
	struct reader r = {
		.visit = cover_target,
		.next = next_to_walk,
		.ctx = &w,
	};

	read_suspects(&r);
	return w.nr_covered_indirect;
}

static bool is_direct(struct memleak_block *b)
{
	return !(b->flags & MEMLEAK_INDIRECT);
}

/*
 * Rings with no way in: their first member not yet covered leads them
 * (every member is a referrer; an indirect suspect that points to none
 * is covered by the walk of the ring upstream of it).
 */
static bool leads_a_ring(struct memleak_block *b)
{
	if (b->flags & MEMLEAK_COVERED)
		return false;
	b->flags &= ~MEMLEAK_INDIRECT;
	return true;
}

enum memleak_tier memleak_block_tier(const struct memleak_block *b)
{
	if (b->flags & MEMLEAK_INTERIOR_REF)
		return MEMLEAK_POSSIBLY_LOST;
	if (b->flags & MEMLEAK_INDIRECT)
		return MEMLEAK_INDIRECT_LEAK;
	return MEMLEAK_DIRECT_LEAK;
}

/*
 * Counts the suspects of each tier, a window per CLASSIFY_BUDGET /
 * SUSPECT_WORDS of them; the counts are stored in the last window, so
 * that a report never reads half of them.
 */
static void count_tiers(struct memleak_queue *suspects)
{
	unsigned long blocks[MEMLEAK_NR_TIERS] = { 0 };
	unsigned long bytes[MEMLEAK_NR_TIERS] = { 0 };
	struct memleak_queue_chunk *chunk;
	struct memleak_queue_entry *e;
	unsigned long flags, n = 0;
	unsigned int i;

	memleak_scan_window_enter(&flags);
	memleak_queue_for_each(suspects, chunk, i, e) {
		struct memleak_block *b = e->block;

		if (++n % (CLASSIFY_BUDGET / SUSPECT_WORDS) == 0) {
			memleak_scan_window_leave(flags);
			memleak_scan_window_enter(&flags);
		}
		/* Counting reads records only. */
		memleak_queue_prefetch_record(chunk, i);
		if (!is_suspect(b))
			continue;
		blocks[memleak_block_tier(b)]++;
		bytes[memleak_block_tier(b)] += block_size(b);
	}
	memcpy(memleak.tier_blocks, blocks, sizeof(blocks));
	memcpy(memleak.tier_bytes, bytes, sizeof(bytes));
	memleak_scan_window_leave(flags);
}

void memleak_classify_suspects(struct memleak_queue *suspects)
{
	struct memleak_queue referrers = { NULL, NULL, 0 };
	struct memleak_queue edges = { NULL, NULL, 0 };
	/* The queues are only read here, and their blocks are pinned. */
	unsigned long nr_indirect = read_notes(&referrers, &edges);

	/*
	 * All direct (the common case): no ring to look for; nor when the
	 * walks from the direct ones covered every indirect one.
	 */
	if (nr_indirect &&
	    walk_from_each(&edges, is_direct, false, true) < nr_indirect)
		walk_from_each(&referrers, leads_a_ring, true, false);
	memleak_queue_empty_in_windows(&referrers);
	memleak_queue_empty_in_windows(&edges);
	count_tiers(suspects);
}
