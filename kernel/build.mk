# Objects of kernel/: every source file (module_memleak.c only with the
# collector); the self-tests and their runner
# (ktest.c, the 'selftest' command) only with CONFIG_KTEST. Its debug
# commands are kernel/debug/ (their own build.mk).
obj-y += $(filter-out ktest.o module_memleak.o,$(call src-objs,kernel))
obj-$(CONFIG_DEBUG_MEMLEAK) += module_memleak.o
obj-$(CONFIG_KTEST) += ktest.o $(call test-objs,kernel)
