#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/bench-export.sh: what export --sqlite / --csv / --ndjson cost.
#
#   bench/bench-export.sh [TRACE...]
#
# On the given traces (default: the largest bundled ones, a kernel text
# of 816k events made of one of them (mk-long-text.py), and
# bench/data/msg-*.dat when `make bench` recorded one): `lazytrace stats`
# (one pass: the floor), then export --sqlite, --sqlite --events, --csv
# and --ndjson, each BENCH_RUNS times (default 3, the median CPU kept):
# CPU (user + system), wall, peak RSS (GNU time) and the output's size.
# Then a fleet: BENCH_FLEET (default 100) links to lazy612-hogs.dat into
# one database and into CSV files, and one GROUP BY query on it.
# A markdown table on stdout; nothing is checked.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
LT=${LAZYTRACE:-$top/lazytrace}
RUNS=${BENCH_RUNS:-3}
FLEET=${BENCH_FLEET:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$LT" ] || { echo "bench: build lazytrace first (make)"; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (/usr/bin/time)"; exit 2; }
command -v sqlite3 > /dev/null || { echo "bench: needs sqlite3"; exit 2; }

if [ $# = 0 ]; then
	# and a kernel text trace of 816k events (lazy612-msg-full 7 times)
	xz -dc "$top/tests/data/lazy612-msg-full.txt.xz" |
		python3 "$top/bench/mk-long-text.py" 7 > "$tmp/msg-full-x7.txt"
	set -- "$top/tests/data/lazy612-msg-full.dat" \
		"$top/tests/data/allevents/host618-allevents.dat" \
		"$tmp/msg-full-x7.txt"
	for f in "$top"/bench/data/msg-*.dat; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
fi

# measure OUT CMD...: the median run by CPU, "cpu wall rss"; OUT (the
# command's output) is removed before each run and kept after the last.
measure() {
	out=$1
	shift
	: > "$tmp/runs"
	i=0
	while [ $i -lt "$RUNS" ]; do
		rm -rf "$out"
		/usr/bin/time -f '%U %S %e %M' -o "$tmp/t" "$@" > /dev/null 2>&1 ||
			{ echo "bench: '$*' failed" >&2; exit 1; }
		awk '{ printf "%.2f %.2f %d\n", $1 + $2, $3, $4 / 1024 }' "$tmp/t" >> "$tmp/runs"
		i=$((i + 1))
	done
	sort -n "$tmp/runs" | sed -n "$(((RUNS + 1) / 2))p"
}

events() {	# TRACE: its events
	"$LT" table meta "$1" --json |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["meta"]["events"])'
}

size() {	# PATH: MB, file or directory
	du -sk "$1" | awk '{ printf "%.1f", $1 / 1024 }'
}

echo "| trace | events | command | CPU s | wall s | peak RSS MB | output MB |"
echo "|---|---|---|---|---|---|---|"
for f in "$@"; do
	n=$(events "$f")
	name=$(basename "$f")
	set -- $(measure "$tmp/none" "$LT" stats -i "$f")
	echo "| $name | $n | stats | $1 | $2 | $3 | |"
	for mode in "--sqlite $tmp/o.db" "--sqlite $tmp/o.db --events" \
		    "--csv $tmp/o" "--ndjson $tmp/o"; do
		o=$(echo "$mode" | cut -d' ' -f2)
		set -- $(measure "$o" "$LT" export $mode "$f")
		echo "| $name | $n | export $(echo "$mode" | sed "s|$tmp/||") | $1 | $2 | $3 | $(size "$o") |"
		rm -rf "$o"
	done
done

mkdir "$tmp/fleet"
i=0
while [ $i -lt "$FLEET" ]; do
	i=$((i + 1))
	ln -s "$top/tests/data/lazy612-hogs.dat" "$tmp/fleet/host$i.dat"
done
n=$(events "$top/tests/data/lazy612-hogs.dat")
for mode in "--sqlite $tmp/f.db" "--csv $tmp/f"; do
	o=$(echo "$mode" | cut -d' ' -f2)
	set -- $(RUNS=1 measure "$o" "$LT" export $mode "$tmp"/fleet/*.dat)
	echo "| $FLEET x lazy612-hogs.dat | $FLEET x $n | export $(echo "$mode" | sed "s|$tmp/||") | $1 | $2 | $3 | $(size "$o") |"
done
set -- $(measure "$tmp/none" sqlite3 "$tmp/f.db" \
	"SELECT comm, count(*), max(latency_ns) FROM requests GROUP BY comm")
echo "| f.db | | sqlite3: requests GROUP BY comm | $1 | $2 | $3 | |"
