/* Declarations shared between the ARM arch files only. */
#ifndef ASM_ARM_H
#define ASM_ARM_H

#include <kernel/types.h>

/* The registers as vectors.S saves them. */
struct arm_frame {
	u32 r[13];
	u32 sp;
	u32 lr;
	u32 pc;
	u32 cpsr;
};

enum arm_exception_kind {
	EXC_RESET,
	EXC_UNDEF,
	EXC_SVC,
	EXC_PREFETCH_ABORT,
	EXC_DATA_ABORT,
	EXC_IRQ,
	EXC_FIQ,
};

void arm_exception(struct arm_frame *frame, int kind);
void pl011_init(void);
void devtree_parse(const void *dtb_hint);

/* PSCI function IDs (SMC32 calling convention). */
#define PSCI_CPU_ON 0x84000003
#define PSCI_SYSTEM_OFF 0x84000008
#define PSCI_SYSTEM_RESET 0x84000009

/* Calls the PSCI firmware (QEMU, through hvc when booted with -kernel). */
int psci_call(u32 fn, u32 a1, u32 a2, u32 a3);

#endif
