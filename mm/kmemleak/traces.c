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
#include <kernel/slab.h>
#include "internal.h"

#define TRACE_HASH_SIZE 1024
static struct memleak_trace *trace_hash[TRACE_HASH_SIZE];
static struct kmem_cache *trace_cache;

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
	return memleak_cache_pages(trace_cache);
}

/*
 * The pid and the call sites; not the name, which the pid stands for
 * (same_trace() still compares it).
 */
static u32 hash_trace(const struct memleak_trace *t)
{
	u32 h = 2166136261u ^ (u32)t->pid;

	for (unsigned int i = 0; i < t->nr_entries; i++)
		h = (h ^ (u32)t->entries[i]) * 16777619u;
	return h;
}

/* Word loops, not memcmp/strcmp: this runs on every allocation. */
static bool same_trace(const struct memleak_trace *a,
		       const struct memleak_trace *b)
{
	if (a->hash != b->hash || a->pid != b->pid ||
	    a->nr_entries != b->nr_entries)
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
