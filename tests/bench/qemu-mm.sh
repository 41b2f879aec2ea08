#!/bin/sh
# Instructions per allocation+free pair inside QEMU, on both arches:
# boots the kernel with autorun="mmbench;poweroff" under GDB, which
# single-steps each measured pair (tests/bench/qemu-mm.py): exact counts,
# no timer needed. Two kernels per arch: the default one (SLAB_DEBUG and
# PAGE_POISON on) and one built here without them, in
# build/<arch>-nodebug. Prints benchmark rows for tests/bench/run.
set -u
cd "$(dirname "$0")/../.."

. tests/bench/lib/qemu.sh

for arch in i386 arm; do
	if [ ! -f "build/$arch/kernel.elf" ]; then
		printf 'row\tmm (qemu %s)\tkernel not built\t-\t-\t-\t-\n' "$arch"
		continue
	fi
	# Debug costs grow with the object size: a few sizes show the trend.
	run_mmbench "$arch" "build/$arch/kernel.elf" "mm (qemu $arch, debug)" 256 \
		kmalloc,kmem_cache
	if build_variant "$arch" nodebug "$NODEBUG_SLAB" "$NODEBUG_PAGE"; then
		run_mmbench "$arch" "build/$arch-nodebug/kernel.elf" "mm (qemu $arch)" \
			1048576 kmalloc,kmem_cache,pages
	else
		printf 'row\tmm (qemu %s)\tno-debug kernel did not build\t-\t-\t-\t-\n' "$arch"
	fi
done
