# Shared by the in-QEMU benchmarks (sourced, not run): kernel variants
# and one measured boot under GDB (tests/bench/qemu-mm.py single-steps
# every measured pair, so the counts are exact instructions).

# build_variant ARCH NAME SED_EXPRESSIONS...: build/ARCH-NAME, the test
# image's configuration (test_defconfig: mmbench is a debug command)
# edited by the sed expressions (made anew each time, so that a changed
# default reaches the variant too).
build_variant() {
	arch=$1 dir=build/$1-$2
	shift 2
	{
		make -s --no-print-directory ARCH="$arch" BUILD="$dir" test_defconfig &&
		for expr in "$@"; do sed -i -e "$expr" "$dir/.config"; done &&
		make -s --no-print-directory ARCH="$arch" BUILD="$dir" olddefconfig
	} >/dev/null 2>&1
	make -s --no-print-directory ARCH="$arch" BUILD="$dir" kernel >/dev/null 2>&1
}

NODEBUG_SLAB='s/^CONFIG_SLAB_DEBUG=y/# CONFIG_SLAB_DEBUG is not set/'
NODEBUG_PAGE='s/^CONFIG_PAGE_POISON=y/# CONFIG_PAGE_POISON is not set/'
NO_MEMLEAK='s/^CONFIG_DEBUG_MEMLEAK=y/# CONFIG_DEBUG_MEMLEAK is not set/'

# mmbench_qemu ARCH KERNEL LOG: the QEMU command line that boots KERNEL
# into autorun="mmbench;poweroff", stopped for GDB on stdio, its console
# in the file LOG.
mmbench_qemu() {
	common="-m 128M -display none -nodefaults -serial file:$3 -no-reboot -S -gdb stdio"
	case $1 in
	i386) printf '%s' "qemu-system-i386 -M pc $common -device isa-debug-exit,iobase=0xf4,iosize=0x04" ;;
	arm) printf '%s' "qemu-system-arm -M virt -cpu cortex-a15 $common -semihosting-config enable=on,target=native" ;;
	esac
	printf '%s' " -kernel $2 -append 'test autorun=\"mmbench;poweroff\"'"
}

# run_mmbench ARCH KERNEL LABEL MAX_SIZE KINDS: prints benchmark rows.
run_mmbench() {
	log=$(mktemp)
	MMBENCH_LABEL=$3 MMBENCH_MAX_SIZE=$4 MMBENCH_KINDS=$5 \
	MMBENCH_QEMU=$(mmbench_qemu "$1" "$2" "$log") timeout 300 \
		gdb-multiarch -batch -nx -x tests/bench/qemu-mm.py "$2" 2>/dev/null |
		grep '^row'
	grep -q "pairs measured" "$log" ||
		printf 'row\t%s\tmmbench did not finish\t-\t-\t-\t-\n' "$3"
	rm -f "$log"
}

# profile_mmbench ARCH KERNEL KIND SIZE: instructions per function of the
# measured pair of that kind and size, most first.
profile_mmbench() {
	log=$(mktemp)
	MMBENCH_PROFILE="$3 $4" MMBENCH_LABEL=profile \
	MMBENCH_QEMU=$(mmbench_qemu "$1" "$2" "$log") timeout 300 \
		gdb-multiarch -batch -nx -x tests/bench/qemu-mm.py "$2" 2>/dev/null |
		sed -n 's/^profile\t//p'
	rm -f "$log"
}

# icount_shift ARCH: the -icount shift at which one count of ARCH's
# cycle stamps (<kernel/cycles.h>) is one instruction. Under -icount
# shift=S every instruction advances virtual time by 2^S ns, and the TSC
# (1 GHz) and the ARM generic timer (62.5 MHz) follow virtual time, so
# instructions = counts * 10^9 / hz / 2^S.
icount_shift() {
	case $1 in i386) echo 0 ;; arm) echo 4 ;; esac
}

# icount_kernel ARCH BENCH: the kernel an -icount bench of ARCH runs
# (KERNEL_<arch>, else build/<arch>/kernel.elf); when it is not built,
# a row saying so for BENCH, and false.
icount_kernel() {
	eval "k=\${KERNEL_$1:-build/$1/kernel.elf}"
	if [ ! -f "$k" ]; then
		printf 'row\t%s\tkernel not built\t-\t-\t-\t-\n' "$2"
		return 1
	fi
	echo "$k"
}

# run_icount ARCH KERNEL COMMANDS: boots KERNEL with
# autorun="COMMANDS;poweroff" under -icount at ARCH's icount_shift and
# prints its console output.
run_icount() {
	log=$(mktemp)
	common="-m 128M -display none -nodefaults -serial file:$log -no-reboot -icount shift=$(icount_shift "$1")"
	case $1 in
	i386) qemu="qemu-system-i386 -M pc $common -device isa-debug-exit,iobase=0xf4,iosize=0x04" ;;
	arm) qemu="qemu-system-arm -M virt -cpu cortex-a15 $common -semihosting-config enable=on,target=native" ;;
	esac
	eval "timeout 300 $qemu -kernel $2 -append 'test autorun=\"$3;poweroff\"'" \
		>/dev/null 2>&1
	cat "$log"
	rm -f "$log"
}
