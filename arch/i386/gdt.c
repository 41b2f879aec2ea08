/*
 * The i386 GDTs, one per CPU: flat 4 GiB code and data segments for
 * ring 0, and the CPU's own small data segment for %fs, based at its
 * struct cpu_local, through which it finds its number and its running
 * thread (<asm/arch.h>). Nothing ever changes privilege level, so no
 * TSS is needed: the CPU reads one only on a switch to ring 0 from
 * another ring or through a task gate, and we use neither.
 */
#include <kernel/kernel.h>
#include <kernel/smp.h>
#include <kernel/thread.h>
#include <kernel/types.h>
#include <asm/i386.h>

struct gdt_ptr {
	u16 limit;
	u32 base;
} __attribute__((packed));

struct cpu_local {
	unsigned int cpu;
	struct thread *current;
};

_Static_assert(offsetof(struct cpu_local, cpu) == CPU_LOCAL_CPU &&
	       offsetof(struct cpu_local, current) == CPU_LOCAL_CURRENT,
	       "struct cpu_local must match <asm/arch.h>");

/* Base 0, limit 4 GiB, 4 KiB granularity, 32-bit. */
#define SEG_CODE 0x00cf9a000000ffffULL	/* present, ring 0, exec/read */
#define SEG_DATA 0x00cf92000000ffffULL	/* present, ring 0, read/write */
/* Present, ring 0, read/write, byte granularity, 32-bit. */
#define SEG_SMALL_DATA_ACCESS 0x92u
#define SEG_SMALL_DATA_FLAGS 0x4u

#define GDT_ENTRIES 4

/* CPU 0's is ready before the first instruction of C runs on it. */
static struct cpu_local cpu_locals[NR_CPUS] = {
	[0] = { .cpu = 0, .current = &boot_thread },
};
static u64 gdts[NR_CPUS][GDT_ENTRIES] __aligned(8);

static u64 small_data_segment(u32 base, u32 limit)
{
	return (u64)(limit & 0xffff) | (u64)(base & 0xffffff) << 16 |
	       (u64)SEG_SMALL_DATA_ACCESS << 40 |
	       (u64)((limit >> 16) & 0xf) << 48 |
	       (u64)SEG_SMALL_DATA_FLAGS << 52 | (u64)(base >> 24) << 56;
}

void gdt_prepare_cpu(unsigned int cpu, struct thread *first)
{
	u64 *gdt = gdts[cpu];

	cpu_locals[cpu].cpu = cpu;
	cpu_locals[cpu].current = first;
	gdt[0] = 0;
	gdt[KERNEL_CS / 8] = SEG_CODE;
	gdt[KERNEL_DS / 8] = SEG_DATA;
	gdt[KERNEL_PERCPU / 8] =
		small_data_segment((u32)&cpu_locals[cpu],
				   sizeof(cpu_locals[cpu]) - 1);
}

void gdt_init(unsigned int cpu)
{
	struct gdt_ptr ptr = { sizeof(gdts[cpu]) - 1, (u32)gdts[cpu] };

	if (cpu == 0)
		gdt_prepare_cpu(0, &boot_thread);
	__asm__ __volatile__("lgdt %0\n\t"
			     "ljmp %1, $1f\n"
			     "1:\n\t"
			     "mov %2, %%ax\n\t"
			     "mov %%ax, %%ds\n\t"
			     "mov %%ax, %%es\n\t"
			     "mov %%ax, %%gs\n\t"
			     "mov %%ax, %%ss\n\t"
			     "mov %3, %%ax\n\t"
			     "mov %%ax, %%fs\n\t"
			     :
			     : "m"(ptr), "i"(KERNEL_CS), "i"(KERNEL_DS),
			       "i"(KERNEL_PERCPU)
			     : "eax", "memory");
}
