# Objects of arch/arm/: every source file; self-tests only with CONFIG_KTEST.
obj-y += $(call src-objs,arch/arm)
obj-$(CONFIG_KTEST) += $(call test-objs,arch/arm)
