/*
 * Written pages: which pages of RAM were written since a moment. The
 * leak collector asks when its concurrent mark begins and again with the
 * world stopped (mm/kmemleak/written.c): memory that nobody wrote in
 * between still holds what the mark read, so the pause reads again only
 * the pages written meanwhile.
 *
 *   arch_track_written_pages()   from now on, record every write to RAM
 *                                (and forget the earlier ones); false:
 *                                this machine cannot, or another caller
 *                                tracks now: nothing recorded
 *   arch_written_pages(bits)     sets bit pfn - min_pfn of bits for every
 *                                page of RAM written since through the
 *                                linear map (bits is zeroed by the
 *                                caller); false: cannot tell
 *   arch_untrack_written_pages() stop recording (after a true
 *                                arch_track_written_pages() only)
 *
 * Memory written through another mapping (a vmalloc area) is read
 * through that mapping's addresses, which are not RAM: callers count
 * every address outside RAM as written.
 *
 * Who implements it: arch/i386/written.c, from the page tables' dirty
 * bits (CONFIG_ARCH_TRACKS_WRITTEN_PAGES); arch/host/written.c, for the
 * host library, which runs one thread, so that nothing but the scan
 * runs between the two calls (unless a test plays another CPU). ARM
 * builds mm/written_untracked.c, which always says it cannot: ARMv7's
 * page tables have no dirty bit.
 *
 * One tracker at a time: the bits are the machine's, and a second caller
 * restarting them would erase writes the first must see. While one
 * tracks (the running scan, or 'selftest written'), another's
 * arch_track_written_pages() returns false, and the scan then reads
 * everything again. arch_written_pages() and the untrack belong to the
 * caller whose track returned true.
 */
#ifndef KERNEL_WRITTEN_H
#define KERNEL_WRITTEN_H

#include <kernel/types.h>

bool arch_track_written_pages(void);
bool arch_written_pages(unsigned long *bits);
void arch_untrack_written_pages(void);

#endif
