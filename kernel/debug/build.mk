# Debug commands of kernel/ (Kconfig "Kernel hacking" > DEBUG_COMMANDS):
# each only with its own option, never in the default image.
obj-$(CONFIG_DEBUG_CRASH) += crash.o
