/* i386 early setup: console, descriptor tables, boot info, then the kernel. */
#include <kernel/init.h>
#include <asm/i386.h>

void arch_start(u32 magic, u32 info_addr);

void arch_start(u32 magic, u32 info_addr)
{
	/* First: smp_processor_id() and current read %fs (<asm/arch.h>). */
	gdt_init(0);
	uart_init();
	idt_init();
	multiboot_parse(magic, info_addr);
	kernel_main();
}
