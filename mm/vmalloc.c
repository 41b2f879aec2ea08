/*
 * vmalloc: large, virtually contiguous allocations made of order-0
 * pages wherever the page allocator finds them, mapped into the vmalloc
 * window with map_pages(). Each area is followed by an unmapped guard
 * page, so running off its end faults at once.
 *
 * Areas are struct vm_struct in one list sorted by address; a new one
 * takes the first gap that fits (first fit). The list has its own lock,
 * vmap_lock, which is never held while calling the page allocator,
 * kmalloc or the page-table code (so it nests inside nothing and
 * nothing nests inside it). An area is in the list from the moment its
 * range is reserved until its pages are unmapped, so no other area can
 * reuse the range while it still has mappings; only areas marked
 * VM_READY are visible to vfree() and find_vm_area().
 */
#include <kernel/kernel.h>
#include <kernel/alloc_entry.h>
#include <kernel/errno.h>
#include <kernel/gfp.h>
#include <kernel/memleak.h>
#include <kernel/memleak_type.h>
#include <kernel/mm.h>
#include <kernel/printk.h>
#include <kernel/slab.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <kernel/vmalloc.h>
#include <kernel/export.h>
#include <kernel/mmu.h>

/*
 * What the leak collector reads of an area (<kernel/memleak_type.h>):
 * addr holds one of the two references its block needs, pages the page
 * array; caller is code.
 */
MEMLEAK_TYPE(vm_struct,
	     MEMLEAK_LIST(list, vm_struct, list),
	     MEMLEAK_ANY(addr),
	     MEMLEAK_DATA_TO(size, flags),
	     MEMLEAK_ANY(pages),
	     MEMLEAK_DATA(caller));

#define VMALLOC_WINDOW (VMALLOC_END - VMALLOC_START)

static LIST_HEAD(vmap_areas);
static DEFINE_SPINLOCK(vmap_lock);

/*
 * The one place that turns a caller address into text: symbol names
 * (%pS) go here once the kernel has a symbol table.
 */
static const char *caller_name(const void *caller, char *buf, size_t len)
{
	snprintf(buf, len, "%p", caller);
	return buf;
}

#define CALLER_NAME_LEN 64

static unsigned long area_start(const struct vm_struct *area)
{
	return (unsigned long)area->addr;
}

/* The end of the mapped part, where the guard page starts. */
static unsigned long area_mapped_end(const struct vm_struct *area)
{
	return area_start(area) + area->nr_pages * PAGE_SIZE;
}

/*
 * Finds the first gap of area->size bytes, sets area->addr and links
 * the area in at its place. Returns false when the window is full.
 * vmap_lock is held.
 */
static bool insert_area(struct vm_struct *area)
{
	unsigned long start = VMALLOC_START;
	struct vm_struct *next;

	list_for_each_entry(next, &vmap_areas, list) {
		if (area_start(next) - start >= area->size)
			break;
		start = area_start(next) + next->size;
	}
	if (VMALLOC_END - start < area->size)
		return false;
	area->addr = (void *)start;
	list_add_tail(&area->list, &next->list);
	return true;
}

/*
 * A new area of npages pages plus the guard; NULL when out of space.
 * Not inlined into vmalloc_caller() (alloc_text): the leak collector
 * names this function, not vmalloc()'s caller, for the vm_struct.
 */
static __noinline struct vm_struct *reserve_area(unsigned long npages,
						 unsigned int flags,
						 const void *caller)
{
	struct vm_struct *area = kzalloc_obj(vm_struct, GFP_KERNEL);
	unsigned long irq;
	bool ok;

	if (!area)
		return NULL;
	area->size = (npages + 1) * PAGE_SIZE;
	area->nr_pages = npages;
	area->flags = flags;
	area->caller = caller;
	irq = spin_lock_irqsave(&vmap_lock);
	ok = insert_area(area);
	spin_unlock_irqrestore(&vmap_lock, irq);
	if (!ok) {
		printk("vmalloc: no room for %lu pages in the vmalloc window\n",
		       npages);
		kfree(area);
		return NULL;
	}
	return area;
}

static void release_area(struct vm_struct *area)
{
	unsigned long irq = spin_lock_irqsave(&vmap_lock);

	list_del(&area->list);
	spin_unlock_irqrestore(&vmap_lock, irq);
	kfree(area);
}

/* Pages needed for size bytes; 0 when size is 0 or cannot fit. */
static unsigned long size_to_pages(unsigned long size, const void *caller)
{
	char name[CALLER_NAME_LEN];

	if (size == 0 || size > VMALLOC_WINDOW - PAGE_SIZE) {
		printk("vmalloc: cannot allocate %lu bytes (caller %s)\n", size,
		       caller_name(caller, name, sizeof(name)));
		return 0;
	}
	return DIV_ROUND_UP(size, PAGE_SIZE);
}

static void free_page_array(struct page **pages, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		__free_pages(pages[i], 0);
}

/*
 * Fills area->pages with order-0 pages; all or none. Not inlined: see
 * reserve_area().
 */
static __noinline int alloc_area_pages(struct vm_struct *area,
				       unsigned int gfp)
{
	unsigned long n = area->nr_pages;

	area->pages = kmalloc(n * sizeof(*area->pages), GFP_KERNEL);
	if (!area->pages)
		return -ENOMEM;
	for (unsigned long i = 0; i < n; i++) {
		area->pages[i] = alloc_pages(GFP_KERNEL | gfp, 0);
		if (!area->pages[i]) {
			free_page_array(area->pages, i);
			kfree(area->pages);
			area->pages = NULL;
			return -ENOMEM;
		}
	}
	return 0;
}

/* Maps the pages, one map_pages() call per physically contiguous run. */
static int map_area(struct vm_struct *area)
{
	unsigned long n = area->nr_pages, i, j;

	for (i = 0; i < n; i = j) {
		phys_addr_t phys = page_to_phys(area->pages[i]);
		int err;

		for (j = i + 1; j < n; j++)
			if (page_to_phys(area->pages[j]) !=
			    phys + (j - i) * PAGE_SIZE)
				break;
		err = map_pages(area_start(area) + i * PAGE_SIZE, phys, j - i,
				MAP_KERNEL_RW);
		if (err) {
			if (i)
				unmap_pages(area_start(area), i);
			return err;
		}
	}
	return 0;
}

/* Marks the area as handed out; until then vfree() does not see it. */
static void publish_area(struct vm_struct *area)
{
	unsigned long irq = spin_lock_irqsave(&vmap_lock);

	area->flags |= VM_READY;
	spin_unlock_irqrestore(&vmap_lock, irq);
}

/*
 * In alloc_text (<kernel/alloc_entry.h>), as vmalloc() and vzalloc():
 * the area's trace starts at their caller. Its own allocations are made
 * by functions outside it, which their traces name.
 */
static __alloc_entry void *vmalloc_caller(unsigned long size,
					  unsigned int gfp,
					  const void *caller)
{
	unsigned long npages = size_to_pages(size, caller);
	struct vm_struct *area;
	void *addr;

	if (!npages)
		return NULL;
	area = reserve_area(npages, VM_ALLOC, caller);
	if (!area)
		return NULL;
	if (alloc_area_pages(area, gfp)) {
		release_area(area);
		return NULL;
	}
	if (map_area(area)) {
		free_page_array(area->pages, npages);
		kfree(area->pages);
		release_area(area);
		return NULL;
	}
	mod_page_state(NR_VMALLOC_PAGES, npages);
	/*
	 * Leak-collector hook: the area is one block, reported only when
	 * fewer than 2 pointers to it are found, because area->addr in the
	 * area list (reachable from vmap_areas) always holds one. The
	 * second is ours until the caller has it: the address stays in a
	 * local from the hook to the return (see memleak_alloc()). Read
	 * again from area->addr after publish_area(), whose unlock is a
	 * preemption point, it was in no register there, and a scan that
	 * parked this CPU there found the list's pointer alone and
	 * reported a live area (memleak_stress, ARM, 4 CPUs, age=0).
	 */
	addr = area->addr;
	memleak_alloc(addr, npages * PAGE_SIZE, 2);
	publish_area(area);
	return addr;
}

__alloc_entry void *vmalloc(unsigned long size)
{
	return vmalloc_caller(size, 0, __builtin_return_address(0));
}
EXPORT_SYMBOL(vmalloc);

__alloc_entry void *vzalloc(unsigned long size)
{
	return vmalloc_caller(size, __GFP_ZERO, __builtin_return_address(0));
}
EXPORT_SYMBOL(vzalloc);

/* The area containing addr (guard page included), or NULL; lock held. */
static struct vm_struct *area_containing(unsigned long addr)
{
	struct vm_struct *area;

	list_for_each_entry(area, &vmap_areas, list) {
		if (addr < area_start(area))
			break;
		if (addr - area_start(area) < area->size)
			return area;
	}
	return NULL;
}

/* Reports (and counts) a vfree() of anything but a live area's start. */
static void warn_bad_vfree(const void *addr, const void *caller)
{
	char name[CALLER_NAME_LEN];

	mm_report("vfree: %p is not a vmalloc area (caller %s)", addr,
		  caller_name(caller, name, sizeof(name)));
}

/*
 * Takes the area starting at addr out of use (clears VM_READY), so a
 * second vfree() of it warns. NULL when there is no such area.
 */
static struct vm_struct *claim_area(const void *addr, unsigned int type)
{
	struct vm_struct *area;
	unsigned long irq = spin_lock_irqsave(&vmap_lock);

	area = area_containing((unsigned long)addr);
	if (area && (area->addr != addr || !(area->flags & VM_READY) ||
		     !(area->flags & type)))
		area = NULL;
	if (area)
		area->flags &= ~VM_READY;
	spin_unlock_irqrestore(&vmap_lock, irq);
	return area;
}

void vfree(const void *addr)
{
	struct vm_struct *area;

	if (!addr)
		return;
	area = claim_area(addr, VM_ALLOC);
	if (!area) {
		warn_bad_vfree(addr, __builtin_return_address(0));
		return;
	}
	/* Leak-collector hook: the block is gone before its pages are. */
	memleak_free(area->addr);
	unmap_pages(area_start(area), area->nr_pages);
	free_page_array(area->pages, area->nr_pages);
	mod_page_state(NR_VMALLOC_PAGES, -(long)area->nr_pages);
	kfree(area->pages);
	release_area(area);
}
EXPORT_SYMBOL(vfree);

struct vm_struct *find_vm_area(const void *addr)
{
	struct vm_struct *area;
	unsigned long irq = spin_lock_irqsave(&vmap_lock);

	area = area_containing((unsigned long)addr);
	if (area && (area->addr != addr || !(area->flags & VM_READY)))
		area = NULL;
	spin_unlock_irqrestore(&vmap_lock, irq);
	return area;
}

struct vm_struct *get_vm_area(unsigned long size)
{
	const void *caller = __builtin_return_address(0);
	unsigned long npages = size_to_pages(size, caller);
	struct vm_struct *area;

	if (!npages)
		return NULL;
	area = reserve_area(npages, VM_RESERVED, caller);
	if (area)
		publish_area(area);
	return area;
}

void free_vm_area(struct vm_struct *area)
{
	if (!area || !claim_area(area->addr, VM_RESERVED)) {
		warn_bad_vfree(area ? area->addr : NULL,
			       __builtin_return_address(0));
		return;
	}
	release_area(area);
}

/* One line for a fault at addr inside an area's range; lock held. */
static void describe_area_fault(unsigned long addr,
				const struct vm_struct *area)
{
	char name[CALLER_NAME_LEN];
	bool guard = addr >= area_mapped_end(area);

	printk("fault in %svmalloc area 0x%08lx-0x%08lx (%lu bytes, "
	       "caller %s)%s\n", guard ? "the guard page after " : "",
	       area_start(area), area_mapped_end(area),
	       area->nr_pages * PAGE_SIZE,
	       caller_name(area->caller, name, sizeof(name)),
	       (area->flags & VM_READY) ? "" : " while it is set up or freed");
}

bool vmalloc_describe_fault(unsigned long addr)
{
	struct vm_struct *area;

	if (addr < VMALLOC_START || addr >= VMALLOC_END)
		return false;
	/* The fault may have hit code that holds the lock: never wait. */
	if (!spin_trylock(&vmap_lock)) {
		printk("fault in vmalloc space at 0x%08lx (area list busy)\n",
		       addr);
		return true;
	}
	area = area_containing(addr);
	if (area)
		describe_area_fault(addr, area);
	else
		printk("fault in vmalloc space at 0x%08lx (no area)\n", addr);
	spin_unlock(&vmap_lock);
	return true;
}

static void show_area(const struct vm_struct *area)
{
	char name[CALLER_NAME_LEN];

	printk("0x%08lx-0x%08lx %10lu %6u  %-8s %s\n", area_start(area),
	       area_mapped_end(area), area->nr_pages * PAGE_SIZE,
	       area->nr_pages,
	       !(area->flags & VM_READY) ? "busy" :
	       (area->flags & VM_ALLOC) ? "vmalloc" : "reserved",
	       caller_name(area->caller, name, sizeof(name)));
}

void vmalloc_show_areas(void)
{
	struct vm_struct *area;
	unsigned long areas = 0, pages = 0, irq;

	printk("vmalloc window 0x%08lx-0x%08lx, each area followed by a "
	       "%lu-byte guard page\n", VMALLOC_START, VMALLOC_END, PAGE_SIZE);
	printk("%-21s %10s %6s  %-8s %s\n", "range", "bytes", "pages", "kind",
	       "caller");
	irq = spin_lock_irqsave(&vmap_lock);
	list_for_each_entry(area, &vmap_areas, list) {
		show_area(area);
		areas++;
		pages += area->nr_pages;
	}
	spin_unlock_irqrestore(&vmap_lock, irq);
	printk("%lu areas, %lu pages mapped (%lu KiB), %lu page-table pages\n",
	       areas, pages, pages * PAGE_SIZE / 1024,
	       page_state(NR_PAGETABLE_PAGES));
}
