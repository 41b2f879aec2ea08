/*
 * memleak_scan_measured() (<kernel/memleak.h>): one scan and what it
 * cost, for 'mmbench scan' (mm/debug/), which uses only the collector's
 * public header.
 *
 * Locking: the figures are copied under memleak_lock (memleak_enter()),
 * as the collector writes them.
 */
#include <kernel/memleak.h>
#include "internal.h"

int memleak_scan_measured(struct memleak_scan_stats *st)
{
	unsigned long flags;
	int err;

	/* A scan without suspects does not pause: no stale figures then. */
	memleak_enter(&flags);
	memleak.pause_cycles = 0;
	memleak.pause_bytes = 0;
	memleak_leave(flags);

	err = memleak_scan();
	if (err)
		return err;

	memleak_enter(&flags);
	st->blocks = memleak.nr_blocks;
	st->bytes_scanned = memleak.bytes_scanned;
	st->suspects = memleak.nr_suspects;
	st->cycles = memleak.scan_cycles;
	st->irqoff_cycles = memleak.scan_irqoff_cycles;
	st->pause_cycles = memleak.pause_cycles;
	st->pause_bytes = memleak.pause_bytes;
	memleak_leave(flags);
	return 0;
}
