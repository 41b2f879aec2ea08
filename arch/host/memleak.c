/*
 * What the leak collector's core (mm/kmemleak/: tracking, index, scan,
 * report...) needs on the host besides the other shims:
 *
 * - roots: the kernel's (mm/kmemleak/roots.c: .data/.bss, per-CPU areas,
 *   thread stacks) do not exist here; a host program registers the
 *   memory it wants scanned with MEMLEAK_ROOT(), as a subsystem would;
 * - aliases: arch/host/memleak.ld gathers the container_of() records of
 *   the program between __memleak_offsets_start and _end, like the
 *   kernel's linker script;
 * - no allocator hooks: the rest of the host library is built without
 *   CONFIG_DEBUG_MEMLEAK (asm/host-config.h), so the collector tracks
 *   exactly the blocks the program hands to memleak_alloc();
 * - no threads: 'memleak scan=...' (mm/kmemleak/thread.c) is refused,
 *   and stopping the world for the scan's last step stops nothing (one
 *   thread: the scan's own).
 */
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <asm/host.h>
#include "../../mm/kmemleak/internal.h"

int memleak_set_auto_scan(const char *value)
{
	printk("memleak: scan=%s: no scan thread in host builds\n", value);
	return -EINVAL;
}

void (*host_memleak_on_stop_world)(void);
bool host_stop_world_stores_outside_ram;

/*
 * No other CPU to park; a test may play one, storing a pointer the
 * concurrent pass could not have seen, just before the world stops.
 */
bool memleak_stop_world(void)
{
	if (host_memleak_on_stop_world) {
		host_other_cpu_ran |= !host_stop_world_stores_outside_ram;
		host_memleak_on_stop_world();
	}
	return true;
}

void memleak_resume_world(void)
{
}

/* No kernel image to name it after: the root and the address. */
void memleak_describe_root(unsigned long addr, const char *root, char *buf,
			   size_t size)
{
	snprintf(buf, size, "%s: 0x%08lx", root, addr);
}

/* One thread: no other scan can be running. */
int memleak_scan_wait(void)
{
	return memleak_scan();
}

/* The host library's slab allocator tells the collector of slabs it frees. */
static void __attribute__((constructor)) hook_slab_release(void)
{
	host_memleak_slab_released = memleak_slab_released;
}
