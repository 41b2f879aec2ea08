# ARM (Cortex-A15, ARM state) toolchain and flags. Unaligned accesses are
# off because the kernel runs with the MMU (and so normal memory) off at
# first; -mapcs-frame gives every function the same frame record, which
# the unwinder walks.
CROSS_COMPILE ?= arm-none-eabi-
ARCH_CFLAGS := -mcpu=cortex-a15 -marm -mfloat-abi=soft -mno-unaligned-access \
	-mapcs-frame
ARCH_LDFLAGS :=
