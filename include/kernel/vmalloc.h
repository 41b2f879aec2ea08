/*
 * vmalloc: virtually contiguous kernel memory built from separate
 * physical pages, mapped in the window VMALLOC_START..VMALLOC_END of
 * <asm/page.h>, each area followed by an unmapped guard page.
 */
#ifndef KERNEL_VMALLOC_H
#define KERNEL_VMALLOC_H

#include <kernel/list.h>
#include <kernel/types.h>

struct page;

/* vm_struct.flags */
#define VM_ALLOC	(1u << 0)	/* vmalloc() area: owns its pages */
#define VM_RESERVED	(1u << 1)	/* get_vm_area(): address range only */
#define VM_READY	(1u << 2)	/* mapped and handed out; not freeing */

/*
 * One area of the vmalloc window. The list of areas holds a pointer to
 * every area's start (addr): the second reference the leak collector
 * expects for a vmalloc block (min_count 2), the first being the
 * caller's own.
 */
struct vm_struct {
	struct list_head list;		/* in the area list, by address */
	void *addr;			/* first byte of the area */
	unsigned long size;		/* bytes, guard page included */
	unsigned int nr_pages;		/* mapped pages (size less the guard) */
	unsigned int flags;
	struct page **pages;		/* nr_pages pages, VM_ALLOC only */
	const void *caller;		/* where vmalloc() was called from */
};

/*
 * Allocates size bytes (rounded up to whole pages), mapped read-write.
 * Returns the start of the area, or NULL when size is 0 or too large,
 * or when memory, page tables or address space run out.
 */
void *vmalloc(unsigned long size);
/* Like vmalloc(), with the memory zeroed. */
void *vzalloc(unsigned long size);
/*
 * Frees an area vmalloc() returned; NULL does nothing. Any other
 * address gets a warning and nothing else happens.
 */
void vfree(const void *addr);

/* The live area that starts at addr, or NULL. Not stable against vfree(). */
struct vm_struct *find_vm_area(const void *addr);

/*
 * Reserves size bytes (rounded up to pages) of address space plus a
 * guard page, maps nothing: the caller maps with map_pages() and unmaps
 * everything before free_vm_area(). NULL when the window is full.
 */
struct vm_struct *get_vm_area(unsigned long size);
void free_vm_area(struct vm_struct *area);

/*
 * Called by the page-fault and abort handlers: when addr lies in the
 * vmalloc window, prints one line saying where (guard page after which
 * area, inside an area, no area) and returns true; else returns false.
 */
bool vmalloc_describe_fault(unsigned long addr);

/* Prints every area (the vmallocinfo command). */
void vmalloc_show_areas(void);

#endif
