#!/bin/sh
# The leak collector's scan in QEMU on both arches, in instructions:
# 'mmbench scan N SIZE' (mm/debug/mmbench.c) scans with N more tracked blocks of
# SIZE bytes (a chain from a .bss root) and prints the scan's length and
# its longest IRQ-off window in cycle stamps (<kernel/cycles.h>), run
# under -icount at the shift where one count is one instruction
# (icount_shift in lib/qemu.sh, which says why). All scans of an arch
# run in one boot, so the differences between them are side by side:
# the cost the added blocks add over a scan with none, and that cost
# split into a part per word and a part per block (64- against
# 256-byte blocks). KERNEL_i386 / KERNEL_arm name other kernels than
# build/<arch>/kernel.elf.
set -u
cd "$(dirname "$0")/../.."
. tests/bench/lib/qemu.sh

for arch in i386 arm; do
	bench="memleak scan (qemu $arch)"
	kernel=$(icount_kernel "$arch" "$bench") || { echo "$kernel"; continue; }
	shift=$(icount_shift "$arch")
	run_icount "$arch" "$kernel" "mmbench scan 0 64;\
mmbench scan 10000 64;mmbench scan 100000 64;mmbench scan 10000 256" |
	tr -d '\r' | awk -v bench="$bench" -v shift="$shift" '
	function insns(c) { return c * 1e9 / hz / 2 ^ shift }
	function row(what, ours, ref, unit) {
		printf "row\t%s\t%s\t%s\t%s\t%s\t%s\n", bench, what, ours,
			ref == "" ? "-" : ref,
			ref == "" ? "-" : sprintf("%.4f", ours / ref), unit
	}
	/^mmbench scan: added / {
		# added N size S tracked T bytes B cycles C irqoff W hz H ...
		hz = $16; k = $4 "/" $6
		words[k] = $10 / 4	# both arches: 32-bit words
		tracked[k] = $8; cost[k] = insns($12); win[k] = insns($14)
	}
	END {
		if (!("0/64" in cost) || !("10000/64" in cost) ||
		    !("100000/64" in cost) || !("10000/256" in cost)) {
			row("mmbench scan did not finish", "-", "", "-")
			exit
		}
		for (i = 1; i <= 2; i++) {
			k = i == 1 ? "10000/64" : "100000/64"
			n = i == 1 ? 10000 : 100000
			what = sprintf("%d blocks of 64 B (%d tracked), whole scan",
				n, tracked[k])
			row(what, sprintf("%.1f", cost[k] / words[k]), "", "insns/word")
			row(what, sprintf("%.0f", cost[k] / tracked[k]), "",
				"insns/tracked block")
			row(what ": longest IRQ-off window vs whole scan",
				sprintf("%.0f", win[k]), sprintf("%.0f", cost[k]), "insns")
		}
		added = (cost["100000/64"] - cost["0/64"]) / 100000
		row("100000 added blocks of 64 B vs none", sprintf("%.0f", added),
			"", "insns/added block")
		dc = cost["10000/256"] - cost["10000/64"]
		word = dc / (words["10000/256"] - words["10000/64"])
		row("inside a block (256 B vs 64 B blocks)", sprintf("%.1f", word),
			"", "insns/word")
		row("fixed per block (64 B block less its 16 words)",
			sprintf("%.0f", (cost["10000/64"] - cost["0/64"]) / 10000 - 16 * word),
			"", "insns/block")
	}'
done
