#!/bin/sh
# The collector's cost on the allocation path, in QEMU on both arches:
# instructions per kmalloc+kfree pair with the collector compiled in and
# without it, both kernels without the allocator's debug checks.
set -u
cd "$(dirname "$0")/../.."
. tests/bench/lib/qemu.sh

for arch in i386 arm; do
	on=$(mktemp) off=$(mktemp)
	build_variant "$arch" nodebug "$NODEBUG_SLAB" "$NODEBUG_PAGE" &&
	build_variant "$arch" nomemleak-nodebug "$NODEBUG_SLAB" "$NODEBUG_PAGE" \
		"$NO_MEMLEAK" || {
		printf 'row\tmemleak (qemu %s)\tkernels did not build\t-\t-\t-\t-\n' "$arch"
		continue
	}
	run_mmbench "$arch" "build/$arch-nodebug/kernel.elf" on 256 kmalloc,kmalloc-newctx,kmalloc-long >"$on"
	run_mmbench "$arch" "build/$arch-nomemleak-nodebug/kernel.elf" off 256 kmalloc,kmalloc-newctx,kmalloc-long >"$off"
	# Same case on both sides: ours = with the collector, reference = without.
	awk -F '\t' '{ print $3 "\t" $4 }' "$on" | sort >"$on.case"
	awk -F '\t' '{ print $3 "\t" $4 }' "$off" | sort >"$off.case"
	join -t '	' "$on.case" "$off.case" |
	awk -F '\t' -v arch="$arch" '$3 > 0 {
		printf "row\tmemleak tracking (qemu %s)\t%s\t%s\t%s\t%.2f\tinsns/pair\n",
			arch, $1, $2, $3, $2 / $3 }'
	rm -f "$on" "$off" "$on.case" "$off.case"
done
