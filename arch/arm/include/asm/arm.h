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

/* PSCI function IDs (SMC32 calling convention) and return codes. */
#define PSCI_CPU_ON 0x84000003
#define PSCI_SYSTEM_OFF 0x84000008
#define PSCI_SYSTEM_RESET 0x84000009
#define PSCI_RET_NOT_SUPPORTED (-1)

/*
 * Calls the PSCI firmware through the conduit the device tree names
 * (hvc for QEMU's -kernel boot; smc when it starts the kernel in HYP).
 */
int psci_call(u32 fn, u32 a1, u32 a2, u32 a3);
/* Reads the /psci node (devtree_parse()); without one PSCI stays hvc. */
void psci_init(const void *blob);
/* Starts the CPU with affinity mpidr at entry (physical) with r0 = context. */
int psci_cpu_on(u32 mpidr, unsigned long entry, u32 context);
/* "hvc", "smc" or "none" (no usable /psci node). */
const char *psci_method(void);

/* The /cpus nodes (devtree_parse()): each secondary becomes possible. */
void arm_smp_enumerate(const void *blob);

#endif
