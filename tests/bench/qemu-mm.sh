#!/bin/sh
# Instructions per allocation+free pair inside QEMU, on both arches:
# boots the kernel with autorun="mmbench;poweroff" under GDB, which
# single-steps each measured pair (tests/bench/qemu-mm.py): exact counts,
# no timer needed. Two kernels per arch, both built here without the
# leak collector: the default configuration otherwise (SLAB_DEBUG and
# PAGE_POISON on), in build/<arch>-nomemleak, and one without those
# either, in build/<arch>-nomemleak-nodebug. Prints benchmark rows for tests/bench/run.
set -u
cd "$(dirname "$0")/../.."

. tests/bench/lib/qemu.sh

# The allocators alone: both kernels without the leak collector (its
# cost is tests/bench/memleak-qemu.sh's).
for arch in i386 arm; do
	if build_variant "$arch" nomemleak "$NO_MEMLEAK"; then
		# Debug costs grow with the object size: a few sizes show the trend.
		run_mmbench "$arch" "build/$arch-nomemleak/kernel.elf" \
			"mm (qemu $arch, debug)" 256 kmalloc,kmem_cache
	else
		printf 'row\tmm (qemu %s, debug)\tkernel did not build\t-\t-\t-\t-\n' "$arch"
	fi
	if build_variant "$arch" nomemleak-nodebug "$NODEBUG_SLAB" "$NODEBUG_PAGE" \
		"$NO_MEMLEAK"; then
		run_mmbench "$arch" "build/$arch-nomemleak-nodebug/kernel.elf" \
			"mm (qemu $arch)" 1048576 kmalloc,kmem_cache,pages
	else
		printf 'row\tmm (qemu %s)\tno-debug kernel did not build\t-\t-\t-\t-\n' "$arch"
	fi
done
