# i386 toolchain and flags. An i686-elf- cross compiler is preferred when
# one is on PATH; Debian's i686-linux-gnu- one works freestanding too.
CROSS_COMPILE ?= $(if $(shell command -v i686-elf-gcc 2>/dev/null),i686-elf-,i686-linux-gnu-)
ARCH_CFLAGS := -m32 -march=i686 -mno-sse -mno-mmx -mno-80387
ARCH_LDFLAGS := -no-pie
# The i386 image is one loadable segment, code and data alike writable
# (the linear map has no W^X here); say so to binutils 2.39+ instead of
# reading its warning on every link.
ARCH_LDFLAGS += $(shell $(CROSS_COMPILE)ld --no-warn-rwx-segments --version \
	>/dev/null 2>&1 && echo -Wl,--no-warn-rwx-segments)
