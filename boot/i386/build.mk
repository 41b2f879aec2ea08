# Objects of boot/i386/: every source file; self-tests only with CONFIG_KTEST.
obj-y += $(call src-objs,boot/i386)
obj-$(CONFIG_KTEST) += $(call test-objs,boot/i386)
