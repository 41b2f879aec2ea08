# Objects of arch/i386/: every source file; self-tests only with CONFIG_KTEST.
obj-y += $(call src-objs,arch/i386)
obj-$(CONFIG_KTEST) += $(call test-objs,arch/i386)
