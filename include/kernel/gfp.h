/*
 * Allocation flags (gfp: "get free pages"): what an allocation may do to
 * succeed and what the caller wants back. Passed to alloc_pages(),
 * kmem_cache_alloc() and kmalloc().
 */
#ifndef KERNEL_GFP_H
#define KERNEL_GFP_H

/* May sleep; nothing sleeps yet, but the flag tells who could. */
#define __GFP_WAIT	0x01u
/* May take pages from the emergency reserve kept for atomic callers. */
#define __GFP_HIGH	0x02u
/* Returns zeroed memory. */
#define __GFP_ZERO	0x04u
/* Fails quietly: the caller expects failure and handles it. */
#define __GFP_NOWARN	0x08u

/* Process context: the usual flags. */
#define GFP_KERNEL	(__GFP_WAIT)
/* Interrupt handlers and code holding spinlocks: never sleeps, may dig deeper. */
#define GFP_ATOMIC	(__GFP_HIGH)

#endif
