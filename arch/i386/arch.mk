# i386 toolchain and flags. An i686-elf- cross compiler is preferred when
# one is on PATH; Debian's i686-linux-gnu- one works freestanding too.
CROSS_COMPILE ?= $(if $(shell command -v i686-elf-gcc 2>/dev/null),i686-elf-,i686-linux-gnu-)
ARCH_CFLAGS := -m32 -march=i686 -mno-sse -mno-mmx -mno-80387
ARCH_LDFLAGS := -no-pie
