#!/bin/sh
# Our leak check against the ones people would pick instead, side by
# side on the same random heap (tests/bench/peers/graph.h: 10 k, 100 k
# and 1 M blocks, random sizes and pointers, allocated in random order):
# our collector built for the host, Boehm GC's full collection with one
# marker, LeakSanitizer's __lsan_do_recoverable_leak_check(), Valgrind
# memcheck's leak check, a plain read of the same memory, and the floor
# of any tracing mark on it (every reachable block read once in a
# breadth-first walk whose pointer targets are known). Each
# repetition runs every contender once, in turn (interleaved, each
# repetition starting with the next one); the rows
# give medians, and each ratio is the median of the repetitions' own
# ratios (contenders of the same repetition). Every contender's leaked count is checked against the
# generator's; a miss is a row of its own, and a miss of ours makes the
# script exit 1 (a peer's is how that tool works, and only a row). Writes a log-log plot of scan
# time per block to build/memleak-peers.png (gnuplot). Rows for
# tests/bench/run.
set -u
cd "$(dirname "$0")/../.."

P=build/host-bench/peers
BENCH="memleak vs peers"
SIZES=${PEER_SIZES:-"10000 100000 1000000"}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

row() { printf 'row\t%s\t%s\t%s\t%s\t%s\t%s\n' "$BENCH" "$@"; }

# One run of contender $1 on $2 blocks: "ns found expected words meta".
run() {
	case $1 in
	lsan)
		# Only the globals are roots (no stacks, registers or TLS), as in
		# our host build and Boehm's: every contender scans the same roots.
		LSAN_OPTIONS=report_objects=0:max_leaks=1:symbolize=0:exitcode=0:leak_check_at_exit=0:use_stacks=0:use_registers=0:use_tls=0 \
			"$P/lsan" "$2" >"$out/run" 2>"$out/err" || return 1
		found=$(sed -n 's/.*leaked in \([0-9]*\) allocation.*/\1/p' "$out/err" | head -1)
		sed "s/found=[0-9]*/found=${found:-0}/" "$out/run" >"$out/run2"
		mv "$out/run2" "$out/run" ;;
	valgrind)
		command -v valgrind >/dev/null || return 1
		valgrind -q --leak-check=summary "$P/valgrind" "$2" >"$out/run" 2>/dev/null || return 1 ;;
	boehm) GC_MARKERS=1 "$P/boehm" "$2" >"$out/run" 2>/dev/null || return 1 ;;
	ours)
		"$P/ours" "$2" >"$out/run" 2>"$out/err" || return 1
		grep '^ours: phases' "$out/err" >>"$out/phases.$2"
		grep '^ours: metadata' "$out/err" >"$out/metadata.$2" ;;
	*) "$P/$1" "$2" >"$out/run" 2>/dev/null || return 1 ;;
	esac
	sed 's/[a-z]*=//g' "$out/run" | awk '{ print $4, $3, $2, $5, $6 }'
}

# The words of $1, the first ($2 - 1) modulo their number moved to the end.
rotate() { echo "$1" | awk -v k="$2" '{ for (i = 0; i < NF; i++) printf "%s ", $((i + k - 1) % NF + 1); print "" }'; }

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : "") }'; }

contenders="ours boehm lsan valgrind plain floor"
for c in $contenders; do
	[ -x "$P/$c" ] || { row "$c" "skipped: not built (its tool is not installed, or no make bench)" - - -; contenders=$(echo "$contenders" | sed "s/$c//"); }
done

for n in $SIZES; do
	reps=5
	[ "$n" -ge 1000000 ] && reps=3
	for r in $(seq "$reps"); do
		# Each repetition starts with the next contender: a program run
		# right after another is measured a few percent slower here, and
		# no contender should always pay for that place.
		for c in $(rotate "$contenders" "$r"); do
			# Valgrind is slow: once per size.
			[ "$c" = valgrind ] && [ "$r" -gt 1 ] && continue
			if ! line=$(run "$c" "$n"); then
				echo "$c failed" >>"$out/fail.$n"
				continue
			fi
			echo "$line" >>"$out/$c.$n"
		done
	done
done

# "name median, ..." from lines "ours: phases name=ns ... ns per block".
phase_medians() {
	for name in $(awk 'NR == 1 { for (i = 3; i <= NF - 3; i++) { sub(/=.*/, "", $i); print $i } }' "$1"); do
		printf '%s %s\n' "$name" "$(tr ' ' '\n' <"$1" | sed -n "s/^$name=//p" | median)"
	done | paste -sd, - | sed 's/,/, /g'
}

per_block() { awk -v n="$2" '{ printf "%.1f", $1 / n }' "$1"; }

# peer/ours: the median of each repetition's ratio (the two ran back to
# back), steadier than a ratio of medians when the machine's speed drifts
# between repetitions; Valgrind, run once, against ours of the same
# repetition; when a run failed (files of different lengths), medians.
ratio_of_runs() {
	if [ "$(wc -l <"$1")" = "$(wc -l <"$2")" ]; then
		paste -d' ' "$1" "$2" | awk '{ print $1 / $6 }' | median
	elif [ "$(wc -l <"$1")" = 1 ]; then
		paste -d' ' "$1" "$2" | awk 'NR == 1 { print $1 / $6 }'
	else
		awk -v a="$(awk '{ print $1 }' "$1" | median)" \
			-v b="$(awk '{ print $1 }' "$2" | median)" 'BEGIN { print a / b }'
	fi | awk '{ printf "%.2f", $1 }'
}

for n in $SIZES; do
	label="$((n / 1000))k blocks"
	[ "$n" -ge 1000000 ] && label="$((n / 1000000))M blocks"
	for c in $contenders; do
		f="$out/$c.$n"
		[ -s "$f" ] || { row "$label: $c" "failed or skipped" - - -; continue; }
		awk '{ print $1 }' "$f" | median >"$out/$c.$n.med"
		# Every run must find exactly the generator's leaked blocks.
		awk -v c="$c" '$2 != $3 { printf "%s found %s leaked blocks, expected %s\n", c, $2, $3 }' "$f" |
			sort -u | while read -r msg; do row "$label: leak count differs: $msg" - - - -; done
		[ "$c" = ours ] && awk '$2 != $3 { bad = 1 } END { exit !bad }' "$f" && echo "$n" >>"$out/ours-wrong"
	done
	ours=$(cat "$out/ours.$n.med" 2>/dev/null)
	[ -n "$ours" ] || continue
	ours_pb=$(echo "$ours" | per_block /dev/stdin "$n")
	for c in boehm lsan valgrind; do
		[ -s "$out/$c.$n.med" ] || continue
		peer=$(cat "$out/$c.$n.med")
		row "$label: $c leak check / ours" "$ours_pb" \
			"$(echo "$peer" | per_block /dev/stdin "$n")" \
			"$(ratio_of_runs "$out/$c.$n" "$out/ours.$n")" \
			"ns per block, medians (ratio: peer/ours, median of the repetitions' ratios)"
	done
	# The floor (peers/malloc.c): what no tracing mark can beat here,
	# against ours and against Boehm's whole mark.
	if [ -s "$out/floor.$n.med" ]; then
		row "$label: floor of a tracing mark / ours" "$ours_pb" \
			"$(per_block "$out/floor.$n.med" "$n")" \
			"$(ratio_of_runs "$out/floor.$n" "$out/ours.$n")" \
			"ns per block, medians (ratio: floor/ours)"
		[ -s "$out/boehm.$n.med" ] && row "$label: boehm / floor" \
			"$(per_block "$out/boehm.$n.med" "$n")" \
			"$(per_block "$out/floor.$n.med" "$n")" \
			"$(ratio_of_runs "$out/boehm.$n" "$out/floor.$n")" \
			"ns per block, medians (ratio: how far below Boehm's mark the floor is)"
	fi
	if [ -s "$out/plain.$n.med" ]; then
		words=$(awk 'NR == 1 { print $4 }' "$out/ours.$n")
		plain=$(cat "$out/plain.$n.med")
		row "$label: ours vs plain read, per word" \
			"$(awk -v t="$ours" -v w="$words" 'BEGIN { printf "%.2f", t / w }')" \
			"$(awk -v t="$plain" -v w="$words" 'BEGIN { printf "%.2f", t / w }')" \
			"$(awk -v a="$ours" -v b="$plain" 'BEGIN { printf "%.1f", a / b }')" "ns per word"
	fi
	# Where ours spends its time: each phase's median, ns per block.
	[ -s "$out/phases.$n" ] && row "$label: ours, scan phases" \
		"$(phase_medians "$out/phases.$n")" - - "ns per block, median of each"
	meta=$(awk 'NR == 1 { print $5 }' "$out/ours.$n")
	row "$label: ours, collector metadata" "$(awk -v m="$meta" -v n="$n" 'BEGIN { printf "%.1f", m / n }')" - - "bytes per tracked block"
	# Part by part (the same in every repetition): the records, per
	# tracked slab block, are the issue's "16 bytes plus its index".
	[ -s "$out/metadata.$n" ] && row "$label: ours, metadata by part" \
		"$(sed 's/^ours: metadata //; s/ bytes per block$//; s/ (per slab block)//; s/ /, /g' "$out/metadata.$n")" \
		- - "bytes per block (records: per tracked slab block)"
done

first=$(echo "$SIZES" | awk '{ print $1 }')
last=$(echo "$SIZES" | awk '{ print $NF }')
if [ -s "$out/ours.$first.med" ] && [ -s "$out/ours.$last.med" ] && [ "$first" != "$last" ]; then
	row "ours: per block at $last vs at $first" \
		"$(per_block "$out/ours.$last.med" "$last")" "$(per_block "$out/ours.$first.med" "$first")" \
		"$(awk -v a="$(cat "$out/ours.$last.med")" -v b="$(cat "$out/ours.$first.med")" -v m="$last" -v k="$first" \
			'BEGIN { printf "%.2f", (a / m) / (b / k) }')" "growth of ns per block"
fi

# The plot: ns per block against blocks, every contender.
if command -v gnuplot >/dev/null; then
	mkdir -p build
	for c in $contenders; do
		for n in $SIZES; do
			[ -s "$out/$c.$n.med" ] && echo "$n $(per_block "$out/$c.$n.med" "$n")"
		done >"$out/$c.dat"
	done
	plots=""
	for c in $contenders; do
		[ -s "$out/$c.dat" ] && plots="$plots${plots:+, }'$out/$c.dat' with linespoints title '$c'"
	done
	gnuplot <<-PLOT 2>/dev/null
	set terminal png size 800,500
	set output 'build/memleak-peers.png'
	set logscale xy
	set xlabel 'tracked blocks (random graph)'
	set ylabel 'leak check, ns per block'
	set key top left
	set grid
	plot $plots
	PLOT
	[ -s build/memleak-peers.png ] && echo "plot: build/memleak-peers.png" >&2
else
	row "plot" "skipped: gnuplot not installed" - - -
fi
[ -e "$out/ours-wrong" ] && exit 1
exit 0
