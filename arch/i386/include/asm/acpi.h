/* The little of ACPI the i386 code reads: the CPUs listed in the MADT. */
#ifndef ASM_ACPI_H
#define ASM_ACPI_H

#include <kernel/types.h>

/*
 * Calls fn with the local APIC ID of every enabled processor in the
 * MADT, in table order. Returns how many, or -1 when there is no valid
 * RSDP, root table or MADT. Physical memory must be readable as is
 * (before paging, or under the identity map).
 */
int acpi_for_each_cpu(void (*fn)(u32 apic_id));

#endif
