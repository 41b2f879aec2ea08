# Objects of mm/kmemleak/, the leak collector: only with
# CONFIG_DEBUG_MEMLEAK; its self-tests also need CONFIG_KTEST.
obj-$(CONFIG_DEBUG_MEMLEAK) += $(call src-objs,mm/kmemleak)
ifeq ($(CONFIG_DEBUG_MEMLEAK)$(CONFIG_KTEST),yy)
obj-y += $(call test-objs,mm/kmemleak)
endif
