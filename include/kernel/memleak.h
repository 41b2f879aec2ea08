/*
 * The leak collector's interface: the hooks the allocators call, the
 * annotations the rest of the kernel uses to describe memory the
 * collector cannot understand by itself, and the container_of() aliases.
 * Everything here is a no-op without CONFIG_DEBUG_MEMLEAK.
 */
#ifndef KERNEL_MEMLEAK_H
#define KERNEL_MEMLEAK_H

#include <stddef.h>
#include <kernel/compiler.h>
#include <kernel/errno.h>
#include <kernel/types.h>

struct memleak_type;

/*
 * Variables that hold no pointer the collector may count (page tables:
 * physical addresses with flag bits; the collector's own bookkeeping)
 * go to sections that lie inside .bss and .data but outside the roots
 * (linker/sections.ld): __memleak_noscan for zero-initialised ones,
 * __memleak_noscan_data for the others.
 */
#define __memleak_noscan __section(".bss..noscan")
#define __memleak_noscan_data __section(".data..noscan")

/*
 * What one scan cost, for benchmarks (mmbench scan, mm/debug/): the
 * blocks tracked and bytes read, the suspects found, the scan's cycles
 * (<kernel/cycles.h>) and its longest window with interrupts off, and
 * the pause with every other CPU stopped that confirms unreferenced
 * blocks (zero when there were none).
 */
struct memleak_scan_stats {
	unsigned long blocks;
	unsigned long bytes_scanned;
	unsigned long suspects;
	u64 cycles;
	u64 irqoff_cycles;
	u64 pause_cycles;
	unsigned long pause_bytes;
};

#ifdef CONFIG_DEBUG_MEMLEAK

/*
 * One container_of() use: a block of `size` bytes may be reached through
 * a pointer to its member at `offset`, itself `member_size` bytes long.
 * The compiler puts one of these in .init.memleak_offsets per use.
 */
struct memleak_offset {
	unsigned long offset;
	unsigned long size;
	unsigned long member_size;
};

/* A member at a non-constant offset (an array index) gives no alias. */
#define __memleak_offsetof(type, member)                        \
	(__builtin_constant_p(offsetof(type, member)) ?         \
		 offsetof(type, member) : 0)

#define __DECLARE_MEMLEAK_OFFSET(name, type, member)                    \
	static const struct memleak_offset name __used                  \
		__section(".init.memleak_offsets")                       \
		__aligned(sizeof(unsigned long)) = {                     \
			__memleak_offsetof(type, member), sizeof(type),  \
			sizeof(((type *)0)->member)                      \
		}

#define DECLARE_MEMLEAK_OFFSET(type, member) \
	__DECLARE_MEMLEAK_OFFSET(__memleak_offset, type, member)

/* Declares an alias where no container_of() use exists (file or block scope). */
#define memleak_container(type, member) \
	__DECLARE_MEMLEAK_OFFSET(__concat(__memleak_container_, __LINE__), \
				 type, member)

/*
 * A new block of size bytes at ptr that is not a leak while at least
 * min_count pointers to it are found (vmalloc: 2, its vm_struct holds
 * one); min_count 0 means never reported. The caller keeps ptr in a
 * local until it hands it out: the scan's pause finds a pointer in
 * transit in the saved registers of the CPU it parked, not one the
 * caller would read back from its own records (mm/vmalloc.c).
 */
void memleak_alloc(const void *ptr, size_t size, int min_count);
/*
 * The same for a block of a known type (<kernel/memleak_type.h>; NULL:
 * none), which the collector scans at its pointer fields only.
 */
void memleak_alloc_typed(const void *ptr, size_t size, int min_count,
			 const struct memleak_type *type);
void memleak_free(const void *ptr);
/*
 * memleak_free() for an allocator that calls it from its own
 * interrupts-off section (slab_free()): it saves turning them off again.
 */
void memleak_free_irqs_off(const void *ptr);
/* The block's interesting part is size bytes at ptr + offset. */
void memleak_padding(const void *ptr, unsigned long offset, size_t size);
/* Never report the block, but still scan it (gray forever). */
void memleak_not_leak(const void *ptr);
/* Neither report nor scan the block (black). */
void memleak_ignore(const void *ptr);
/* Scan only these parts of the block (may be called several times). */
void memleak_scan_area(const void *ptr, unsigned long offset, size_t length);

/* Wipes a stale copy of a pointer that must not keep its block alive. */
#define memleak_erase(pptr) (*(pptr) = NULL)

/*
 * Scan roots: memory that is not a tracked block but may hold pointers
 * to blocks. Each subsystem that owns such memory registers a function
 * with MEMLEAK_ROOT() from its own file; the scan calls every one, and
 * each calls memleak_scan_range() on its ranges. The scan's pause calls
 * them again, and where it knows which pages were written, passes over
 * the others: a root must give the same ranges within a scan, or read
 * the ones that move (the live part of a stack) with
 * memleak_scan_range_whole().
 */
struct memleak_root {
	const char *name;
	void (*scan)(void);
};

#define MEMLEAK_ROOT(root_name, fn)                                     \
	static const struct memleak_root __memleak_root_##fn __used     \
		__section("memleak_roots") __aligned(sizeof(void *)) = { \
			root_name, fn                                   \
		}

extern const struct memleak_root __start_memleak_roots[];
extern const struct memleak_root __stop_memleak_roots[];

void memleak_scan_range(const void *start, const void *end);
void memleak_scan_range_whole(const void *start, const void *end);

void memleak_init(void);

/*
 * nr_free_pages() with the pages of the collector's own metadata caches
 * counted as free, read while the collector cannot allocate: for tests
 * that check that no page was lost while the collector may be allocating
 * in the background (a scan thread).
 */
unsigned long memleak_nr_free_pages(void);

/*
 * Keeps every scan out, once the one running (if any) is over, until
 * memleak_allow_scans(): for a test that takes every free page for a
 * while, so that no background scan runs out of memory meanwhile (and
 * disables the collector) nor gives pages back under its feet. Scans
 * asked for meanwhile are refused as if another one ran (-EBUSY).
 */
void memleak_hold_scans(void);
void memleak_allow_scans(void);

/* Gives back the metadata the collector keeps for reuse (slab shrinking). */
void memleak_shrink(void);
/*
 * Gives the allocations still waiting in the per-CPU logs of recent
 * allocations their blocks, as a scan does first: a benchmark calls it
 * to count that work with the allocations that caused it.
 */
void memleak_flush_pending(void);
/*
 * Runs one scan (reporting nothing) and fills *st with its figures.
 * Returns 0, -EBUSY when another scan runs or the collector is off, or
 * -ENODEV without the collector (mm/kmemleak/measure.c; its user is
 * 'mmbench scan').
 */
int memleak_scan_measured(struct memleak_scan_stats *st);
/*
 * What 'memleak clear' does: the blocks reported so far are not
 * reported again until their contents change, nor is their free a
 * notice (CONFIG_DEBUG_MEMLEAK_ORPHAN_FREEING). Returns how many.
 */
unsigned long memleak_clear_reports(void);
/*
 * Adds the aliases of a module's container_of() records at load; remove
 * takes them out at unload (an offset another record set also gave
 * stays). Blocks tracked meanwhile keep the aliases they were given.
 */
int memleak_insert_aliases(const struct memleak_offset *start,
			   const struct memleak_offset *end);
void memleak_remove_aliases(const struct memleak_offset *start,
			    const struct memleak_offset *end);

#else

#define DECLARE_MEMLEAK_OFFSET(type, member) do { } while (0)
#define memleak_container(type, member) \
	_Static_assert(sizeof(((type *)0)->member) > 0, "memleak_container")

static inline void memleak_alloc(const void *ptr, size_t size, int min_count)
{
	(void)ptr, (void)size, (void)min_count;
}
static inline void memleak_alloc_typed(const void *ptr, size_t size,
				       int min_count,
				       const struct memleak_type *type)
{
	(void)ptr, (void)size, (void)min_count, (void)type;
}
static inline void memleak_free(const void *ptr) { (void)ptr; }
static inline void memleak_free_irqs_off(const void *ptr) { (void)ptr; }
static inline void memleak_padding(const void *ptr, unsigned long offset,
				   size_t size)
{
	(void)ptr, (void)offset, (void)size;
}
static inline void memleak_not_leak(const void *ptr) { (void)ptr; }
static inline void memleak_ignore(const void *ptr) { (void)ptr; }
static inline void memleak_scan_area(const void *ptr, unsigned long offset,
				     size_t length)
{
	(void)ptr, (void)offset, (void)length;
}
#define memleak_erase(pptr) do { (void)(pptr); } while (0)

/* Keeps the root function referenced, so it needs no #ifdef of its own. */
#define MEMLEAK_ROOT(root_name, fn)                             \
	static inline void __maybe_unused __memleak_root_##fn(void) \
	{                                                       \
		(void)fn;                                       \
	}
static inline void memleak_scan_range(const void *start, const void *end)
{
	(void)start, (void)end;
}
static inline void memleak_scan_range_whole(const void *start,
					    const void *end)
{
	(void)start, (void)end;
}
static inline void memleak_init(void) { }
#define memleak_nr_free_pages() nr_free_pages()
static inline void memleak_hold_scans(void) { }
static inline void memleak_allow_scans(void) { }
static inline void memleak_shrink(void) { }
static inline void memleak_flush_pending(void) { }
static inline int memleak_scan_measured(struct memleak_scan_stats *st)
{
	(void)st;
	return -ENODEV;
}
static inline unsigned long memleak_clear_reports(void) { return 0; }

#endif /* CONFIG_DEBUG_MEMLEAK */

/*
 * The slab allocator gives the slab at base (of a tracked cache) back to
 * the page allocator: the collector forgets the records of its objects.
 * Host builds keep the hooks out of the allocators, but a host program
 * may track slab objects itself: there the call goes through a pointer
 * that the collector sets when it is linked in (arch/host/memleak.c).
 */
#ifdef HOST_BUILD
extern void (*host_memleak_slab_released)(const void *base);
#endif
#if defined(CONFIG_DEBUG_MEMLEAK)
void memleak_slab_released(const void *base);
#elif defined(HOST_BUILD)
static inline void memleak_slab_released(const void *base)
{
	if (host_memleak_slab_released)
		host_memleak_slab_released(base);
}
#else
static inline void memleak_slab_released(const void *base)
{
	(void)base;
}
#endif

#endif
