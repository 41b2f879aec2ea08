/*
 * The page-table helpers of the architecture, for the generic walker
 * (mm/pgtable.c) alone: the entry formats, where the top-level table
 * is, TLB maintenance. What every arch must provide, and how, is listed
 * in <asm-generic/pgtable.h>, which each arch's <asm/pgtable.h> includes
 * after defining its entry bits. Everyone else maps and unmaps through
 * <kernel/mmu.h>.
 */
#ifndef KERNEL_PGTABLE_H
#define KERNEL_PGTABLE_H

#include <kernel/mmu.h>
#include <asm/pgtable.h>

#endif
