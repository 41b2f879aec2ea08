#!/bin/sh
# Where one allocation+free pair's instructions go, per function:
#   tests/bench/pair-profile.sh ARCH KERNEL [KIND [SIZE]]
# KIND and SIZE name one of mm/bench.c's measured pairs (default kmalloc
# 64), KERNEL any kernel.elf built for ARCH, e.g. the collector's bench
# variant build/ARCH-nodebug that tests/bench/memleak-qemu.sh makes. Not
# part of 'make bench': a tool for finding what to make cheaper.
set -u
cd "$(dirname "$0")/../.."
. tests/bench/lib/qemu.sh
case ${1-} in
i386|arm) ;;
*) echo "usage: $0 i386|arm KERNEL [KIND [SIZE]]" >&2; exit 2 ;;
esac
[ -f "${2-}" ] || { echo "$0: no kernel '${2-}'" >&2; exit 2; }
profile_mmbench "$1" "$2" "${3:-kmalloc}" "${4:-64}"
