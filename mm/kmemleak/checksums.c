/*
 * The checksums of the blocks that were white at a scan (scan.c, step
 * 4: a white block whose contents changed since the previous scan is
 * probably in use). Few blocks are ever white, so their sums are kept
 * here, beside the blocks, and not in every block's record:
 *
 *   block --its record's place in RAM--> key --hash--> [ key | sum ]
 *                                         the next slot on a collision
 *
 * A record lies in RAM (the index's arrays, the tree's nodes), so its
 * address, counted as a block's start is (from memleak_addr_base()) and
 * in 4-byte units, names it in 32 bits: an entry is 8 bytes on every
 * machine. An open-addressed table, a power of two of slots in pages,
 * at most three quarters full: the scan makes room for its white blocks
 * before it sums them, memleak_lock not held (memleak_checksum_reserve():
 * the pages taken and cleared a window at a time), and a failure to grow
 * disables the collector (the caller's message). A block has an entry
 * while it has MEMLEAK_CHECKSUM_VALID; its free takes the entry out,
 * before its record can be reused. A deletion moves the entries after it
 * back, so that a lookup may stop at the first empty slot.
 *
 * Locking: memleak_lock, held by the callers of everything here but
 * memleak_checksum_reserve(), which takes it itself.
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/string.h>
#include "internal.h"

struct checksum_entry {
	u32 key;	/* key_of() its block; 0: a free slot */
	u32 sum;
};

/*
 * The table's slots lie in pages, found through a directory of them: a
 * large table needs no large run of free pages. Untracked pages, which
 * the scan never reads (and its entries are numbers, no pointers).
 */
#define SLOTS_PER_PAGE (PAGE_SIZE / sizeof(struct checksum_entry))
static struct checksum_entry **checksum_pages;
static unsigned int checksum_shift;	/* 2^shift slots */
static unsigned long nr_entries;

/* Room for n entries: at most three quarters of the slots. */
static bool fits(unsigned long n)
{
	return checksum_pages && 4 * n <= 3 * (1ul << checksum_shift);
}

/* Records lie in RAM (see above), 4-byte aligned; 0 is a free slot. */
static u32 key_of(const struct memleak_block *b)
{
	unsigned long off = (unsigned long)b - memleak_addr_base();

	return (u32)(off / sizeof(u32)) + 1;
}

static struct checksum_entry *slot(unsigned long i)
{
	return &checksum_pages[i / SLOTS_PER_PAGE][i % SLOTS_PER_PAGE];
}

/* Multiplicative hashing: the top bits of the key times 2^32 / phi. */
static unsigned long slot_of(u32 key)
{
	return (u32)(key * 0x9e3779b9u) >> (32 - checksum_shift);
}

static unsigned long next_slot(unsigned long i)
{
	return (i + 1) & ((1ul << checksum_shift) - 1);
}

/* The slot holding key's entry, or the free slot where it would go. */
static unsigned long find_index(u32 key)
{
	unsigned long i = slot_of(key);

	while (slot(i)->key && slot(i)->key != key)
		i = next_slot(i);
	return i;
}

static struct checksum_entry *find_slot(u32 key)
{
	return slot(find_index(key));
}

static unsigned int directory_order(unsigned int shift)
{
	return get_order((1ul << shift) / SLOTS_PER_PAGE * sizeof(void *));
}

/*
 * The table's pages are the collector's own, taken and given back inside
 * it (its allocations are not tracked), one window each: a large table
 * never holds interrupts off for all of its pages.
 */
static void *take_pages(unsigned int order)
{
	unsigned long flags;
	struct page *page;

	memleak_enter(&flags);
	page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order);
	memleak_leave(flags);
	return page ? page_address(page) : NULL;
}

static void give_pages(void *addr, unsigned int order)
{
	unsigned long flags;

	memleak_enter(&flags);
	__free_pages(virt_to_page(addr), order);
	memleak_leave(flags);
}

static void free_pages_of(struct checksum_entry **pages, unsigned int shift)
{
	for (unsigned long i = 0; i < (1ul << shift) / SLOTS_PER_PAGE; i++)
		if (pages[i])
			give_pages(pages[i], 0);
	give_pages(pages, directory_order(shift));
}

/*
 * The zeroed pages of a table of 2^shift slots, or NULL; no one sees
 * them yet, so they are cleared with interrupts on.
 */
static struct checksum_entry **alloc_pages_of(unsigned int shift)
{
	unsigned long n = (1ul << shift) / SLOTS_PER_PAGE;
	struct checksum_entry **pages = take_pages(directory_order(shift));

	if (!pages)
		return NULL;
	memset(pages, 0, n * sizeof(*pages));
	for (unsigned long i = 0; i < n; i++) {
		pages[i] = take_pages(0);
		if (!pages[i]) {
			free_pages_of(pages, shift);
			return NULL;
		}
		memset(pages[i], 0, PAGE_SIZE);
	}
	return pages;
}

/* The least shift whose table holds n entries (a page at least). */
static unsigned int shift_for(unsigned long n)
{
	/* A power of two: the first table is a page of slots. */
	unsigned int shift = (unsigned int)__builtin_ctzl(SLOTS_PER_PAGE);

	while (4 * n > 3 * (1ul << shift))
		shift++;
	return shift;
}

/*
 * Moves the entries into pages (a table of 2^shift slots) and makes it
 * the table; returns the old pages. memleak_lock held: the one step of a
 * growth that takes time with the number of entries, which grows only
 * when a scan finds more white blocks than ever before.
 */
static struct checksum_entry **install_table(struct checksum_entry **pages,
					     unsigned int shift)
{
	unsigned int old_shift = checksum_shift;
	struct checksum_entry **old = checksum_pages;

	checksum_pages = pages;
	checksum_shift = shift;
	for (unsigned long i = 0; old && i < (1ul << old_shift); i++) {
		const struct checksum_entry *e =
			&old[i / SLOTS_PER_PAGE][i % SLOTS_PER_PAGE];

		if (e->key)
			*find_slot(e->key) = *e;
	}
	return old;
}

int memleak_checksum_reserve(unsigned long n)
{
	struct checksum_entry **pages, **old;
	unsigned int shift, old_shift;
	unsigned long flags;

	/* Only the scan adds entries: frees meanwhile only make room. */
	memleak_enter(&flags);
	shift = shift_for(nr_entries + n);
	old_shift = checksum_shift;
	memleak_leave(flags);
	if (checksum_pages && shift <= old_shift)
		return 0;
	if (shift > 32)
		return -ENOMEM;		/* past what slot_of() can spread */
	pages = alloc_pages_of(shift);
	if (!pages)
		return -ENOMEM;
	memleak_enter(&flags);
	old = install_table(pages, shift);
	memleak_leave(flags);
	if (old)
		free_pages_of(old, old_shift);
	return 0;
}

void memleak_checksum_prefetch(const struct memleak_block *b)
{
	if (checksum_pages)
		__builtin_prefetch(slot(slot_of(key_of(b))));
}

bool memleak_checksum_get(const struct memleak_block *b, u32 *sum)
{
	struct checksum_entry *e;

	if (!checksum_pages)
		return false;
	e = find_slot(key_of(b));
	*sum = e->sum;
	return e->key == key_of(b);
}

int memleak_checksum_replace(const struct memleak_block *b, u32 sum,
			     u32 *old)
{
	u32 key = key_of(b);
	struct checksum_entry *e;

	if (!fits(nr_entries + 1))
		return -ENOMEM;	/* memleak_checksum_reserve() made none */
	e = find_slot(key);
	*old = e->sum;
	e->sum = sum;
	if (e->key)
		return 1;
	e->key = key;
	nr_entries++;
	return 0;
}

/*
 * Whether the entry at slot j may move back to the free slot i: its
 * home slot is not in the run (i, j] of slots it would jump over.
 */
static bool may_move_back(unsigned long i, unsigned long j)
{
	unsigned long mask = (1ul << checksum_shift) - 1;
	unsigned long home = slot_of(slot(j)->key);

	return ((j - home) & mask) >= ((j - i) & mask);
}

void memleak_checksum_forget(const struct memleak_block *b)
{
	unsigned long i, j;

	if (!checksum_pages)
		return;
	i = find_index(key_of(b));
	if (slot(i)->key != key_of(b))
		return;
	nr_entries--;
	for (j = next_slot(i); slot(j)->key; j = next_slot(j)) {
		if (!may_move_back(i, j))
			continue;
		*slot(i) = *slot(j);
		i = j;
	}
	slot(i)->key = 0;
}

unsigned long memleak_checksum_pages(void)
{
	if (!checksum_pages)
		return 0;
	return (1ul << checksum_shift) / SLOTS_PER_PAGE +
	       (1ul << directory_order(checksum_shift));
}

unsigned long memleak_checksum_entries(void)
{
	return nr_entries;
}
