#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/bench.sh [TRACE.dat]
#
# One run each, on the same trace.dat, of
#   bare-iter (bench/bare-iter.c: libtracecmd's own iteration, the floor),
#   lazytrace report, lazytrace report -l, lazytrace stats,
#   trace-cmd report, trace-cmd report -l
# printing user CPU, system CPU, wall time and peak RSS (GNU time) as a
# Markdown table, then the ratios. Then peak RSS of `lazytrace stats` on a
# trace 1x and 10x as long (two recordings of the same load).
#
# Without TRACE, records one on this machine (root, tracefs) into
# bench/data/ (gitignored) with `lazytrace record` around `perf bench sched
# messaging -l BENCH_LOOPS` (default 2100 loops: ~700k events here), and
# a 10x one (BENCH_10X=0 skips it). Recordings are kept for the next run.
# trace-cmd record cannot be used on hosts that forbid writing
# /proc/sys/kernel/ftrace_enabled; lazytrace record uses its own instance.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
LT=${LAZYTRACE:-$top/lazytrace}
D=${BENCH_DATA:-$top/bench/data}
LOOPS=${BENCH_LOOPS:-2100}
mkdir -p "$D"

[ -x "$LT" ] || { echo "build lazytrace first (make)"; exit 2; }
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)"; exit 2; }
cc -O2 -o "$D/bare-iter" "$top/bench/bare-iter.c" \
	$(pkg-config --cflags --libs libtracecmd libtraceevent)

record() {	# FILE LOOPS
	[ -s "$1" ] && return 0
	echo "recording $1: perf bench sched messaging -l $2" >&2
	if command -v perf > /dev/null; then
		"$LT" record -o "$1.tmp" --buffer-size 65536 -- \
			perf bench sched messaging -l "$2" > /dev/null
	else	# two pipe loops, for as long as the messaging load would take
		"$LT" record -o "$1.tmp" --buffer-size 65536 \
			-d "$(($2 / 700 + 1))" -- sh -c '
			dd if=/dev/zero bs=1 count=1000000000 2>/dev/null | cat >/dev/null &
			dd if=/dev/zero bs=1 count=1000000000 2>/dev/null | cat >/dev/null' \
			> /dev/null
	fi
	mv "$1.tmp" "$1"
}

trace=${1:-}
if [ -z "$trace" ]; then
	trace=$D/msg-1x.dat
	record "$trace" "$LOOPS"
fi

# run NAME CMD...: one run; sets NAME_user, NAME_wall, NAME_rss
run() {
	name=$1
	shift
	/usr/bin/time -f "%U %S %e %M" -o "$D/time" "$@" > /dev/null 2> "$D/err" ||
		{ cat "$D/err"; echo "$name failed"; exit 1; }
	read -r user sys wall rss < "$D/time"
	printf '| %-22s | %6.2f | %6.2f | %6.2f | %9d |\n' "$*" "$user" "$sys" \
		"$wall" "$rss" | sed "s|$trace|T|; s|$D/||; s|$LT|lazytrace|"
	eval "${name}_user=$user ${name}_wall=$wall ${name}_rss=$rss"
}

ratio() {	# A B: A/B with one decimal
	echo "$1 $2" | awk '{ if ($2 > 0) printf "%.1f", $1 / $2; else print "inf" }'
}

events=$("$D/bare-iter" "$trace" | cut -d' ' -f1)
echo "T = $trace: $events events, $(du -m "$trace" | cut -f1) MB"
echo
echo "| command | user s | sys s | wall s | peak RSS KB |"
echo "|---|---|---|---|---|"
run bare "$D/bare-iter" "$trace"
run lt_report "$LT" report -i "$trace"
run lt_lat "$LT" report -l -i "$trace"
run lt_stats "$LT" stats -i "$trace"
run tc_report trace-cmd report -i "$trace"
run tc_lat trace-cmd report -l -i "$trace"
echo
echo "user CPU, trace-cmd report / lazytrace report:       $(ratio "$tc_report_user" "$lt_report_user")x"
echo "user CPU, trace-cmd report -l / lazytrace report -l: $(ratio "$tc_lat_user" "$lt_lat_user")x"
echo "user CPU, trace-cmd report / lazytrace stats:        $(ratio "$tc_report_user" "$lt_stats_user")x (aim >= 5)"
echo "user CPU, lazytrace stats / bare-iter:               $(ratio "$lt_stats_user" "$bare_user")x (aim <= 1.5)"
echo "wall, trace-cmd report / lazytrace report:           $(ratio "$tc_report_wall" "$lt_report_wall")x"
echo "peak RSS, lazytrace report / trace-cmd report:       $(ratio "$lt_report_rss" "$tc_report_rss")x"

[ "${BENCH_10X:-1}" = 0 ] && exit 0
[ -n "${1:-}" ] && exit 0
big=$D/msg-10x.dat
record "$big" $((LOOPS * 10))
echo
echo "peak RSS of lazytrace stats, 1x and 10x (anonymous and file-backed"
echo "peaks sampled from /proc/PID/status every 10 ms):"
echo "| trace | events | MB | user s | peak RSS KB | peak RssAnon KB | peak RssFile KB |"
echo "|---|---|---|---|---|---|---|"
for t in "$trace" "$big"; do
	/usr/bin/time -f "%U %M" -o "$D/time" "$LT" stats -i "$t" > /dev/null &
	sleep 0.05
	pid=$(pgrep -o -f "^$LT stats -i $t") || pid=
	anon=0 file=0
	while [ -n "$pid" ] && [ -r "/proc/$pid/status" ]; do
		set -- $(awk '/^RssAnon|^RssFile/ { print $2 }' "/proc/$pid/status" 2> /dev/null) 0 0
		[ "$1" -gt "$anon" ] && anon=$1
		[ "$2" -gt "$file" ] && file=$2
		sleep 0.01
	done
	wait
	read -r user rss < "$D/time"
	printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$(basename "$t")" \
		"$("$D/bare-iter" "$t" | cut -d' ' -f1)" "$(du -m "$t" | cut -f1)" \
		"$user" "$rss" "$anon" "$file"
done
