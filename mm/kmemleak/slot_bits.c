/*
 * The index's bit pool (index.c): three bits for each slot of a slab
 * with tracked objects, mark, simple and read (index.c says what they
 * mean), in three words side by side, so that one cache line answers
 * the scan's lookup and takes its answer:
 *
 *              bit 63 ........................................... 0
 *   triple t:  mark   [ slab C: 32 slots  | slab B: 16 | slab A: 16 ]
 *              simple [          "        |     "      |     "      ]
 *              read   [          "        |     "      |     "      ]
 *
 * A slab's place is a bit number, first_bits: slot i's bits are bit
 * (first_bits + i) of the pool's mark, simple and read words
 * (slot_bits_of() and slot_bit() in index.h). A slab of more than half a
 * word of slots has whole triples, a power of two of them; a smaller
 * one a piece of a triple, a half or a quarter of each of its words.
 * With a triple a slab, the pool of make bench's heap of 1 M blocks
 * was 96% full at 1 MiB (its slabs of 192 and 256-byte objects have 21
 * and 16 slots); with pieces it needs half of that.
 *
 * Whole runs come from a free list per length, linked through their
 * first simple word (a free run's bits are all unused), or from the end
 * of the pool, which doubles when full. A triple cut into pieces says
 * which are used in piece_map[]; a freed piece's triple goes back whole
 * once its last piece is freed, and meanwhile lends its free pieces when
 * no other triple of that cut has one (so that at worst a slab has a
 * triple of its own, as without pieces). Bit patterns, no pointers: the
 * pool and the map are pages the scan never reads as roots.
 *
 * Locking: memleak_lock, held by every caller.
 */
#include <kernel/memleak.h>
#include <kernel/mm.h>
#include <kernel/string.h>
#include "internal.h"
#include "index.h"

struct slot_bits *memleak_slot_bits;
static unsigned long pool_size;		/* capacity, in triples */
static unsigned long pool_end;		/* triples handed out so far */

#define RUN_ORDERS 16
static u32 free_runs[RUN_ORDERS];	/* first free run of each order + 1 */

/*
 * Pieces: kind 0 is half a word, kind 1 a quarter. A byte per triple:
 * which of its pieces are used (low bits), and its cut (kind + 1, 0:
 * none) above them. partial[kind]: a triple of that cut with a free
 * piece, + 1 (0: none).
 */
#define PIECE_KINDS 2
#define PIECE_CUT_SHIFT 4
static u8 *piece_map;
static u32 partial[PIECE_KINDS];

/* The least order with 2^order >= n. */
static unsigned int order_of(unsigned long n)
{
	unsigned int order = 0;

	while ((1ul << order) < n)
		order++;
	return order;
}

static unsigned int pool_order(unsigned long triples)
{
	return get_order(triples * sizeof(struct slot_bits));
}

unsigned long memleak_slot_bits_pages(void)
{
	if (!pool_size)
		return 0;
	return (1ul << pool_order(pool_size)) + (1ul << get_order(pool_size));
}

/* The pool and its piece map twice as large (at least triples more). */
static bool grow_pool(unsigned long triples)
{
	const unsigned long least = PAGE_SIZE / sizeof(struct slot_bits);
	unsigned long n = max(pool_size * 2, least);
	struct slot_bits *pool;
	u8 *map;

	while (n < pool_end + triples)
		n *= 2;
	pool = memleak_alloc_table(pool_order(n));
	map = memleak_alloc_table(get_order(n));
	if (!pool || !map) {
		memleak_free_table(pool, pool_order(n));
		memleak_free_table(map, get_order(n));
		return false;
	}
	memset(map + pool_end, 0, n - pool_end);
	if (pool_size) {
		memcpy(pool, memleak_slot_bits, pool_end * sizeof(*pool));
		memcpy(map, piece_map, pool_end);
		memleak_free_table(memleak_slot_bits, pool_order(pool_size));
		memleak_free_table(piece_map, get_order(pool_size));
	}
	memleak_slot_bits = pool;
	piece_map = map;
	pool_size = n;
	return true;
}

/* A run of triples, cleared; false when out of memory. */
static bool alloc_run(unsigned int triples, u32 *first)
{
	unsigned int order = order_of(triples);

	if (order >= RUN_ORDERS)
		return false;
	if (free_runs[order]) {
		*first = free_runs[order] - 1;
		free_runs[order] = (u32)memleak_slot_bits[*first].simple;
	} else {
		if (pool_end + (1u << order) > pool_size &&
		    !grow_pool(1u << order))
			return false;
		*first = (u32)pool_end;
		pool_end += 1u << order;
	}
	memset(&memleak_slot_bits[*first], 0,
	       (1u << order) * sizeof(struct slot_bits));
	return true;
}

static void free_run(u32 first, unsigned int triples)
{
	unsigned int order = order_of(triples);

	memleak_slot_bits[first].simple = free_runs[order];
	free_runs[order] = first + 1;
}

/* The kind of piece a slab of nr_slots takes; -1: whole triples. */
static int piece_kind(unsigned int nr_slots)
{
	if (nr_slots <= BITS_PER_LONG / 4)
		return 1;
	if (nr_slots <= BITS_PER_LONG / 2)
		return 0;
	return -1;
}

static unsigned int piece_width(int kind)
{
	return BITS_PER_LONG >> (kind + 1);
}

/* The pieces of a triple of that kind's cut, as a mask of used bits. */
static unsigned int all_pieces(int kind)
{
	return (1u << (2u << kind)) - 1;
}

/*
 * Piece j of triple t: its bits cleared in the three words, when it is
 * freed, so that a free piece is clear (as a new triple is).
 */
static void clear_piece(u32 t, unsigned int j, int kind)
{
	unsigned int width = piece_width(kind);
	unsigned long mask = ((1ul << width) - 1) << (j * width);

	memleak_slot_bits[t].mark &= ~mask;
	memleak_slot_bits[t].simple &= ~mask;
	memleak_slot_bits[t].read &= ~mask;
}

static bool alloc_piece(int kind, u32 *first_bits)
{
	unsigned int j;
	u32 t;

	if (partial[kind]) {
		t = partial[kind] - 1;
	} else {
		if (!alloc_run(1, &t))
			return false;
		piece_map[t] = (u8)((kind + 1) << PIECE_CUT_SHIFT);
		partial[kind] = t + 1;
	}
	j = (unsigned int)__builtin_ctz(~piece_map[t] & all_pieces(kind));
	piece_map[t] |= (u8)(1u << j);
	if ((piece_map[t] & all_pieces(kind)) == all_pieces(kind))
		partial[kind] = 0;
	*first_bits = t * BITS_PER_LONG + j * piece_width(kind);
	return true;
}

static void free_piece(int kind, u32 first_bits)
{
	u32 t = first_bits / BITS_PER_LONG;
	unsigned int j = first_bits % BITS_PER_LONG / piece_width(kind);

	clear_piece(t, j, kind);
	piece_map[t] &= (u8)~(1u << j);
	if (piece_map[t] & all_pieces(kind)) {
		if (!partial[kind])
			partial[kind] = t + 1;
		return;
	}
	if (partial[kind] == t + 1)
		partial[kind] = 0;
	piece_map[t] = 0;
	free_run(t, 1);
}

bool memleak_slot_bits_alloc(unsigned int nr_slots, u32 *first_bits)
{
	int kind = piece_kind(nr_slots);
	u32 t;

	if (kind >= 0)
		return alloc_piece(kind, first_bits);
	if (!alloc_run(BITS_TO_LONGS(nr_slots), &t))
		return false;
	*first_bits = t * BITS_PER_LONG;
	return true;
}

void memleak_slot_bits_free(u32 first_bits, unsigned int nr_slots)
{
	int kind = piece_kind(nr_slots);

	if (kind >= 0)
		free_piece(kind, first_bits);
	else
		free_run(first_bits / BITS_PER_LONG, BITS_TO_LONGS(nr_slots));
}

unsigned long memleak_slot_bits_clear_marks(unsigned long from,
					    unsigned long words)
{
	unsigned long end = min(pool_end, from + words);

	for (; from < end; from++) {
		memleak_slot_bits[from].mark = 0;
		memleak_slot_bits[from].read = 0;
	}
	return from < pool_end ? from : 0;
}

void memleak_slot_bits_clear_all_marks(void)
{
	memleak_slot_bits_clear_marks(0, pool_end);
}
