# Objects of mm/: every source file (but written_untracked.c where the
# arch tracks written pages itself); its built-in leak scenarios
# (leaktest*.c) only with CONFIG_MEMLEAK_TEST, self-tests with
# CONFIG_KTEST. The leak collector is mm/kmemleak/ (its own build.mk).
scenario-objs := $(filter leaktest%.o,$(call src-objs,mm))
scenario-tests := $(filter leaktest%.o,$(call test-objs,mm))
# An arch that reads dirty bits has its own written pages (<kernel/written.h>).
untracked-objs := $(if $(CONFIG_ARCH_TRACKS_WRITTEN_PAGES),written_untracked.o)
obj-y += $(filter-out $(scenario-objs) $(untracked-objs),$(call src-objs,mm))
obj-$(CONFIG_MEMLEAK_TEST) += $(scenario-objs)
obj-$(CONFIG_KTEST) += $(filter-out $(scenario-tests),$(call test-objs,mm))
ifeq ($(CONFIG_MEMLEAK_TEST)$(CONFIG_KTEST),yy)
obj-y += $(scenario-tests)
endif
