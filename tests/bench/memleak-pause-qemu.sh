#!/bin/sh
# The pause of the leak collector's last step in QEMU on both arches, in
# instructions: 'mmbench scan N 64 LEAKS' (mm/debug/mmbench.c) scans with N more
# reachable blocks and LEAKS leaked ones, which the scan confirms with
# every other CPU stopped (mm/kmemleak/scan.c, confirm_white_blocks()).
# Each row gives the pause against the whole scan of the same heap: the
# pause should grow with the memory read (N), barely with the number of
# suspects (LEAKS), and be none without them; the longest window with
# interrupts off should not grow with either. On i386 the pause reads
# only the pages written since the mark began (docs/memleak.md, "Written
# pages"), so there its instructions per byte read are mostly the walk
# of the index, not reading. Counted as in
# memleak-scan-qemu.sh (-icount, one count one instruction), one CPU, so
# the parking itself is not in the figure.
set -u
cd "$(dirname "$0")/../.."
. tests/bench/lib/qemu.sh

for arch in i386 arm; do
	bench="memleak pause (qemu $arch)"
	kernel=$(icount_kernel "$arch" "$bench") || { echo "$kernel"; continue; }
	shift=$(icount_shift "$arch")
	run_icount "$arch" "$kernel" "mmbench scan 10000 64 0;\
mmbench scan 10000 64 10;mmbench scan 10000 64 100;\
mmbench scan 10000 64 1000;mmbench scan 10000 64 10000;\
mmbench scan 100000 64 10" |
	tr -d '\r' | awk -v bench="$bench" -v shift="$shift" '
	function insns(c) { return c * 1e9 / hz / 2 ^ shift }
	/^mmbench scan: added / {
		# ... cycles C irqoff W hz H suspects S leaks L pause P pausebytes B
		hz = $16; n++
		printf "row\t%s\t%d blocks of 64 B + %d leaked: pause vs whole scan\t%.0f\t%.0f\t%.4f\tinsns\n",
			bench, $4, $20, insns($22), insns($12),
			insns($12) ? insns($22) / insns($12) : 0
		if ($24 > 0)
			printf "row\t%s\t%d blocks of 64 B + %d leaked: pause per byte read\t%.2f\t-\t-\tinsns/byte\n",
				bench, $4, $20, insns($22) / $24
		# Every window of the scan, the classification of suspects
		# included: it should not grow with the leaks either.
		printf "row\t%s\t%d blocks of 64 B + %d leaked: longest IRQ-off window\t%.0f\t-\t-\tinsns\n",
			bench, $4, $20, insns($14)
	}
	END {
		if (n != 6)
			printf "row\t%s\tmmbench scan did not finish (%d of 6)\t-\t-\t-\t-\n", bench, n
	}'
done
