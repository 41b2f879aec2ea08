# Builds the kernel for one architecture out of tree into build/<arch>/,
# the host library and unit tests into build/host/, and runs everything.
# 'make help' prints the lines between the two double rules below: keep every
# target there (tests/tools/make.t checks it).
# ========================================================================
#   make [ARCH=i386|arm]   kernel.elf, modules and boot archive (= all, kernel)
#   make modules           only the modules and build/<arch>/initrd.cpio
#   make run               boot in QEMU, console here: [ARCH=..] [SMP=N]
#                          [MEM=256M] [APPEND='..'] [GDB=1: GDB stub open]
#   make iso | run-iso     GRUB rescue ISO (i386) | boot it (input can be piped)
#   make gdb [PORT=N]      QEMU halted, gdb-multiarch with the kleak commands
#   make scenarios         the GDB leak scenarios of tests/gdb/ on ARCH:
#                          [SCENARIOS="name .."] [J=N side by side]
#   make test              every test (both arches, host), through prove,
#                          on the test images (test_defconfig)
#   make host-tests        the host unit tests (cmocka, ASan, UBSan)
#   make boot-tests        the QEMU tests of tests/boot/ (both arches)
#   make fuzz              build the libFuzzer targets (make test runs them)
#   make bench             benchmarks: ratios and instruction counts
#   make stress            the collector's full SMP stress (an hour or more)
#   make defconfig | olddefconfig | menuconfig    configuration of ARCH
#                          (defconfig: configs/<arch>_defconfig, the default
#                          image) | i386_defconfig | arm_defconfig (that arch)
#                          | test_defconfig (+ configs/test.config: self-tests,
#                          debug commands, samples)
#   make setup | check-tools   install the tools (all | only missing ones)
#   make clean | help
# ========================================================================
#
# Per-directory object lists live in <dir>/build.mk ("obj-y += x.o";
# modules: "mod-y += x.o", see samples/build.mk); named configurations
# in configs/.

ARCH ?= i386
SMP ?= 1
MEM ?= 128M
BUILD := build/$(ARCH)
HOST_BUILD := build/host

ifeq ($(V),1)
Q :=
else
Q := @
endif

# kconfiglib is a Debian package, so prefer Debian's python3 over any
# other python3 earlier on PATH.
KPYTHON := $(firstword $(foreach p,/usr/bin/python3 python3,\
	$(if $(shell $(p) -c 'import kconfiglib' 2>/dev/null && echo y),$(p))) python3)

.PHONY: all kernel modules iso run run-iso test host-tests boot-tests bench clean \
	defconfig i386_defconfig arm_defconfig test_defconfig olddefconfig \
	menuconfig setup check-tools help fuzz

all: kernel

# ---------------------------------------------------------------- config
# Named configurations in configs/: $(ARCH)_defconfig is the default
# image (what make run boots, and what a new $(BUILD) starts from);
# test.config, merged over it by test_defconfig, adds the self-tests,
# debug commands and samples the tests use. make test, boot-tests,
# bench and stress run test_defconfig first (it rewrites .config only
# when it changes, so nothing is rebuilt for nothing).
CONFIG := $(BUILD)/.config
AUTOCONF := $(BUILD)/include/generated/autoconf.h
KCONFIG_FILES := Kconfig $(wildcard */Kconfig */*/Kconfig)
TEST_CONFIG := configs/test.config

export ARCH

$(CONFIG): $(KCONFIG_FILES)
	$(Q)if [ -f $@ ]; then $(KPYTHON) tools/kconfig.py olddefconfig $(BUILD); \
	else $(KPYTHON) tools/kconfig.py defconfig $(BUILD); fi
	$(Q)touch $@

$(AUTOCONF): $(CONFIG)
	$(Q)$(KPYTHON) tools/kconfig.py genconfig $(BUILD)

defconfig:
	$(Q)rm -f $(CONFIG)
	$(Q)$(KPYTHON) tools/kconfig.py defconfig $(BUILD)
	$(Q)$(KPYTHON) tools/kconfig.py genconfig $(BUILD)

# The same for one arch, whatever ARCH says (its own build/<arch>/).
i386_defconfig:
	$(Q)$(MAKE) --no-print-directory ARCH=i386 defconfig

arm_defconfig:
	$(Q)$(MAKE) --no-print-directory ARCH=arm defconfig

test_defconfig:
	$(Q)$(KPYTHON) tools/kconfig.py defconfig $(BUILD) $(TEST_CONFIG)
	$(Q)$(KPYTHON) tools/kconfig.py genconfig $(BUILD)

olddefconfig:
	$(Q)$(KPYTHON) tools/kconfig.py olddefconfig $(BUILD)
	$(Q)$(KPYTHON) tools/kconfig.py genconfig $(BUILD)

menuconfig:
	$(Q)$(KPYTHON) tools/kconfig.py menuconfig $(BUILD)
	$(Q)$(KPYTHON) tools/kconfig.py genconfig $(BUILD)

ifeq ($(filter %defconfig menuconfig clean setup help,$(MAKECMDGOALS)),)
-include $(CONFIG)
endif

# ---------------------------------------------------------------- kernel
include arch/$(ARCH)/arch.mk

CC := $(CROSS_COMPILE)gcc
OBJCOPY := $(CROSS_COMPILE)objcopy
NM := $(CROSS_COMPILE)nm

KCFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding -fno-strict-aliasing \
	-nostdinc -isystem $(shell $(CC) -print-file-name=include) \
	-fno-pie -fno-stack-protector -fno-omit-frame-pointer \
	-fno-optimize-sibling-calls -fno-common -MMD -MP \
	-Iinclude -Iarch/$(ARCH)/include -I$(BUILD)/include \
	-include $(AUTOCONF) $(ARCH_CFLAGS)
KASFLAGS := $(KCFLAGS) -D__ASSEMBLY__
KLDFLAGS := -nostdlib -nostartfiles -Wl,--build-id=none \
	-Wl,-T,linker/$(ARCH).ld $(ARCH_LDFLAGS)

# Every source of directory $(1) as objects relative to it: the .S and
# .c files except the self-tests (*_test.c), which test-objs lists.
src-objs = $(patsubst $(1)/%,%,$(patsubst %.c,%.o,$(filter-out \
	%_test.c,$(wildcard $(1)/*.c))) $(patsubst %.S,%.o,$(wildcard $(1)/*.S)))
test-objs = $(patsubst $(1)/%.c,%.o,$(wildcard $(1)/*_test.c))

# A directory's build.mk lists kernel objects in obj-y and modules in
# mod-y (samples/build.mk): each mod-y NAME.o is built from NAME.c into
# the module NAME.ko (see "modules" below).
KOBJS :=
MOD_SRCS :=
KDIRS := boot/$(ARCH) arch/$(ARCH) kernel kernel/debug mm mm/debug \
	mm/kmemleak lib samples

define add_dir
obj-y :=
mod-y :=
include $(1)/build.mk
KOBJS += $$(addprefix $(BUILD)/$(1)/,$$(obj-y))
MOD_SRCS += $$(addprefix $(1)/,$$(mod-y:.o=.c))
endef
$(foreach d,$(KDIRS),$(eval $(call add_dir,$(d))))

KERNEL := $(BUILD)/kernel.elf

kernel: check-tools $(KERNEL)

# The kernel links in passes so that it can carry its own symbol table
# (kallsyms, docs/backtraces.md): first with an empty table, then with
# the table of the previous image, until the table stops changing;
# tools/kallsyms.py fails the build unless the final image holds exactly
# the table of its own symbols. {table}, {src} and {out} are its paths.
KALLSYMS_DIR := $(BUILD)/kallsyms
KALLSYMS_AS = $(CC) $(filter-out -MMD -MP,$(KASFLAGS)) -c {src} -o {out}
KALLSYMS_LD = $(CC) $(KCFLAGS) $(KLDFLAGS) -o {out} $(KOBJS) {table} -lgcc

# $(AUTOCONF), $(BUILD_MKS): a changed configuration or object list may
# drop objects from the link.
BUILD_MKS := $(addsuffix /build.mk,$(KDIRS))
$(KERNEL): $(KOBJS) $(AUTOCONF) $(BUILD_MKS) linker/$(ARCH).ld \
		linker/sections.ld tools/kallsyms.py
	@echo "  LD      $@"
	$(Q)$(KPYTHON) tools/kallsyms.py link --nm '$(NM)' --dir $(KALLSYMS_DIR) \
		--assemble '$(KALLSYMS_AS)' --link '$(KALLSYMS_LD)' --out $@

$(BUILD)/%.o: %.c $(AUTOCONF)
	@echo "  CC      $@"
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

$(BUILD)/%.o: %.S $(AUTOCONF)
	@echo "  AS      $@"
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(KASFLAGS) -c $< -o $@

-include $(KOBJS:.o=.d)

# ---------------------------------------------------------------- modules
# Each source in a directory's mod-y (samples/modules/NAME.c with
# CONFIG_SAMPLE_MODULES) is the module NAME.ko (docs/modules.md):
# compiled with -DMODULE, linked with -r into $(BUILD)/modules/, and all
# of them packed into the boot archive $(INITRD), a newc cpio that
# tools/run and the ISO pass to the kernel (empty without modules).
LD := $(CROSS_COMPILE)ld
mod-name = $(basename $(notdir $(1)))
MODULES := $(foreach s,$(MOD_SRCS),$(BUILD)/modules/$(call mod-name,$(s)).ko)
MOD_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(MOD_SRCS))
INITRD := $(BUILD)/initrd.cpio

$(MOD_OBJS): $(BUILD)/%.o: %.c $(AUTOCONF)
	@echo "  CC [M]  $@"
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(KCFLAGS) -DMODULE -DKBUILD_MODNAME='"$(notdir $*)"' -c $< -o $@

define module_rule
$(BUILD)/modules/$(call mod-name,$(1)).ko: $(BUILD)/$(1:.c=.o)
	@echo "  LD [M]  $$@"
	@mkdir -p $$(dir $$@)
	$(Q)$(LD) -r -o $$@ $$<
endef
$(foreach s,$(MOD_SRCS),$(eval $(call module_rule,$(s))))

# $(AUTOCONF), $(BUILD_MKS): as for the kernel, modules may be dropped.
$(INITRD): $(MODULES) $(AUTOCONF) $(BUILD_MKS) tools/mkcpio
	@echo "  CPIO    $@"
	$(Q)$(KPYTHON) tools/mkcpio -o $@ --dir modules $(MODULES)

modules: check-tools $(MODULES) $(INITRD)
kernel: $(INITRD)

-include $(patsubst %.c,$(BUILD)/%.d,$(MOD_SRCS))

# ---------------------------------------------------------------- iso
ISO := $(BUILD)/kernel.iso

iso: check-tools $(ISO)

$(ISO): $(KERNEL) $(INITRD) boot/grub/grub.cfg
	@echo "  ISO     $@"
	$(Q)rm -rf $(BUILD)/iso && mkdir -p $(BUILD)/iso/boot/grub
	$(Q)cp $(KERNEL) $(BUILD)/iso/boot/kernel.elf
	$(Q)cp $(INITRD) $(BUILD)/iso/boot/initrd.cpio
	$(Q)cp boot/grub/grub.cfg $(BUILD)/iso/boot/grub/grub.cfg
	$(Q)grub-mkrescue -o $@ $(BUILD)/iso >$(BUILD)/iso.log 2>&1 || \
		{ cat $(BUILD)/iso.log; exit 1; }

# ---------------------------------------------------------------- run
run: kernel
	$(Q)tools/run --arch $(ARCH) --smp $(SMP) --mem $(MEM) \
		$(if $(GDB),--gdb) $(if $(APPEND),--append '$(APPEND)') $(KERNEL)

run-iso: iso
	$(Q)tools/run --arch $(ARCH) --smp $(SMP) --mem $(MEM) --iso $(ISO)

# ---------------------------------------------------------------- host
# lib/ and mm/ (and the bits of kernel/ that do not touch hardware) built
# for the host with ASan/UBSan, for unit tests, fuzzing and benchmarks.
HOST_CC ?= gcc
HOST_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -fno-strict-aliasing \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -fno-builtin -U_FORTIFY_SOURCE \
	-D_FORTIFY_SOURCE=0 -DHOST_BUILD -MMD -MP \
	-Iinclude -Iarch/host/include -include arch/host/include/asm/host-names.h
HOST_LDFLAGS := -fsanitize=address,undefined

include tests/host/build.mk

HOST_LIB_OBJS := $(patsubst %.c,$(HOST_BUILD)/%.o,$(HOST_LIB_SRCS))
HOST_TESTS := $(patsubst tests/host/%.c,$(HOST_BUILD)/tests/%,$(HOST_TEST_SRCS))
HOST_TEST_OBJS := $(patsubst tests/host/%.c,$(HOST_BUILD)/tests/host/%.o,\
	$(HOST_TEST_SRCS))

$(HOST_BUILD)/libkhost.a: $(HOST_LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(HOST_BUILD)/%.o: %.c
	@echo "  HOSTCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -c $< -o $@

$(HOST_BUILD)/tests/libc_ref.o: tests/host/libc_ref.c
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) -std=gnu11 -g -O1 -Wall -Wextra -Werror -c $< -o $@

$(HOST_BUILD)/tests/%: $(HOST_BUILD)/tests/host/%.o $(HOST_BUILD)/libkhost.a \
		$(HOST_BUILD)/tests/libc_ref.o
	@echo "  HOSTLD  $@"
	$(Q)$(HOST_CC) $(HOST_LDFLAGS) -o $@ $< $(HOST_BUILD)/tests/libc_ref.o \
		$(HOST_BUILD)/libkhost.a -lcmocka

# The tests' own objects depend on headers too (test_memleak.h, the
# collector's internal.h): kept, not deleted as intermediates, and their
# .d files read, so that a header's change rebuilds them.
.SECONDARY: $(HOST_TEST_OBJS)
-include $(HOST_LIB_OBJS:.o=.d) $(HOST_TEST_OBJS:.o=.d)

host-tests: check-tools $(HOST_TESTS)

# ---------------------------------------------------------------- fuzz
# libFuzzer targets over the parsers of untrusted input, built with clang
# and ASan/UBSan; tests/fuzz/fuzz.t runs each for a few seconds under make
# test. Each target is tests/fuzz/fuzz_NAME.c plus the sources that its
# own tests/fuzz/fuzz_NAME.mk names in FUZZ_SRCS_fuzz_NAME (lib/string.c
# always), so that a new target touches no shared file.
FUZZ_BUILD := build/fuzz
FUZZ_CC ?= clang
FUZZ_CFLAGS := $(filter-out -MMD -MP,$(HOST_CFLAGS)) -fsanitize=fuzzer-no-link
FUZZ_NAMES := $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(addprefix $(FUZZ_BUILD)/,$(FUZZ_NAMES))
FUZZ_TESTS := $(wildcard tests/fuzz/*.t)
include $(wildcard tests/fuzz/fuzz_*.mk)
fuzz_objs = $(patsubst %.c,$(FUZZ_BUILD)/%.o,\
	tests/fuzz/$(1).c lib/string.c $(FUZZ_SRCS_$(1)))

$(FUZZ_BUILD)/%.o: %.c $(wildcard include/kernel/*.h)
	@echo "  FUZZCC  $@"
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

$(foreach t,$(FUZZ_NAMES),$(eval $(FUZZ_BUILD)/$(t): $(call fuzz_objs,$(t))))
$(FUZZ_BINS):
	@echo "  FUZZLD  $@"
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^

.SECONDARY: $(sort $(foreach t,$(FUZZ_NAMES),$(call fuzz_objs,$(t))))

.PHONY: fuzz
fuzz: check-tools $(FUZZ_BINS)

# ---------------------------------------------------------------- bench
# The same host library built for speed (no sanitizers), and one binary
# per tests/bench/*.c; tests/bench/run prints the table. Functions start
# on a cache line, so that a change in one file does not move another
# file's loops across line boundaries: two builds compared side by side
# then differ in the change alone (unaligned, the marking's and the
# confirmation's loops moved by 48 bytes took 6-10% more time).
BENCH_BUILD := build/host-bench
BENCH_CFLAGS := -std=gnu11 -O2 -g -falign-functions=64 -Wall -Wextra -Werror -fno-builtin -fno-strict-aliasing \
	-fno-omit-frame-pointer -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=0 \
	-DHOST_BUILD -DHOST_BENCH -MMD -MP -Iinclude -Iarch/host/include \
	-include arch/host/include/asm/host-names.h
BENCH_LIB_OBJS := $(patsubst %.c,$(BENCH_BUILD)/%.o,$(HOST_LIB_SRCS))
BENCH_SRCS := $(wildcard tests/bench/*.c)
BENCH_BINS := $(patsubst tests/bench/%.c,$(BENCH_BUILD)/bench/%,$(BENCH_SRCS))

$(BENCH_BUILD)/%.o: %.c
	@echo "  BENCHCC $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(BENCH_CFLAGS) -c $< -o $@

$(BENCH_BUILD)/libkhost.a: $(BENCH_LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BENCH_BUILD)/bench/%: $(BENCH_BUILD)/tests/bench/%.o $(BENCH_BUILD)/libkhost.a
	@echo "  BENCHLD $@"
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(BENCH_LDFLAGS) -o $@ $< $(BENCH_BUILD)/libkhost.a

# The programs' own objects depend on headers too (ours.c reads the
# collector's internal.h: a stale object would read the wrong fields).
-include $(BENCH_LIB_OBJS:.o=.d) $(BENCH_BUILD)/tests/bench/peers/ours.d \
	$(patsubst %.c,$(BENCH_BUILD)/%.d,$(BENCH_SRCS))

# The leak checks tests/bench/memleak-peers.sh compares, each its own
# program on the graph of tests/bench/peers/graph.h: ours (the collector
# built for the host), Boehm GC, LeakSanitizer, Valgrind, a plain read
# of the same memory, and the floor of any tracing mark on it.
PEERS := $(BENCH_BUILD)/peers
PEER_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror
PEER_DEPS := tests/bench/peers/graph.h
PEER_BINS := $(addprefix $(PEERS)/,ours plain floor)
# Built when their tool is installed (tools/setup installs them all);
# memleak-peers.sh prints a "skipped" row for the others.
PEER_TOOLS := boehm lsan valgrind

$(PEERS)/ours: $(BENCH_BUILD)/tests/bench/peers/ours.o $(BENCH_BUILD)/libkhost.a
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(call host_memleak_ldflags,$(BENCH_BUILD)) -o $@ $< \
		$(BENCH_BUILD)/libkhost.a
$(PEERS)/boehm: tests/bench/peers/boehm.c $(PEER_DEPS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(PEER_CFLAGS) $< -lgc -o $@
$(PEERS)/lsan: tests/bench/peers/malloc.c $(PEER_DEPS)
	@mkdir -p $(dir $@)
	$(Q)clang $(PEER_CFLAGS) -fsanitize=leak -DPEER_LSAN $< -o $@
$(PEERS)/valgrind: tests/bench/peers/malloc.c $(PEER_DEPS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(PEER_CFLAGS) -DPEER_VALGRIND $< -o $@
$(PEERS)/plain: tests/bench/peers/malloc.c $(PEER_DEPS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(PEER_CFLAGS) $< -o $@
$(PEERS)/floor: tests/bench/peers/malloc.c $(PEER_DEPS)
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(PEER_CFLAGS) -DPEER_FLOOR $< -o $@

bench: check-tools
	$(Q)$(MAKE) --no-print-directory ARCH=i386 test_defconfig
	$(Q)$(MAKE) --no-print-directory ARCH=i386 kernel
	$(Q)$(MAKE) --no-print-directory ARCH=arm test_defconfig
	$(Q)$(MAKE) --no-print-directory ARCH=arm kernel
	$(Q)$(MAKE) --no-print-directory $(BENCH_BINS) $(PEER_BINS)
	$(Q)for p in $(PEER_TOOLS); do \
		$(MAKE) --no-print-directory -s $(PEERS)/$$p >/dev/null 2>&1 || \
			echo "  SKIP    $$p: its tool is not installed (tools/setup)"; \
	done
	$(Q)tests/bench/run

# ---------------------------------------------------------------- gdb
# make gdb: QEMU halted, its GDB stub on a free port, and gdb-multiarch
# attached through $(BUILD)/.gdbinit (from tools/gdb/gdbinit.in) with the
# kleak commands (docs/gdb.md); make gdb PORT=N attaches to the stub of a
# running 'make run GDB=1' instead. make scenarios: the leak scenarios of
# tests/gdb/ against $(KERNEL) (SCENARIOS="name ..." picks some, J=N runs
# N side by side).
.PHONY: gdb scenarios

gdb: kernel
	$(Q)tools/gdb/session --arch $(ARCH) --smp $(SMP) --mem $(MEM) \
		$(if $(PORT),--port $(PORT)) $(if $(APPEND),--append '$(APPEND)') \
		$(KERNEL)

scenarios: kernel
	$(Q)tests/gdb/run --arch $(ARCH) --kernel $(KERNEL) $(if $(J),-j $(J)) \
		$(SCENARIOS)

# ---------------------------------------------------------------- tests
BOOT_TESTS := $(sort $(wildcard tests/boot/*.t))
# Guests of 4 CPUs whose self-tests measure time (sleeps, ticks,
# switches): run alone after the others, so that another QEMU does not
# starve their vCPUs on a small machine (TCG runs each vCPU as a thread).
SERIAL_TESTS := tests/boot/smp.t tests/boot/memleak_smp.t
# Checks of the tree itself: the Makefile's help, the README.
TOOL_TESTS := $(sort $(wildcard tests/tools/*.t))

# Both kernels (test images, configs/test.config), the ISO and the host
# tests first, then one prove run. --comments: a failing subtest's
# diagnostics (the end of its console, tests/lib/kqemu.py) show in the
# log, so that a failure seen once on CI can be read afterwards. Each
# test file runs under a timeout, so that one that hangs (a host test
# looping on a broken index) fails instead of holding CI to its limit:
# the slowest take about 90 s here. tools/test-log keeps each file's
# output in build/test-logs/; when a run fails, tools/test-failures
# prints its failures again, with their diagnostics, at the very end,
# where a CI log cut to its tail still shows them.
TEST_TIMEOUT := 900
TEST_LOGS := build/test-logs
PROVE := prove --exec 'tools/test-log $(TEST_LOGS) $(TEST_TIMEOUT)' \
	--timer --comments
PROVE_FAILED := { tools/test-failures $(TEST_LOGS); exit 1; }
test: check-tools
	$(Q)$(MAKE) --no-print-directory ARCH=i386 test_defconfig
	$(Q)$(MAKE) --no-print-directory ARCH=i386 kernel iso
	$(Q)$(MAKE) --no-print-directory ARCH=arm test_defconfig
	$(Q)$(MAKE) --no-print-directory ARCH=arm kernel
	$(Q)$(MAKE) --no-print-directory host-tests fuzz
	$(Q)rm -rf $(TEST_LOGS)
	$(Q)CMOCKA_MESSAGE_OUTPUT=TAP $(PROVE) -j2 \
		$(HOST_TESTS) $(FUZZ_TESTS) \
		$(filter-out $(SERIAL_TESTS),$(BOOT_TESTS)) $(TOOL_TESTS) \
		|| $(PROVE_FAILED)
	$(Q)$(PROVE) $(SERIAL_TESTS) || $(PROVE_FAILED)

# The QEMU tests alone (tests/boot/), on both kernels and the ISO.
boot-tests: check-tools
	$(Q)$(MAKE) --no-print-directory ARCH=i386 test_defconfig
	$(Q)$(MAKE) --no-print-directory ARCH=i386 kernel iso
	$(Q)$(MAKE) --no-print-directory ARCH=arm test_defconfig
	$(Q)$(MAKE) --no-print-directory ARCH=arm kernel
	$(Q)rm -rf $(TEST_LOGS)
	$(Q)$(PROVE) -j2 $(filter-out $(SERIAL_TESTS),$(BOOT_TESTS)) \
		$(TOOL_TESTS) || $(PROVE_FAILED)
	$(Q)$(PROVE) $(SERIAL_TESTS) || $(PROVE_FAILED)

# The collector's SMP stress at full size: 1,000,000 operations racing
# background scans, on 2 and 4 CPUs of both arches (tests/boot/
# memleak_smp.t; make test runs it with 4000). Slow: an hour or more.
STRESS_OPS ?= 1000000
.PHONY: stress
stress: check-tools
	$(Q)$(MAKE) --no-print-directory ARCH=i386 test_defconfig
	$(Q)$(MAKE) --no-print-directory ARCH=i386 kernel
	$(Q)$(MAKE) --no-print-directory ARCH=arm test_defconfig
	$(Q)$(MAKE) --no-print-directory ARCH=arm kernel
	$(Q)STRESS_OPS=$(STRESS_OPS) STRESS_ONLY=1 prove --exec '' -v \
		tests/boot/memleak_smp.t

# ---------------------------------------------------------------- setup
# Installs missing tools when one of them is not found.
check-tools:
	$(Q)tools/setup --if-missing

setup:
	$(Q)tools/setup

clean:
	rm -rf build

help:
	@awk '/^# =+$$/ { n++; next } n == 1 { sub(/^# ?/, ""); print }' Makefile
