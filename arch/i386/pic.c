/*
 * The legacy 8259 PICs: moved off the exception vectors and masked, so
 * that only the APICs deliver interrupts.
 */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/irq.h>

#define PIC1_CMD 0x20
#define PIC1_DATA 0x21
#define PIC2_CMD 0xa0
#define PIC2_DATA 0xa1

#define ICW1_INIT_ICW4 0x11	/* edge, cascade, ICW4 follows */
#define ICW4_8086 0x01
#define PIC_EOI 0x20

/* Port 0x80 is unused: a write gives the old PICs time to settle. */
static void io_wait(void)
{
	outb(0x80, 0);
}

static void pic_program(u16 cmd, u16 data, u8 base, u8 cascade)
{
	outb(cmd, ICW1_INIT_ICW4);
	io_wait();
	outb(data, base);
	io_wait();
	outb(data, cascade);
	io_wait();
	outb(data, ICW4_8086);
	io_wait();
}

void pic_init(void)
{
	pic_program(PIC1_CMD, PIC1_DATA, VECTOR_PIC_BASE, 1 << 2);
	pic_program(PIC2_CMD, PIC2_DATA, VECTOR_PIC_BASE + 8, 2);
	outb(PIC1_DATA, 0xff);
	outb(PIC2_DATA, 0xff);
}

void pic_spurious_eoi(unsigned int vector)
{
	/* A spurious IRQ 15 came through the master's cascade input. */
	if (vector == VECTOR_PIC_BASE + 15)
		outb(PIC1_CMD, PIC_EOI);
}
