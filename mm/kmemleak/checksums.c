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
 * at most three quarters full. A block has an entry while it has
 * MEMLEAK_CHECKSUM_VALID; its free takes the entry out, before its
 * record can be reused. A deletion moves the entries after it back, so
 * that a lookup may stop at the first empty slot.
 *
 * Before it sums its white blocks, the scan makes room for them
 * (memleak_checksum_reserve()); a table four times too large for them
 * and the entries it has is made smaller then. Either way a new table
 * is made and the entries move into it a page of the old one per
 * window, so that no window of interrupts off grows with the number of
 * entries: meanwhile the blocks freed take their entry out of the new
 * table and mark it moved in the old one, whose chains of slots must
 * stay whole until it goes. A failure to grow disables the collector
 * (the caller's message).
 *
 * Locking: memleak_lock, held by the callers of everything here but the
 * resize (memleak_checksum_reserve() and its steps), which takes it a
 * window at a time. Only the scan, which is single, adds entries and
 * resizes; frees only take entries out.
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

/* In the old table of a resize: an entry taken out (no key is this). */
#define MOVED_KEY 0xffffffffu

/*
 * A table's slots lie in pages, found through a directory of them: a
 * large table needs no large run of free pages. Untracked pages, which
 * the scan never reads (and its entries are numbers, no pointers).
 */
#define SLOTS_PER_PAGE (PAGE_SIZE / sizeof(struct checksum_entry))
struct checksum_table {
	struct checksum_entry **pages;	/* NULL: no table */
	unsigned int shift;		/* 2^shift slots */
};

/* The table; during a resize, the old one and how much of it moved. */
static struct checksum_table checksum_table, checksum_moving;

/*
 * Every page the tables hold, counted as it is taken and given back,
 * under the same lock: also the pages of a table being made or freed,
 * which neither table points to yet (or any more). The metadata's sum
 * plus the free pages then stays the same while a scan resizes.
 */
static unsigned long table_pages;
static unsigned long moved_pages;
static unsigned long nr_entries;	/* blocks with a sum */

static unsigned long nr_pages(unsigned int shift)
{
	return (1ul << shift) / SLOTS_PER_PAGE;
}

/* Room for n entries: at most three quarters of the slots. */
static bool fits(unsigned long n)
{
	return checksum_table.pages &&
	       4 * n <= 3 * (1ul << checksum_table.shift);
}

/* Records lie in RAM (see above), 4-byte aligned; 0 is a free slot. */
static u32 key_of(const struct memleak_block *b)
{
	unsigned long off = (unsigned long)b - memleak_addr_base();

	return (u32)(off / sizeof(u32)) + 1;
}

static struct checksum_entry *slot(const struct checksum_table *t,
				   unsigned long i)
{
	return &t->pages[i / SLOTS_PER_PAGE][i % SLOTS_PER_PAGE];
}

/* Multiplicative hashing: the top bits of the key times 2^32 / phi. */
static unsigned long slot_of(const struct checksum_table *t, u32 key)
{
	return (u32)(key * 0x9e3779b9u) >> (32 - t->shift);
}

static unsigned long next_slot(const struct checksum_table *t,
			       unsigned long i)
{
	return (i + 1) & ((1ul << t->shift) - 1);
}

/* The slot of t holding key's entry, or the free slot where it would go. */
static unsigned long find_index(const struct checksum_table *t, u32 key)
{
	unsigned long i = slot_of(t, key);

	while (slot(t, i)->key && slot(t, i)->key != key)
		i = next_slot(t, i);
	return i;
}

static struct checksum_entry *find_slot(const struct checksum_table *t,
					u32 key)
{
	return slot(t, find_index(t, key));
}

static unsigned int directory_order(unsigned int shift)
{
	return get_order(nr_pages(shift) * sizeof(void *));
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

	memleak_scan_window_enter(&flags);
	page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order);
	if (page)
		table_pages += 1ul << order;
	memleak_scan_window_leave(flags);
	return page ? page_address(page) : NULL;
}

static void give_pages(void *addr, unsigned int order)
{
	unsigned long flags;

	memleak_scan_window_enter(&flags);
	__free_pages(virt_to_page(addr), order);
	table_pages -= 1ul << order;
	memleak_scan_window_leave(flags);
}

static void free_pages_of(struct checksum_entry **pages, unsigned int shift)
{
	for (unsigned long i = 0; i < nr_pages(shift); i++)
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
	unsigned long n = nr_pages(shift);
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
 * The size of table n entries call for: 0 to keep the one there is,
 * which is too small only below 3/4 full, too large at four times what
 * they need (then one of twice that, so that a table does not go back
 * and forth between two sizes, scan after scan).
 */
static unsigned int shift_wanted(unsigned long n)
{
	unsigned int least = shift_for(n), now = checksum_table.shift;

	if (!checksum_table.pages || least > now)
		return least;
	return least + 2 <= now ? least + 1 : 0;
}

int memleak_checksum_resize_begin(unsigned long n)
{
	struct checksum_entry **pages;
	unsigned long flags;
	unsigned int shift;

	/* Only the scan adds entries: frees meanwhile only make room. */
	memleak_scan_window_enter(&flags);
	shift = shift_wanted(nr_entries + n);
	memleak_scan_window_leave(flags);
	if (!shift)
		return 0;
	if (shift > 32)
		return -ENOMEM;		/* past what slot_of() can spread */
	pages = alloc_pages_of(shift);
	if (!pages)
		return -ENOMEM;
	memleak_scan_window_enter(&flags);
	checksum_moving = checksum_table;
	moved_pages = 0;
	checksum_table.pages = pages;
	checksum_table.shift = shift;
	memleak_scan_window_leave(flags);
	return 1;
}

/* Moves the entries of the old table's next page into the table. */
bool memleak_checksum_resize_step(void)
{
	const struct checksum_table *old = &checksum_moving;
	unsigned long flags;
	bool more;

	memleak_scan_window_enter(&flags);
	if (old->pages && moved_pages < nr_pages(old->shift)) {
		const struct checksum_entry *e = old->pages[moved_pages++];

		for (unsigned long i = 0; i < SLOTS_PER_PAGE; i++)
			if (e[i].key && e[i].key != MOVED_KEY)
				*find_slot(&checksum_table, e[i].key) = e[i];
	}
	more = old->pages && moved_pages < nr_pages(old->shift);
	memleak_scan_window_leave(flags);
	return more;
}

void memleak_checksum_resize_end(void)
{
	struct checksum_table old;
	unsigned long flags;

	memleak_scan_window_enter(&flags);
	old = checksum_moving;
	checksum_moving.pages = NULL;
	memleak_scan_window_leave(flags);
	if (old.pages)
		free_pages_of(old.pages, old.shift);
}

int memleak_checksum_reserve(unsigned long n)
{
	int begun = memleak_checksum_resize_begin(n);

	if (begun <= 0)
		return begun;
	while (memleak_checksum_resize_step())
		;
	memleak_checksum_resize_end();
	return 0;
}

void memleak_checksum_prefetch(const struct memleak_block *b)
{
	if (checksum_table.pages)
		__builtin_prefetch(slot(&checksum_table,
					slot_of(&checksum_table, key_of(b))));
}

/* The entry of key in t, or NULL. */
static struct checksum_entry *lookup(const struct checksum_table *t, u32 key)
{
	struct checksum_entry *e;

	if (!t->pages)
		return NULL;
	e = find_slot(t, key);
	return e->key == key ? e : NULL;
}

bool memleak_checksum_get(const struct memleak_block *b, u32 *sum)
{
	struct checksum_entry *e = lookup(&checksum_table, key_of(b));

	/* During a resize ('memleak dump' meanwhile): not moved yet? */
	if (!e)
		e = lookup(&checksum_moving, key_of(b));
	if (e)
		*sum = e->sum;
	return e;
}

/* The scan's, once memleak_checksum_reserve() has made room. */
int memleak_checksum_replace(const struct memleak_block *b, u32 sum,
			     u32 *old)
{
	u32 key = key_of(b);
	struct checksum_entry *e;

	if (checksum_moving.pages || !fits(nr_entries + 1))
		return -ENOMEM;	/* memleak_checksum_reserve() made none */
	e = find_slot(&checksum_table, key);
	*old = e->sum;
	e->sum = sum;
	if (e->key)
		return 1;
	e->key = key;
	nr_entries++;
	return 0;
}

/*
 * Whether the entry at slot j of the table may move back to the free
 * slot i: its home slot is not in the run (i, j] it would jump over.
 */
static bool may_move_back(unsigned long i, unsigned long j)
{
	const struct checksum_table *t = &checksum_table;
	unsigned long mask = (1ul << t->shift) - 1;
	unsigned long home = slot_of(t, slot(t, j)->key);

	return ((j - home) & mask) >= ((j - i) & mask);
}

/* Takes key's entry out of the table; false when it had none. */
static bool delete_entry(u32 key)
{
	const struct checksum_table *t = &checksum_table;
	unsigned long i, j;

	if (!t->pages)
		return false;
	i = find_index(t, key);
	if (slot(t, i)->key != key)
		return false;
	for (j = next_slot(t, i); slot(t, j)->key; j = next_slot(t, j)) {
		if (!may_move_back(i, j))
			continue;
		*slot(t, i) = *slot(t, j);
		i = j;
	}
	slot(t, i)->key = 0;
	return true;
}

void memleak_checksum_forget(const struct memleak_block *b)
{
	u32 key = key_of(b);
	bool had = delete_entry(key);
	struct checksum_entry *e = lookup(&checksum_moving, key);

	/* Its copy in the old table, moved or not: never moved again. */
	if (e) {
		e->key = MOVED_KEY;
		had = true;
	}
	if (had)
		nr_entries--;
}

unsigned long memleak_checksum_pages(void)
{
	return table_pages;
}

unsigned long memleak_checksum_entries(void)
{
	return nr_entries;
}
