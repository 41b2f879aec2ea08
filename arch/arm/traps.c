/*
 * ARM exceptions: IRQs go to the GIC driver; everything else names the
 * fault, dumps the registers and panics.
 */
#include <kernel/arch.h>
#include <kernel/printk.h>
#include <kernel/vmalloc.h>
#include <kernel/stacktrace.h>
#include <asm/arm.h>
#include <asm/gic.h>

static const char *const exception_names[] = {
	[EXC_RESET] = "reset",
	[EXC_UNDEF] = "undefined instruction",
	[EXC_SVC] = "supervisor call",
	[EXC_PREFETCH_ABORT] = "prefetch abort",
	[EXC_DATA_ABORT] = "data abort",
	[EXC_IRQ] = "IRQ",
	[EXC_FIQ] = "FIQ",
};

static u32 read_dfsr(void)
{
	u32 v;

	__asm__ __volatile__("mrc p15, 0, %0, c5, c0, 0" : "=r"(v));
	return v;
}

static u32 read_dfar(void)
{
	u32 v;

	__asm__ __volatile__("mrc p15, 0, %0, c6, c0, 0" : "=r"(v));
	return v;
}

static u32 read_ifsr(void)
{
	u32 v;

	__asm__ __volatile__("mrc p15, 0, %0, c5, c0, 1" : "=r"(v));
	return v;
}

static u32 read_ifar(void)
{
	u32 v;

	__asm__ __volatile__("mrc p15, 0, %0, c6, c0, 2" : "=r"(v));
	return v;
}

static void dump_frame(const struct arm_frame *f)
{
	printk("pc : %08x  lr : %08x  psr: %08x\n", f->pc, f->lr, f->cpsr);
	printk("sp : %08x  ip : %08x  fp : %08x\n", f->sp, f->r[12], f->r[11]);
	printk("r10: %08x  r9 : %08x  r8 : %08x\n", f->r[10], f->r[9], f->r[8]);
	printk("r7 : %08x  r6 : %08x  r5 : %08x  r4 : %08x\n",
	       f->r[7], f->r[6], f->r[5], f->r[4]);
	printk("r3 : %08x  r2 : %08x  r1 : %08x  r0 : %08x\n",
	       f->r[3], f->r[2], f->r[1], f->r[0]);
}

void arm_exception(struct arm_frame *f, int kind)
{
	const char *name = exception_names[kind];

	if (kind == EXC_IRQ) {
		gic_handle_irq();
		return;
	}
	printk("\nexception: %s at %08x\n", name, f->pc);
	if (kind == EXC_DATA_ABORT) {
		printk("fault status %08x, faulting address: %08x\n",
		       read_dfsr(), read_dfar());
		vmalloc_describe_fault(read_dfar());
	}
	if (kind == EXC_PREFETCH_ABORT) {
		printk("fault status %08x, faulting address: %08x\n",
		       read_ifsr(), read_ifar());
		vmalloc_describe_fault(read_ifar());
	}
	dump_frame(f);
	show_backtrace_from(f->pc, f->r[11]);
	panic("unhandled exception (%s)", name);
}
