# Objects of lib/: every source file (the device-tree reader only where
# there is a device tree, CONFIG_OF); self-tests only with CONFIG_KTEST.
obj-y += $(filter-out fdt.o,$(call src-objs,lib))
obj-$(CONFIG_OF) += fdt.o
obj-$(CONFIG_KTEST) += $(call test-objs,lib)
