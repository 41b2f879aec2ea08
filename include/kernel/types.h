/* Fixed-size integer names in the kernel's short style. */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

typedef uint8_t u8;
typedef uint16_t u16;
/* int, not uint32_t: newlib's uint32_t is long, which breaks %x. */
typedef unsigned int u32;
typedef unsigned long long u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int s32;
typedef long long s64;

/* A physical address; 64 bits so that LPAE/PAE ranges fit. */
typedef unsigned long long phys_addr_t;

_Static_assert(sizeof(u32) == 4 && sizeof(u64) == 8, "integer sizes");

#endif
