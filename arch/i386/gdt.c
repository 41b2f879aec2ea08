/* The i386 GDT: flat 4 GiB code and data segments for ring 0. */
#include <kernel/types.h>
#include <asm/i386.h>

struct gdt_ptr {
	u16 limit;
	u32 base;
} __attribute__((packed));

/* Base 0, limit 4 GiB, 4 KiB granularity, 32-bit. */
#define SEG_CODE 0x00cf9a000000ffffULL	/* present, ring 0, exec/read */
#define SEG_DATA 0x00cf92000000ffffULL	/* present, ring 0, read/write */

static u64 gdt[3] __attribute__((aligned(8))) = { 0, SEG_CODE, SEG_DATA };

void gdt_init(void)
{
	struct gdt_ptr ptr = { sizeof(gdt) - 1, (u32)gdt };

	__asm__ __volatile__("lgdt %0\n\t"
			     "ljmp %1, $1f\n"
			     "1:\n\t"
			     "mov %2, %%ax\n\t"
			     "mov %%ax, %%ds\n\t"
			     "mov %%ax, %%es\n\t"
			     "mov %%ax, %%fs\n\t"
			     "mov %%ax, %%gs\n\t"
			     "mov %%ax, %%ss\n\t"
			     :
			     : "m"(ptr), "i"(KERNEL_CS), "i"(KERNEL_DS)
			     : "eax", "memory");
}
