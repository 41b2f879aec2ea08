#!/bin/sh
# Where one allocation+free pair's instructions go, per function:
#   tests/bench/pair-profile.sh ARCH KERNEL [KIND [SIZE]]
# KIND and SIZE name one of mm/bench.c's measured pairs (default kmalloc
# 64), KERNEL any kernel.elf built for ARCH, e.g. the collector's bench
# variant build/ARCH-nodebug that tests/bench/memleak-qemu.sh makes. Not
# part of 'make bench': a tool for finding what to make cheaper.
set -u
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { echo "usage: $0 i386|arm KERNEL [KIND [SIZE]]" >&2; exit 2; }
common="-m 128M -display none -nodefaults -serial file:/dev/null -no-reboot -S -gdb stdio"
case $1 in
i386) qemu="qemu-system-i386 -M pc $common -device isa-debug-exit,iobase=0xf4,iosize=0x04" ;;
arm) qemu="qemu-system-arm -M virt -cpu cortex-a15 $common -semihosting-config enable=on,target=native" ;;
*) echo "$0: no arch '$1' (i386 or arm)" >&2; exit 2 ;;
esac
qemu="$qemu -kernel $2 -append 'test autorun=\"mmbench;poweroff\"'"
PROFILE_QEMU=$qemu PROFILE_KIND=${3:-kmalloc} PROFILE_SIZE=${4:-64} \
	timeout 300 gdb-multiarch -batch -nx -x tests/bench/pair-profile.py "$2" 2>/dev/null |
	sed -n 's/^profile	//p'
