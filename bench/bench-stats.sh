#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/bench-stats.sh [TRACE.dat]
#
# 1. CPU: user CPU time and peak RSS of `lazytrace stats` against
#    `trace-cmd report` on the same trace.dat (default: the largest
#    bundled recording; BENCH_RECORD=SECONDS records a bigger one of this
#    machine with `lazytrace record` first, as root). Each command runs
#    BENCH_RUNS times (default 10) under one /usr/bin/time, so that the
#    10 ms resolution of user time does not matter.
# 2. Memory: peak RSS of `lazytrace stats` on a kernel text trace and on
#    one 10 times as long (bench/mk-long-text.py: the same tasks, events
#    repeated with shifted timestamps). It must stay within 10 %.
#
# Prints one line per measurement and the ratios; exits 1 if lazytrace is
# not at least 5x cheaper in CPU or its RSS grows by more than 10 %.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
LT=${LAZYTRACE:-$top/lazytrace}
DATA=$top/tests/data
RUNS=${BENCH_RUNS:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$LT" ] || { echo "build lazytrace first (make)"; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)"; exit 2; }

# measure NAME CMD...: user seconds and max RSS (KB) over $RUNS runs
measure() {
	name=$1
	shift
	/usr/bin/time -f "%U %M" -o "$tmp/time" sh -c '
		n=$1; shift
		i=0
		while [ $i -lt $n ]; do "$@" > /dev/null 2>&1; i=$((i + 1)); done
	' sh "$RUNS" "$@"
	read -r user rss < "$tmp/time"
	printf '%-28s user %7.3f s/run   peak RSS %8d KB\n' "$name" \
		"$(echo "$user / $RUNS" | bc -l)" "$rss"
	eval "${name%% *}_user=$user ${name%% *}_rss=$rss"
}

trace=${1:-}
if [ -z "$trace" ] && [ -n "${BENCH_RECORD:-}" ]; then
	trace=$tmp/recorded.dat
	"$LT" record -o "$trace" -d "$BENCH_RECORD" -- sh -c '
		dd if=/dev/zero bs=1 count=100000000 2>/dev/null | cat >/dev/null &
		dd if=/dev/zero bs=1 count=100000000 2>/dev/null | cat >/dev/null
	' > /dev/null 2>&1 || true
	[ -s "$trace" ] || { echo "recording failed"; exit 2; }
fi
[ -n "$trace" ] || trace=$DATA/lazy612-msg-full.dat
events=$("$LT" stats -i "$trace" --json | python3 -c \
	'import json, sys; print(json.load(sys.stdin)["events"])')
echo "CPU: $trace ($events events, $(du -k "$trace" | cut -f1) KB), $RUNS runs each"
measure "lazytrace stats" "$LT" stats -i "$trace"
measure "tracecmd report" trace-cmd report -i "$trace"
cpu_ratio=$(echo "$tracecmd_user / $lazytrace_user" | bc -l)
printf 'CPU ratio trace-cmd/lazytrace: %.1fx (aim: >= 5x)\n' "$cpu_ratio"

echo
echo "Memory: lazytrace stats on the kernel text of lazy612-msg-full, 1x and 10x"
xz -dc "$DATA/lazy612-msg-full.txt.xz" > "$tmp/x1.txt"
python3 "$top/bench/mk-long-text.py" 10 < "$tmp/x1.txt" > "$tmp/x10.txt"
RUNS=1
measure "small 1x" "$LT" stats -i "$tmp/x1.txt"
measure "large 10x" "$LT" stats -i "$tmp/x10.txt"
growth=$(echo "100 * ($large_rss - $small_rss) / $small_rss" | bc -l)
printf 'RSS growth 1x -> 10x: %+.1f%% (limit: 10%%)\n' "$growth"

ok=$(echo "$cpu_ratio >= 5 && $growth <= 10" | bc -l)
[ "$ok" = 1 ]
