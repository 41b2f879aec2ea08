# Objects of mm/: every source file; self-tests only with CONFIG_KTEST.
obj-y += $(call src-objs,mm)
obj-$(CONFIG_KTEST) += $(call test-objs,mm)
