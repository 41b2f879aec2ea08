/*
 * The one definition of "an allocator frame". The allocators' entry
 * points (kmalloc, kzalloc, kmem_cache_alloc, vmalloc and their helpers
 * on the way to the leak collector's hook, the page allocator's entry
 * points) and the collector's allocation hooks are marked __alloc_entry,
 * which puts them in one text section. A backtrace taken inside an
 * allocation drops its leading frames in that section, so it starts at
 * the allocator's caller (mm/kmemleak/log.c, early.c); the GDB commands
 * read the same two symbols (tools/gdb/kleakgdb).
 *
 * linker/sections.ld gathers the section between __start_alloc_text and
 * __stop_alloc_text; on the host, ld defines both itself for an orphan
 * section whose name is a C identifier. Modules never hold allocators:
 * there the mark is empty.
 */
#ifndef KERNEL_ALLOC_ENTRY_H
#define KERNEL_ALLOC_ENTRY_H

#include <kernel/compiler.h>
#include <stdbool.h>

#ifdef MODULE
#define __alloc_entry
#else
#define __alloc_entry __section("alloc_text")
#endif

extern const char __start_alloc_text[], __stop_alloc_text[];

/* True when the code address addr lies in an allocator entry point. */
static inline bool in_alloc_text(unsigned long addr)
{
	unsigned long start = (unsigned long)__start_alloc_text;

	return addr - start < (unsigned long)__stop_alloc_text - start;
}

#endif
