#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-scale.sh - a trace.dat of 10 GB (BENCH_SCALE_MB, default 10240)
# and one a tenth its size, both made by mk-big-dat.py of the bundled
# lazy612-hogs.dat's pages from 7.7 s to 11.5 s repeated: in that window
# no task is born or dies, so both files hold the same 12 tasks and
# differ only in their events. `lazytrace stats` on both: its CPU, wall
# time and peak anonymous memory (RssAnon: the file's pages the reader
# maps are the kernel's to drop); then bench-tui.sh on the big one (the
# TUI's first screen and peak memory).
#
# Exits 1 when a goal is missed: the big file's peak memory more than
# 10 % above the small one's (memory grows with the tasks, not with the
# events), or a first screen after more than 2 s. The files are kept in
# bench/data/ (gitignored; 11 GB) and made again only when missing.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
LAZYTRACE=${LAZYTRACE:-$top/lazytrace}
D=${BENCH_DATA:-$top/bench/data}
MB=${BENCH_SCALE_MB:-10240}
src=$top/tests/data/lazy612-hogs.dat
command -v trace-cmd >/dev/null 2>&1 || { echo "bench-scale: needs trace-cmd" >&2; exit 2; }
[ -x "$LAZYTRACE" ] || { echo "bench-scale: build first (make)" >&2; exit 2; }
mkdir -p "$D"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

meta() {	# FILE KEY
	"$LAZYTRACE" table meta --json -i "$1" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["meta"][sys.argv[1]])' "$2"
}

# SRC as file version 6
trace-cmd convert -i "$src" -o "$tmp/src6.dat" --file-version 6 > /dev/null 2>&1 ||
	{ echo "bench-scale: trace-cmd convert failed" >&2; exit 2; }

# stats FILE: "cpu_s wall_s anon_kb tasks events"
stats() {
	/usr/bin/time -o "$tmp/time" -f "%U %S %e" \
		"$LAZYTRACE" stats -i "$1" > "$tmp/out" 2>&1 &
	pid=$!
	anon=0 lt=
	while kill -0 $pid 2>/dev/null; do
		[ -n "$lt" ] || lt=$(pgrep -P $pid | head -n 1)
		a=$(awk '$1 == "RssAnon:" { print $2 }' /proc/${lt:-0}/status 2>/dev/null)
		[ -n "$a" ] && [ "$a" -gt "$anon" ] && anon=$a
		sleep 0.1
	done
	wait $pid || { echo "bench-scale: stats failed: $(head -n 1 "$tmp/out")" >&2; return 1; }
	tasks=$("$LAZYTRACE" table tasks --csv -i "$1" | tail -n +2 | wc -l)
	read -r u s e < "$tmp/time"
	echo "$(echo "$u + $s" | bc) $e $anon $tasks $(head -n 1 "$tmp/out" | awk '{ print $2 }')"
}

fail=0
printf "| trace | size MB | events | tasks | stats CPU s | wall s | peak anon MB |\n|---|---|---|---|---|---|---|\n"
for mb in $((MB / 10)) "$MB"; do
	f=$D/scale-$mb.dat
	[ -s "$f" ] || python3 "$top/bench/mk-big-dat.py" "$tmp/src6.dat" "$f" \
		"$mb" 0 7700000000 11500000000 > /dev/null ||
		{ echo "bench-scale: cannot make $f" >&2; exit 2; }
	set -- $(stats "$f")
	[ $# -eq 5 ] || exit 2
	printf "| %s | %.0f | %s | %s | %.2f | %.2f | %.1f |\n" "$(basename "$f")" \
		"$(echo "$(stat -c %s "$f") / 1048576" | bc -l)" "$5" "$4" "$1" "$2" \
		"$(echo "$3 / 1024" | bc -l)"
	if [ "$mb" = "$MB" ] && [ "$(echo "$3 > 1.1 * $small" | bc)" = 1 ]; then
		echo "bench-scale: memory grows with the events: $3 kB against $small kB at a tenth the size"
		fail=1
	fi
	small=$3
done
echo
sh "$top/bench/bench-tui.sh" "$D/scale-$MB.dat" || fail=1
exit $fail
