# Objects of mm/: every source file; the leak collector (memleak*.c) only
# with CONFIG_DEBUG_MEMLEAK, its built-in scenarios (leaktest*.c) only with
# CONFIG_MEMLEAK_TEST, self-tests with CONFIG_KTEST.
collector-objs := $(filter memleak%.o,$(call src-objs,mm))
collector-tests := $(filter memleak%.o,$(call test-objs,mm))
scenario-objs := $(filter leaktest%.o,$(call src-objs,mm))
scenario-tests := $(filter leaktest%.o,$(call test-objs,mm))
obj-y += $(filter-out $(collector-objs) $(scenario-objs),$(call src-objs,mm))
obj-$(CONFIG_DEBUG_MEMLEAK) += $(collector-objs)
obj-$(CONFIG_MEMLEAK_TEST) += $(scenario-objs)
obj-$(CONFIG_KTEST) += $(filter-out $(collector-tests) $(scenario-tests),\
			$(call test-objs,mm))
ifeq ($(CONFIG_DEBUG_MEMLEAK)$(CONFIG_KTEST),yy)
obj-y += $(collector-tests)
endif
ifeq ($(CONFIG_MEMLEAK_TEST)$(CONFIG_KTEST),yy)
obj-y += $(scenario-tests)
endif
