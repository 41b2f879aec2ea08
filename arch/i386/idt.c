/*
 * The i386 IDT, shared by every CPU: every vector points at its stub in
 * entry.S.
 */
#include <kernel/types.h>
#include <asm/i386.h>

#define NR_STUBS 256

struct idt_entry {
	u16 offset_low;
	u16 selector;
	u8 zero;
	u8 type_attr;
	u16 offset_high;
} __attribute__((packed));

struct idt_ptr {
	u16 limit;
	u32 base;
} __attribute__((packed));

#define GATE_INTERRUPT_RING0 0x8e	/* present, DPL 0, 32-bit interrupt gate */

extern const u32 trap_stubs[NR_STUBS];
static struct idt_entry idt[256] __attribute__((aligned(8)));

static void set_gate(int vector, u32 handler)
{
	idt[vector].offset_low = handler & 0xffff;
	idt[vector].selector = KERNEL_CS;
	idt[vector].zero = 0;
	idt[vector].type_attr = GATE_INTERRUPT_RING0;
	idt[vector].offset_high = handler >> 16;
}

/* Every CPU shares the one table. */
void idt_load(void)
{
	struct idt_ptr ptr = { sizeof(idt) - 1, (u32)idt };

	__asm__ __volatile__("lidt %0" : : "m"(ptr));
}

void idt_init(void)
{
	for (int i = 0; i < NR_STUBS; i++)
		set_gate(i, trap_stubs[i]);
	idt_load();
}
