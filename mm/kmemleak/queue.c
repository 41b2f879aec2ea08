/*
 * The scan's queues of blocks: the gray queue (first in, first out, so
 * the scan reads blocks in the order it found them, and can prefetch
 * the next ones) and the lists of white blocks and suspects. A queue is
 * a chain of page-sized chunks of block pointers from the collector's
 * own cache; one emptied chunk is kept for the next push, so a scan
 * that never holds more than a chunk's worth allocates nothing.
 *
 * A queued block is not counted: blocks freed while the collector is
 * pinned (memleak_pin(), for a scan or a report) keep their metadata
 * until it is unpinned, so every pointer in a queue stays valid; the
 * queue's user checks MEMLEAK_ALLOCATED.
 *
 * Locking: memleak_lock, held by the callers of every function here.
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/slab.h>
#include "internal.h"

static struct kmem_cache *chunk_cache;
static struct memleak_queue_chunk *spare_chunk;

int memleak_queue_init(void)
{
	chunk_cache = kmem_cache_create("memleak_queue",
					sizeof(struct memleak_queue_chunk), 0,
					SLAB_NOLEAKTRACE, NULL);
	return chunk_cache ? 0 : -ENOMEM;
}

unsigned long memleak_queue_pages(void)
{
	return memleak_cache_pages(chunk_cache);
}

static struct memleak_queue_chunk *new_chunk(void)
{
	struct memleak_queue_chunk *c = spare_chunk;

	if (c)
		spare_chunk = NULL;
	else
		c = kmem_cache_alloc(chunk_cache, GFP_ATOMIC);
	if (c) {
		c->next = NULL;
		c->head = c->tail = 0;
	}
	return c;
}

static void free_chunk(struct memleak_queue_chunk *c)
{
	if (!spare_chunk)
		spare_chunk = c;
	else
		kmem_cache_free(chunk_cache, c);
}

bool memleak_queue_push(struct memleak_queue *q, struct memleak_block *b)
{
	struct memleak_queue_chunk *last = q->last;

	if (!last || last->tail == MEMLEAK_QUEUE_CHUNK) {
		struct memleak_queue_chunk *c = new_chunk();

		if (!c)
			return false;
		if (last)
			last->next = c;
		else
			q->first = c;
		q->last = last = c;
	}
	last->entry[last->tail++] = b;
	q->nr++;
	return true;
}

struct memleak_block *memleak_queue_pop(struct memleak_queue *q)
{
	struct memleak_queue_chunk *first = q->first;
	struct memleak_block *b;

	if (!first || first->head == first->tail)
		return NULL;
	b = first->entry[first->head++];
	q->nr--;
	if (first->head == first->tail) {
		q->first = first->next;
		if (!q->first)
			q->last = NULL;
		free_chunk(first);
	}
	return b;
}

struct memleak_block **memleak_queue_peek(struct memleak_queue *q,
					  unsigned int ahead)
{
	struct memleak_queue_chunk *first = q->first;

	if (!first || first->head + ahead >= first->tail)
		return NULL;	/* past this chunk: not worth the walk */
	return &first->entry[first->head + ahead];
}

void memleak_queue_empty(struct memleak_queue *q)
{
	while (q->first) {
		struct memleak_queue_chunk *c = q->first;

		q->first = c->next;
		free_chunk(c);
	}
	q->last = NULL;
	q->nr = 0;
}
