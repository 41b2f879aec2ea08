/*
 * Written pages (<kernel/written.h>) on a machine that cannot record
 * them: every page counts as written, so the leak collector's pause
 * reads everything again, as it always did. No state, no locking.
 */
#include <kernel/written.h>

bool arch_track_written_pages(void)
{
	return false;
}

bool arch_written_pages(unsigned long *bits)
{
	(void)bits;
	return false;
}

void arch_untrack_written_pages(void)
{
}
