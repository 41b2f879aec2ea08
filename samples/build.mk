# Samples: code that shows how to use a kernel interface and that the
# tests use, never part of the kernel image. Each samples/modules/NAME.c
# is the module NAME.ko, put in the boot archive with
# CONFIG_SAMPLE_MODULES (docs/modules.md).
mod-$(CONFIG_SAMPLE_MODULES) += $(patsubst samples/%.c,%.o,\
	$(wildcard samples/modules/*.c))
