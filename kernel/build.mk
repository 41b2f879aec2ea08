# Objects of kernel/: every source file; self-tests only with CONFIG_KTEST.
obj-y += $(call src-objs,kernel)
obj-$(CONFIG_KTEST) += $(call test-objs,kernel)
