/*
 * The scan's queues of blocks: the gray queue (first in, first out, so
 * the scan reads blocks in the order it found them, and can prefetch
 * the next ones) and the lists of white blocks and suspects. A queue is
 * a chain of page-sized chunks of (block, start) entries from the
 * collector's own cache. A few chunks are kept spare: emptied ones,
 * and ones taken ahead between the scan's windows
 * (memleak_queue_take_spare()), so that a window that fills a chunk
 * seldom waits for the allocator too, and a scan that never holds more
 * than a chunk's worth allocates nothing.
 *
 * A queued block is not counted: while the collector is pinned
 * (memleak_pin(), for a scan or a report) the memory of freed blocks'
 * records is kept until it is unpinned, so every pointer in a queue
 * stays readable; the queue's user checks MEMLEAK_ALLOCATED (a slab
 * object's record may also hold a newer block by then: see index.c).
 *
 * Locking: memleak_lock, held by the callers of every function here
 * but memleak_queue_sort(), which takes it for its table, and
 * memleak_queue_empty_in_windows(), a window at a time. Push, pop and
 * peek are inline in internal.h; these are their slow halves.
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/slab.h>
#include "internal.h"

static struct kmem_cache *chunk_cache;

/*
 * The spare chunks, linked through next. Two are taken ahead: what the
 * walk's window of 512 blocks may fill on i386 and ARM (511 entries a
 * chunk). One more emptied chunk is kept, so that a queue going through
 * chunks (the gray queue drained as it grows) takes back the ones it
 * empties and never goes to the allocator: kept at two, each chunk it
 * filled was a page allocated and freed again, poisoned both times.
 */
#define SPARES_AHEAD 2
#define SPARES_KEPT 3
static struct memleak_queue_chunk *spare_chunks;
static unsigned int nr_spare_chunks;

/*
 * Without the allocator's red zones and poison (SLAB_NO_DEBUG): a chunk
 * fills its page, which red zones would overflow, and it is taken
 * inside a window of the scan, which checking and filling 4 KiB of
 * poison made 36,000 instructions longer on i386 (memleak-pause-qemu.sh:
 * the walk that lists 10,000 white blocks). A slab a page (SLAB_PACKED):
 * in slabs of eight, the three spare chunks kept 96 KiB.
 */
int memleak_queue_init(void)
{
	chunk_cache = kmem_cache_create("memleak_queue",
					sizeof(struct memleak_queue_chunk), 0,
					SLAB_NOLEAKTRACE | SLAB_NO_DEBUG |
						SLAB_PACKED,
					NULL);
	return chunk_cache ? 0 : -ENOMEM;
}

unsigned long memleak_queue_pages(void)
{
	return memleak_cache_pages(chunk_cache);
}

/*
 * A scan of a large heap empties hundreds of chunks at its end (its
 * list of white blocks, the classification's notes), which the cache
 * would keep, on its CPU's array and as empty slabs, until the next
 * scan: 400 KiB after a scan of the 1 M blocks of make bench, more than
 * the index's tables. They go back to the page allocator; the spare
 * chunks stay, a page each (SLAB_PACKED), so that a small scan still
 * needs no memory.
 */
void memleak_queue_shrink(void)
{
	kmem_cache_shrink(chunk_cache);
}

static struct memleak_queue_chunk *new_chunk(void)
{
	struct memleak_queue_chunk *c = spare_chunks;

	if (c) {
		spare_chunks = c->next;
		nr_spare_chunks--;
	} else {
		c = kmem_cache_alloc(chunk_cache, GFP_ATOMIC);
	}
	if (c) {
		c->next = NULL;
		c->head = c->tail = 0;
	}
	return c;
}

static void free_chunk(struct memleak_queue_chunk *c)
{
	if (nr_spare_chunks == SPARES_KEPT) {
		kmem_cache_free(chunk_cache, c);
		return;
	}
	c->next = spare_chunks;
	spare_chunks = c;
	nr_spare_chunks++;
}

bool memleak_queue_short_of_spares(void)
{
	return READ_ONCE(nr_spare_chunks) < SPARES_AHEAD;
}

bool memleak_queue_take_spare(void)
{
	struct memleak_queue_chunk *c;

	if (nr_spare_chunks >= SPARES_AHEAD)
		return false;
	c = kmem_cache_alloc(chunk_cache, GFP_ATOMIC);
	if (!c)
		return false;
	free_chunk(c);
	return true;
}

bool memleak_queue_push_chunk(struct memleak_queue *q, struct memleak_block *b,
			      unsigned long start)
{
	struct memleak_queue_chunk *c = new_chunk();

	if (!c)
		return false;
	if (q->last)
		q->last->next = c;
	else
		q->first = c;
	q->last = c;
	c->entry[c->tail++] = (struct memleak_queue_entry){ b, start };
	q->nr++;
	return true;
}

void memleak_queue_drop_first(struct memleak_queue *q)
{
	struct memleak_queue_chunk *first = q->first;

	q->first = first->next;
	if (!q->first)
		q->last = NULL;
	free_chunk(first);
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

/*
 * Chunks freed in one window: in the debug kernels a chunk freed costs
 * its poison (about 2,800 instructions on i386, at the end of a scan of
 * 40,000 suspects).
 */
#define EMPTY_CHUNKS_PER_WINDOW 8

void memleak_queue_empty_in_windows(struct memleak_queue *q)
{
	unsigned long flags;

	while (q->first) {
		memleak_scan_window_enter(&flags);
		for (unsigned int n = 0; q->first && n < EMPTY_CHUNKS_PER_WINDOW;
		     n++)
			memleak_queue_drop_first(q);
		memleak_scan_window_leave(flags);
	}
	q->nr = 0;
}

/*
 * Sorting: a heap sort in place, over the entries seen as one array
 * through a table of the chunks (every chunk but the first and the last
 * is full, so entry i is in chunk i / MEMLEAK_QUEUE_CHUNK once the first
 * chunk's head is added).
 */
struct sort_view {
	struct memleak_queue_chunk **chunks;
	unsigned long offset;	/* the first chunk's head */
	bool (*before)(const struct memleak_queue_entry *a,
		       const struct memleak_queue_entry *b);
};

static struct memleak_queue_entry *entry_at(const struct sort_view *v,
					    unsigned long i)
{
	i += v->offset;
	return &v->chunks[i / MEMLEAK_QUEUE_CHUNK]
			->entry[i % MEMLEAK_QUEUE_CHUNK];
}

static void swap_entries(const struct sort_view *v, unsigned long i,
			 unsigned long j)
{
	struct memleak_queue_entry t = *entry_at(v, i);

	*entry_at(v, i) = *entry_at(v, j);
	*entry_at(v, j) = t;
}

/* Moves entry i down the heap of the first n entries to its place. */
static void sift_down(const struct sort_view *v, unsigned long i,
		      unsigned long n)
{
	for (;;) {
		unsigned long child = 2 * i + 1;

		if (child >= n)
			return;
		if (child + 1 < n &&
		    v->before(entry_at(v, child), entry_at(v, child + 1)))
			child++;
		if (!v->before(entry_at(v, i), entry_at(v, child)))
			return;
		swap_entries(v, i, child);
		i = child;
	}
}

bool memleak_queue_sort(struct memleak_queue *q,
			bool (*before)(const struct memleak_queue_entry *a,
				       const struct memleak_queue_entry *b))
{
	struct sort_view v = { .before = before };
	struct memleak_queue_chunk *c;
	unsigned long flags, n = q->nr, nr_chunks = 0, i;

	if (n < 2)
		return true;
	for (c = q->first; c; c = c->next)
		nr_chunks++;
	memleak_enter(&flags);
	v.chunks = kmalloc(nr_chunks * sizeof(*v.chunks), GFP_ATOMIC);
	memleak_leave(flags);
	if (!v.chunks)
		return false;
	for (i = 0, c = q->first; c; c = c->next)
		v.chunks[i++] = c;
	v.offset = q->first->head;
	/* The largest at the root, then moved behind the heap, one by one. */
	for (i = n / 2; i-- > 0;)
		sift_down(&v, i, n);
	for (i = n - 1; i > 0; i--) {
		swap_entries(&v, 0, i);
		sift_down(&v, 0, i);
	}
	memleak_enter(&flags);
	kfree(v.chunks);
	memleak_leave(flags);
	return true;
}
