# Objects of boot/arm/: every source file; self-tests only with CONFIG_KTEST.
obj-y += $(call src-objs,boot/arm)
obj-$(CONFIG_KTEST) += $(call test-objs,boot/arm)
