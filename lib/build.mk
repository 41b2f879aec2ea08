# Objects of lib/: every source file; self-tests only with CONFIG_KTEST.
obj-y += $(call src-objs,lib)
obj-$(CONFIG_KTEST) += $(call test-objs,lib)
