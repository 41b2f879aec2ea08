/*
 * i386 traps: interrupts go to irq.c, NMIs to smp.c; exceptions name
 * the fault, dump the registers and panic.
 */
#include <kernel/arch.h>
#include <kernel/printk.h>
#include <kernel/vmalloc.h>
#include <kernel/stacktrace.h>
#include <asm/i386.h>

#define VECTOR_NMI 2
#define VECTOR_PAGE_FAULT 14
#define NR_EXCEPTIONS 32

static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "breakpoint", "overflow",
	"bound range exceeded", "invalid opcode", "device not available",
	"double fault", "coprocessor segment overrun", "invalid TSS",
	"segment not present", "stack-segment fault", "general protection",
	"page fault", "reserved", "x87 floating-point", "alignment check",
	"machine check", "SIMD floating-point", "virtualization",
	"control protection",
};

static const char *exception_name(u32 vector)
{
	if (vector < 32 && exception_names[vector])
		return exception_names[vector];
	return "reserved";
}

static u32 read_cr2(void)
{
	u32 cr2;

	__asm__ __volatile__("mov %%cr2, %0" : "=r"(cr2));
	return cr2;
}

/* The stack pointer at the time of the trap: just past the CPU's frame. */
static u32 trapped_esp(const struct trap_frame *f)
{
	return (u32)&f->eflags + sizeof(f->eflags);
}

static void dump_frame(const struct trap_frame *f)
{
	printk("EIP: %08x  EFLAGS: %08x  CS: %04x  error: %08x\n",
	       f->eip, f->eflags, f->cs & 0xffff, f->error);
	printk("EAX: %08x  EBX: %08x  ECX: %08x  EDX: %08x\n",
	       f->eax, f->ebx, f->ecx, f->edx);
	printk("ESI: %08x  EDI: %08x  EBP: %08x  ESP: %08x\n",
	       f->esi, f->edi, f->ebp, trapped_esp(f));
	printk("DS: %04x  ES: %04x  FS: %04x  GS: %04x\n",
	       f->ds & 0xffff, f->es & 0xffff, f->fs & 0xffff, f->gs & 0xffff);
}

void trap_handler(struct trap_frame *f)
{
	if (f->vector >= NR_EXCEPTIONS) {
		i386_interrupt(f);
		return;
	}
	if (f->vector == VECTOR_NMI) {
		i386_nmi();
		return;
	}
	printk("\nexception %u (%s) at %08x\n", f->vector,
	       exception_name(f->vector), f->eip);
	if (f->vector == VECTOR_PAGE_FAULT) {
		printk("faulting address: %08x\n", read_cr2());
		vmalloc_describe_fault(read_cr2());
	}
	dump_frame(f);
	show_backtrace_from(f->eip, f->ebp);
	panic("unhandled exception %u (%s)", f->vector,
	      exception_name(f->vector));
}
