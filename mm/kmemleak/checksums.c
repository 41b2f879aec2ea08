/*
 * The checksums of the blocks that were white at a scan (scan.c, step
 * 4: a white block whose contents changed since the previous scan is
 * probably in use). Few blocks are ever white, so their sums are kept
 * here, beside the blocks, and not in every block's record:
 *
 *   block (its record's address) --hash--> [ block | sum ] in a table,
 *                                           the next slot on a collision
 *
 * An open-addressed table, a power of two of slots, at most half full:
 * it doubles when it would be fuller, and a failure to grow disables the
 * collector (the caller's message). A block has an entry while it has
 * MEMLEAK_CHECKSUM_VALID; its free takes the entry out, before its record
 * can be reused. A deletion moves the entries after it back, so that a
 * lookup may stop at the first empty slot.
 *
 * Locking: memleak_lock, for every function here.
 */
#include <kernel/memleak.h>
#include <kernel/errno.h>
#include <kernel/mm.h>
#include <kernel/string.h>
#include "internal.h"

struct checksum_entry {
	const struct memleak_block *block;	/* NULL: a free slot */
	u32 sum;
};

/* Block addresses, no pointers to follow: the scan never reads it. */
static struct checksum_entry *checksum_table;
static unsigned int checksum_order;	/* of its pages */
static unsigned long checksum_slots, nr_entries;

static unsigned long slot_of(const struct memleak_block *b)
{
	u32 h = (u32)((unsigned long)b / sizeof(long)) * 0x9e3779b9u;

	return h & (checksum_slots - 1);
}

static unsigned long next_slot(unsigned long i)
{
	return (i + 1) & (checksum_slots - 1);
}

/* The slot holding b's entry, or the free slot where it would go. */
static unsigned long find_slot(const struct memleak_block *b)
{
	unsigned long i = slot_of(b);

	while (checksum_table[i].block && checksum_table[i].block != b)
		i = next_slot(i);
	return i;
}

/* A table of twice the slots (a page at first), the entries moved in. */
static bool grow_table(void)
{
	unsigned int order = checksum_table ? checksum_order + 1 : 0;
	struct page *page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, order);
	struct checksum_entry *old = checksum_table;
	unsigned long old_slots = checksum_slots;

	if (!page)
		return false;
	checksum_table = page_address(page);
	checksum_order = order;
	checksum_slots = (PAGE_SIZE << order) / sizeof(*checksum_table);
	memset(checksum_table, 0, PAGE_SIZE << order);
	for (unsigned long i = 0; i < old_slots; i++)
		if (old[i].block)
			checksum_table[find_slot(old[i].block)] = old[i];
	if (old)
		__free_pages(virt_to_page(old), order - 1);
	return true;
}

bool memleak_checksum_get(const struct memleak_block *b, u32 *sum)
{
	unsigned long i;

	if (!checksum_table)
		return false;
	i = find_slot(b);
	*sum = checksum_table[i].sum;
	return checksum_table[i].block == b;
}

int memleak_checksum_set(const struct memleak_block *b, u32 sum)
{
	unsigned long i;

	if (2 * (nr_entries + 1) > checksum_slots && !grow_table())
		return -ENOMEM;
	i = find_slot(b);
	if (!checksum_table[i].block) {
		checksum_table[i].block = b;
		nr_entries++;
	}
	checksum_table[i].sum = sum;
	return 0;
}

/*
 * Whether the entry at slot j may move back to the free slot i: its
 * home slot is not in the run (i, j] of slots it would jump over.
 */
static bool may_move_back(unsigned long i, unsigned long j)
{
	unsigned long home = slot_of(checksum_table[j].block);

	return ((j - home) & (checksum_slots - 1)) >=
	       ((j - i) & (checksum_slots - 1));
}

void memleak_checksum_forget(const struct memleak_block *b)
{
	unsigned long i, j;

	if (!checksum_table)
		return;
	i = find_slot(b);
	if (checksum_table[i].block != b)
		return;
	nr_entries--;
	for (j = next_slot(i); checksum_table[j].block; j = next_slot(j)) {
		if (!may_move_back(i, j))
			continue;
		checksum_table[i] = checksum_table[j];
		i = j;
	}
	checksum_table[i].block = NULL;
}

unsigned long memleak_checksum_pages(void)
{
	return checksum_table ? 1ul << checksum_order : 0;
}

unsigned long memleak_checksum_entries(void)
{
	return nr_entries;
}
