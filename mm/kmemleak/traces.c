/*
 * The leak collector's traces: where and by whom blocks were allocated
 * (thread name, pid, frame-pointer backtrace from the allocator's
 * caller on, memleak_allocator_frames()). Many blocks share one
 * context, so each is stored once, in a hash table, and counted; the
 * 32 let go of last stay hashed for the next allocation from the same
 * place.
 *
 * Locking: memleak_lock, held by the callers of everything here.
 */
#include <kernel/memleak.h>
#include <kernel/alloc_entry.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/slab.h>
#include "internal.h"

#define TRACE_HASH_SIZE 1024
static struct memleak_trace *trace_hash[TRACE_HASH_SIZE];
static struct kmem_cache *trace_cache;

/*
 * The traces by id (memleak_trace_of()). A freed trace's id waits for
 * the next new trace on a list threaded through the table: its entry
 * holds the next free id, shifted, with the low bit set (no trace
 * pointer has it).
 */
struct memleak_trace **memleak_trace_pages[MEMLEAK_TRACE_PAGES]
	__memleak_noscan;
static unsigned long trace_table_pages;
static u32 next_trace_id = 1;	/* never given out yet from here on */
static u32 free_trace_ids;	/* the first freed id; 0: none */

/* Gives t an id (a freed one first); false when none can be had. */
static bool give_trace_id(struct memleak_trace *t)
{
	u32 id = free_trace_ids;

	if (id) {
		unsigned long next = (unsigned long)*memleak_trace_entry(id);

		free_trace_ids = (u32)(next >> 1);
	} else {
		unsigned long page = next_trace_id / MEMLEAK_TRACES_PER_PAGE;

		/* A block names its trace in 16 bits. */
		if (next_trace_id > MEMLEAK_MAX_TRACES) {
			memleak_disable(
				"out of trace ids (65535 traces in use)");
			return false;
		}
		if (!memleak_trace_pages[page]) {
			struct page *p = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0);

			if (!p)
				return false;
			memleak_trace_pages[page] = page_address(p);
			trace_table_pages++;
		}
		id = next_trace_id++;
	}
	*memleak_trace_entry(id) = t;
	t->id = id;
	return true;
}

static void drop_trace_id(const struct memleak_trace *t)
{
	*memleak_trace_entry(t->id) =
		(struct memleak_trace *)(((unsigned long)free_trace_ids << 1) | 1);
	free_trace_ids = t->id;
}

/*
 * A trace starts at the allocator's caller: the hook's capture drops the
 * allocators' own frames, which all lie in the alloc_text section. Only
 * leading ones: an allocator further up (a callback of the caller's) is
 * part of the story.
 */
unsigned int memleak_allocator_frames(const unsigned long *sites,
				      unsigned int n)
{
	unsigned int i = 0;

	while (i < n && in_alloc_text(sites[i]))
		i++;
	return i;
}

int memleak_traces_init(void)
{
	trace_cache = kmem_cache_create("memleak_trace",
					sizeof(struct memleak_trace), 0,
					SLAB_NOLEAKTRACE, NULL);
	return trace_cache ? 0 : -ENOMEM;
}

unsigned long memleak_traces_pages(void)
{
	return memleak_cache_pages(trace_cache) + trace_table_pages;
}

/*
 * The pid, CPU, type and call sites; not the name, which the pid stands
 * for (same_trace() still compares it).
 */
static u32 hash_trace(const struct memleak_trace *t)
{
	u32 h = 2166136261u ^ (u32)t->pid ^ ((u32)t->cpu << 16) ^
		((u32)t->type << 24);

	for (unsigned int i = 0; i < t->nr_entries; i++)
		h = (h ^ (u32)t->entries[i]) * 16777619u;
	return h;
}

/* Word loops, not memcmp/strcmp: this runs on every allocation. */
static bool same_trace(const struct memleak_trace *a,
		       const struct memleak_trace *b)
{
	if (a->hash != b->hash || a->pid != b->pid || a->cpu != b->cpu ||
	    a->type != b->type || a->nr_entries != b->nr_entries)
		return false;
	for (unsigned int i = 0; i < a->nr_entries; i++)
		if (a->entries[i] != b->entries[i])
			return false;
	for (unsigned int i = 0; i < MEMLEAK_COMM_LEN; i++) {
		if (a->comm[i] != b->comm[i])
			return false;
		if (!a->comm[i])
			break;
	}
	return true;
}

struct memleak_trace *memleak_intern_trace(struct memleak_trace *key)
{
	struct memleak_trace **bucket, *t;

	key->hash = hash_trace(key);
	bucket = &trace_hash[key->hash % TRACE_HASH_SIZE];
	for (t = *bucket; t; t = t->hash_next) {
		if (same_trace(t, key)) {
			t->refs++;
			return t;
		}
	}
	t = kmem_cache_alloc(trace_cache, GFP_ATOMIC);
	if (!t)
		return NULL;
	*t = *key;
	if (!give_trace_id(t)) {
		kmem_cache_free(trace_cache, t);
		return NULL;
	}
	t->refs = 1;
	t->parked = 0;
	t->hash_next = *bucket;
	*bucket = t;
	memleak.nr_traces++;
	return t;
}

static void free_trace(struct memleak_trace *t)
{
	struct memleak_trace **p;

	for (p = &trace_hash[t->hash % TRACE_HASH_SIZE]; *p; p = &(*p)->hash_next) {
		if (*p == t) {
			*p = t->hash_next;
			break;
		}
	}
	memleak.nr_traces--;
	drop_trace_id(t);
	kmem_cache_free(trace_cache, t);
}

/*
 * A trace whose last block is freed stays hashed in a small ring of
 * unused ones, oldest dropped first: an alloc/free pair in a loop would
 * otherwise make and free the same trace each time round.
 */
#define UNUSED_TRACES 32
static struct memleak_trace *unused_traces[UNUSED_TRACES];
static unsigned int unused_next;

void memleak_trace_unused(struct memleak_trace *t)
{
	struct memleak_trace *oldest;

	if (t->parked)
		return;
	oldest = unused_traces[unused_next];
	unused_traces[unused_next] = t;
	unused_next = (unused_next + 1) % UNUSED_TRACES;
	t->parked = 1;
	if (oldest) {
		oldest->parked = 0;
		if (!oldest->refs)
			free_trace(oldest);
	}
}

static void free_unused_traces(void)
{
	for (unsigned int i = 0; i < UNUSED_TRACES; i++) {
		struct memleak_trace *t = unused_traces[i];

		if (!t)
			continue;
		unused_traces[i] = NULL;
		t->parked = 0;
		if (!t->refs)
			free_trace(t);
	}
}

void memleak_traces_shrink(void)
{
	free_unused_traces();
}
