# Objects of mm/: every source file; the leak collector (memleak*.c,
# leaktest*.c) only with CONFIG_DEBUG_MEMLEAK, self-tests with CONFIG_KTEST.
collector-objs := $(filter memleak%.o leaktest%.o,$(call src-objs,mm))
collector-tests := $(filter memleak%.o leaktest%.o,$(call test-objs,mm))
obj-y += $(filter-out $(collector-objs),$(call src-objs,mm))
obj-$(CONFIG_DEBUG_MEMLEAK) += $(collector-objs)
obj-$(CONFIG_KTEST) += $(filter-out $(collector-tests),$(call test-objs,mm))
ifeq ($(CONFIG_DEBUG_MEMLEAK)$(CONFIG_KTEST),yy)
obj-y += $(collector-tests)
endif
