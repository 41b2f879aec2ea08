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
 *   suspects ──▶ 1. each one's words: a suspect pointed to by another
 *                   one is INDIRECT
 *                2. if any is INDIRECT: from every direct one, walk the
 *                   suspects it points to (COVERED), reading again only
 *                   those that point to suspects (REFERS_TO_SUSPECTS)
 *                3. an INDIRECT one still not covered leads a ring:
 *                   direct, walk from it; repeat
 *
 * Runs at the end of memleak_scan(), the collector pinned (the queue's
 * blocks stay valid); each block is read with memleak_lock held for at
 * most CLASSIFY_BUDGET words at a time, and a block freed meanwhile (no
 * longer MEMLEAK_ALLOCATED) is dropped.
 */
#include <kernel/memleak.h>
#include <kernel/kernel.h>
#include <kernel/string.h>
#include "internal.h"

#define CLASSIFY_BUDGET 1024

static bool is_suspect(const struct memleak_block *b)
{
	return (b->flags & (MEMLEAK_SUSPECT | MEMLEAK_ALLOCATED)) ==
	       (MEMLEAK_SUSPECT | MEMLEAK_ALLOCATED);
}

/*
 * Calls visit(target, ctx) for every other suspect that a word of s
 * refers to (its start or an alias). Takes and drops memleak_lock.
 */
static void for_each_suspect_referenced(struct memleak_block *s,
					void (*visit)(struct memleak_block *t,
						      void *ctx),
					void *ctx)
{
	unsigned long offset = 0, start, flags;

	for (;;) {
		const unsigned long *p, *end;

		memleak_enter(&flags);
		if (!is_suspect(s) || offset + sizeof(long) > s->size) {
			memleak_leave(flags);
			return;
		}
		/* Read once a window: visit() writes to blocks. */
		start = block_start(s);
		p = (const unsigned long *)(start + offset);
		end = p + min((s->size - offset) / sizeof(long),
			      (size_t)CLASSIFY_BUDGET);
		for (; p < end; p++) {
			struct memleak_block *t;

			/* Most words point to reachable blocks: marked. */
			if (!memleak_in_bounds(*p) ||
			    !memleak_reads_word(s, (unsigned long)p - start) ||
			    memleak_index_marked(*p))
				continue;
			t = memleak_lookup_block(*p);

			if (t && t != s && is_suspect(t))
				visit(t, ctx);
		}
		offset = (unsigned long)p - start;
		memleak_leave(flags);
	}
}

/*
 * Suspects lie all over the heap, and each pass over them reads every
 * one's metadata: the metadata of the one PREFETCH_AHEAD places on in
 * the queue is fetched meanwhile, so the misses overlap.
 */
#define PREFETCH_AHEAD 8

static void prefetch_ahead(const struct memleak_queue_chunk *chunk,
			   unsigned int i)
{
	if (i + PREFETCH_AHEAD < chunk->tail)
		__builtin_prefetch(chunk->entry[i + PREFETCH_AHEAD]);
}

struct edge_count {
	struct memleak_block *from;
	unsigned long nr_indirect;
};

static void mark_indirect(struct memleak_block *t, void *ctx)
{
	struct edge_count *e = ctx;

	e->from->flags |= MEMLEAK_REFERS_TO_SUSPECTS;
	if (!(t->flags & MEMLEAK_INDIRECT))
		e->nr_indirect++;
	t->flags |= MEMLEAK_INDIRECT;
}

/* A walk from one suspect: what is left to read, and where it began. */
struct walk {
	struct memleak_queue todo;
	struct memleak_block *from;
};

/*
 * Covers t the first time a walk reaches it, and queues it to be read
 * when it points to suspects itself (most do not: no second read).
 * memleak_lock held.
 */
static void cover(struct memleak_block *t, struct walk *w)
{
	if (t->flags & MEMLEAK_COVERED)
		return;
	t->flags |= MEMLEAK_COVERED;
	if ((t->flags & MEMLEAK_REFERS_TO_SUSPECTS) &&
	    !memleak_queue_push(&w->todo, t))
		memleak_disable("out of memory for classifying suspects");
}

/*
 * Covers a suspect another one points to. Such a suspect is indirect:
 * only a ring's leader, taken as direct before the walk from a suspect
 * upstream of its ring came by, is not yet, and is no leader after all
 * (unless the walk is its own, back round its ring).
 */
static void cover_target(struct memleak_block *t, void *ctx)
{
	struct walk *w = ctx;

	if (t != w->from)
		t->flags |= MEMLEAK_INDIRECT;
	cover(t, w);
}

/* Covers every suspect reachable from those queued in w. */
static void walk(struct walk *w)
{
	struct memleak_block *b;
	unsigned long flags;

	for (;;) {
		memleak_enter(&flags);
		b = memleak_queue_pop(&w->todo);
		memleak_leave(flags);
		if (!b)
			return;
		for_each_suspect_referenced(b, cover_target, w);
	}
}

/*
 * Covers the suspects for which root(b) holds, and everything reachable
 * from them; root may also change b (a ring's leader).
 */
static void walk_from_each(struct memleak_queue *suspects,
			   bool (*root)(struct memleak_block *b))
{
	struct walk w = { { NULL, NULL, 0 }, NULL };
	struct memleak_queue_chunk *chunk;
	struct memleak_block *b;
	unsigned long flags;
	unsigned int i;

	memleak_queue_for_each(suspects, chunk, i, b) {
		prefetch_ahead(chunk, i);
		memleak_enter(&flags);
		if (is_suspect(b) && root(b)) {
			w.from = b;
			cover(b, &w);
		}
		memleak_leave(flags);
		walk(&w);
	}
}

static bool is_direct(struct memleak_block *b)
{
	return !(b->flags & MEMLEAK_INDIRECT);
}

/* Rings with no way in: their first member not yet covered leads them. */
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

static void count_tiers(struct memleak_queue *suspects)
{
	struct memleak_queue_chunk *chunk;
	struct memleak_block *b;
	unsigned long flags;
	unsigned int i;

	memleak_enter(&flags);
	memset(memleak.tier_blocks, 0, sizeof(memleak.tier_blocks));
	memset(memleak.tier_bytes, 0, sizeof(memleak.tier_bytes));
	memleak_queue_for_each(suspects, chunk, i, b) {
		prefetch_ahead(chunk, i);
		if (!is_suspect(b))
			continue;
		memleak.tier_blocks[memleak_block_tier(b)]++;
		memleak.tier_bytes[memleak_block_tier(b)] += b->size;
	}
	memleak_leave(flags);
}

void memleak_classify_suspects(struct memleak_queue *suspects)
{
	struct edge_count e = { NULL, 0 };
	struct memleak_queue_chunk *chunk;
	struct memleak_block *b;
	unsigned int i;

	/* The queue is only read here, and its blocks are pinned. */
	memleak_queue_for_each(suspects, chunk, i, b) {
		memleak_queue_prefetch(chunk, i);	/* each is read whole */
		e.from = b;
		for_each_suspect_referenced(b, mark_indirect, &e);
	}
	/* All direct (the common case): no ring to look for. */
	if (e.nr_indirect) {
		walk_from_each(suspects, is_direct);
		walk_from_each(suspects, leads_a_ring);
	}
	count_tiers(suspects);
}
