#!/bin/sh
# Instructions per allocation+free pair inside QEMU, on both arches:
# boots the kernel with autorun="mmbench;poweroff" under GDB, which
# single-steps each measured pair (tests/bench/qemu-mm.py): exact counts,
# no timer needed. Two kernels per arch: the default one (SLAB_DEBUG and
# PAGE_POISON on) and one built here without them, in
# build/<arch>-nodebug. Prints benchmark rows for tests/bench/run.
set -u
cd "$(dirname "$0")/../.."

# Builds build/$1-nodebug: the default configuration less the debugging.
build_nodebug() {
	dir=build/$1-nodebug
	if [ ! -f "$dir/.config" ]; then
		make -s --no-print-directory ARCH="$1" BUILD="$dir" defconfig &&
		sed -i -e 's/^CONFIG_SLAB_DEBUG=y/# CONFIG_SLAB_DEBUG is not set/' \
			-e 's/^CONFIG_PAGE_POISON=y/# CONFIG_PAGE_POISON is not set/' \
			"$dir/.config" &&
		make -s --no-print-directory ARCH="$1" BUILD="$dir" olddefconfig
	fi >/dev/null 2>&1
	make -s --no-print-directory ARCH="$1" BUILD="$dir" kernel >/dev/null 2>&1
}

# run ARCH KERNEL LABEL MAX_SIZE KINDS
run() {
	log=$(mktemp)
	common="-m 128M -display none -nodefaults -serial file:$log -no-reboot -S -gdb stdio"
	case $1 in
	i386) qemu="qemu-system-i386 -M pc $common -device isa-debug-exit,iobase=0xf4,iosize=0x04" ;;
	arm) qemu="qemu-system-arm -M virt -cpu cortex-a15 $common -semihosting-config enable=on,target=native" ;;
	esac
	qemu="$qemu -kernel $2 -append 'test autorun=\"mmbench;poweroff\"'"
	MMBENCH_LABEL=$3 MMBENCH_MAX_SIZE=$4 MMBENCH_KINDS=$5 MMBENCH_QEMU=$qemu timeout 300 \
		gdb-multiarch -batch -nx -x tests/bench/qemu-mm.py "$2" 2>/dev/null |
		grep '^row'
	grep -q "pairs measured" "$log" ||
		printf 'row\t%s\tmmbench did not finish\t-\t-\t-\t-\n' "$3"
	rm -f "$log"
}

for arch in i386 arm; do
	if [ ! -f "build/$arch/kernel.elf" ]; then
		printf 'row\tmm (qemu %s)\tkernel not built\t-\t-\t-\t-\n' "$arch"
		continue
	fi
	# Debug costs grow with the object size: a few sizes show the trend.
	run "$arch" "build/$arch/kernel.elf" "mm (qemu $arch, debug)" 256 \
		kmalloc,kmem_cache
	if build_nodebug "$arch"; then
		run "$arch" "build/$arch-nodebug/kernel.elf" "mm (qemu $arch)" \
			1048576 kmalloc,kmem_cache,pages
	else
		printf 'row\tmm (qemu %s)\tno-debug kernel did not build\t-\t-\t-\t-\n' "$arch"
	fi
done
