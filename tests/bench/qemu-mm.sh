#!/bin/sh
# Instructions per allocation+free pair inside QEMU, on both arches:
# boots the kernel with autorun="mmbench;poweroff" under GDB, which
# single-steps each measured pair (tests/bench/qemu-mm.py). Exact counts,
# no timer needed. Prints benchmark rows for tests/bench/run.
set -u
cd "$(dirname "$0")/../.."

for arch in i386 arm; do
	kernel=build/$arch/kernel.elf
	if [ ! -f "$kernel" ]; then
		printf 'row\tmm (qemu %s)\tkernel not built\t-\t-\t-\t-\n' "$arch"
		continue
	fi
	log=$(mktemp)
	common="-m 128M -display none -nodefaults -serial file:$log -no-reboot -S -gdb stdio"
	case $arch in
	i386) qemu="qemu-system-i386 -M pc $common -device isa-debug-exit,iobase=0xf4,iosize=0x04" ;;
	arm) qemu="qemu-system-arm -M virt -cpu cortex-a15 $common -semihosting-config enable=on,target=native" ;;
	esac
	qemu="$qemu -kernel $kernel -append 'test autorun=\"mmbench;poweroff\"'"
	MMBENCH_ARCH=$arch MMBENCH_QEMU=$qemu timeout 300 gdb-multiarch -batch -nx \
		-x tests/bench/qemu-mm.py "$kernel" 2>/dev/null | grep '^row'
	if ! grep -q "pairs measured" "$log"; then
		printf 'row\tmm (qemu %s)\tmmbench did not run (see serial log)\t-\t-\t-\t-\n' "$arch"
	fi
	rm -f "$log"
done
