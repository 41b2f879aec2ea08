# Debug commands of mm/ (Kconfig "Kernel hacking" > DEBUG_COMMANDS):
# each only with its own option, never in the default image. mmbench's
# scan timing comes from the collector (mm/kmemleak/measure.c).
obj-$(CONFIG_DEBUG_VMTEST) += vmtest.o
obj-$(CONFIG_DEBUG_MMBENCH) += mmbench.o
