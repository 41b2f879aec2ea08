# Debug commands of mm/ (Kconfig "Kernel hacking" > DEBUG_COMMANDS):
# each only with its own option, never in the default image. mmbench's
# scan timing reads the collector's figures through memleak_stats.o.
obj-$(CONFIG_DEBUG_VMTEST) += vmtest.o
obj-$(CONFIG_DEBUG_MMBENCH) += mmbench.o
ifeq ($(CONFIG_DEBUG_MMBENCH)$(CONFIG_DEBUG_MEMLEAK),yy)
obj-y += memleak_stats.o
endif
