#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench/bench.sh: lazytrace against trace-cmd and a bare libtracecmd
# iteration, side by side on the same files, in one run (`make bench`).
#
#   bench/bench.sh [TRACE.dat...]
#
# Traces: the given ones, else the largest bundled recordings, the
# big-endian one (s390x), Debian's stock 7.2 amd64 and s390x ones of 600k
# events or more when bench/record-stock.sh made them, and a large
# recording of this machine:
# BENCH_RECORD=LOOPS (default 3000; 0: none)
# records `perf bench sched messaging -l LOOPS` with `lazytrace record`
# (root, tracefs) into bench/data/msg-LOOPS.dat, kept for the next run, and
# converts it to a version 7 zstd copy with `trace-cmd convert`, so that
# both file formats are measured. BENCH_TRACE=FILE uses FILE (and its v7
# copy) instead of recording.
#
# Commands, each run BENCH_RUNS times (default 3; the median is kept), a
# run being BENCH_REPEAT (default 5) executions in a row whose times are
# divided by their number (GNU time counts CPU in 10 ms steps):
#   bare-iter (bench/bare-iter.c: libtracecmd's own iteration, the floor)
#   lazytrace stats, lazytrace report, lazytrace report -l
#   trace-cmd report, trace-cmd report -l
# CPU (user + system) and wall time separately, peak RSS (GNU time).
# On a trace of at least 1M events also `lazytrace stats -j 1` and `-j 2`,
# `lazytrace report -j 1` and `-j 2`, for their wall times (and, for
# the goals, BENCH_PAIRS (default 15) runs of -j 1 and -j 2 alternating,
# the median of each pair's ratio: bench/pairs.py), and
# bench/split-bound.c with 2 threads: two analyses, each of half of the
# file's segments in time, never joined: no stats -j 2 that splits its
# analysis in time can be faster (a floor, no goal).
# Then the text reader's memory: `lazytrace stats` on a kernel text trace
# and on one ten times as long (bench/mk-long-text.py).
#
# The table goes to stdout and between the markers in bench/README.md
# (BENCH_README=0: not). Exit status 1 when a goal is missed, 2 when
# there is no trace of at least 500k events:
#   start-up, on host618-hogs.dat (12k events, a distribution kernel's
#   full kallsyms): stats and report CPU <= trace-cmd report CPU / 5
#   at least 500k events:
#     stats CPU <= trace-cmd report CPU / 6
#     report CPU <= trace-cmd report CPU / 4
#     stats CPU <= 1.5 x bare-iter CPU
#     report -l CPU <= trace-cmd report -l CPU / 1.5
#   at least 1M events: stats and report wall with -j 2 <= 0.6 x -j 1
#   text trace 10x: peak RSS within 10 % of 1x
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
LT=${LAZYTRACE:-$top/lazytrace}
D=${BENCH_DATA:-$top/bench/data}
RUNS=${BENCH_RUNS:-3}
PAIRS=${BENCH_PAIRS:-15}
REPEAT=${BENCH_REPEAT:-5}
LOOPS=${BENCH_RECORD:-3000}
BIG=500000
PAR=1000000
mkdir -p "$D"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$LT" ] || { echo "bench: build lazytrace first (make)"; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (/usr/bin/time)"; exit 2; }
command -v trace-cmd > /dev/null || { echo "bench: needs trace-cmd"; exit 2; }
cc -O2 -o "$tmp/bare-iter" "$top/bench/bare-iter.c" \
	$(pkg-config --cflags --libs libtracecmd libtraceevent)
[ -s "$top/build/liblazytrace.a" ] || { echo "bench: build the library first (make)"; exit 2; }
cc -O2 -I"$top/libdecode/include" -I"$top/libdecode" -o "$tmp/split-bound" \
	"$top/bench/split-bound.c" "$top/build/liblazytrace.a" \
	$(pkg-config --libs libtracecmd libtraceevent libtracefs) \
	-lzstd -lz -llzma -lm -lpthread

# How many events a machine records for LOOPS varies with its load: a
# recording short of $PAR events is made again with more loops, twice at
# most.
record() {	# FILE LOOPS
	[ -s "$1" ] && return 0
	command -v perf > /dev/null || { echo "bench: needs perf to record" >&2; return 1; }
	loops=$2 try=0
	while :; do
		echo "bench: recording $1: perf bench sched messaging -l $loops" >&2
		"$LT" record -o "$1.tmp" --buffer-size 65536 -- \
			perf bench sched messaging -l "$loops" > /dev/null || return 1
		n=$("$tmp/bare-iter" "$1.tmp" | cut -d' ' -f1)
		try=$((try + 1))
		[ "$n" -ge "$PAR" ] || [ $try -ge 3 ] && break
		loops=$((loops * PAR * 13 / 10 / (n + 1)))
	done
	mv "$1.tmp" "$1"
}

v7_copy() {	# FILE: its version 7 zstd copy, made once
	v7=$D/$(basename "${1%.dat}")-v7zstd.dat
	if [ ! -s "$v7" ]; then
		trace-cmd convert -i "$1" -o "$v7.tmp" --file-version 7 \
			--compression zstd > /dev/null 2>&1 || return 1
		mv "$v7.tmp" "$v7"
	fi
	echo "$v7"
}

if [ $# -eq 0 ]; then
	# the last one is big-endian (s390x): too small for the goals
	set -- "$top/tests/data/lazy612-msg-full.dat" "$top/tests/data/host618-hogs.dat" \
		"$top/tests/data/stock/stock72-allevents-s390x.dat"
	# Debian's stock 7.2 with its whole kallsyms (bench/record-stock.sh)
	[ -s "$D/stock72-big.dat" ] && set -- "$@" "$D/stock72-big.dat"
	# the same in s390x's (bench/record-stock.sh s390x): big-endian
	[ -s "$D/stock72-big-s390x.dat" ] && set -- "$@" "$D/stock72-big-s390x.dat"
	big=${BENCH_TRACE:-}
	if [ -z "$big" ] && [ "$LOOPS" != 0 ]; then
		big=$D/msg-$LOOPS.dat
		record "$big" "$LOOPS" || big=
	fi
	if [ -n "$big" ]; then
		set -- "$@" "$big"
		v7=$(v7_copy "$big") && set -- "$@" "$v7"
	fi
fi

# measure CMD...: "cpu user sys wall rss" medians over $RUNS runs
measure() {
	: > "$tmp/runs"
	i=0
	while [ $i -lt "$RUNS" ]; do
		/usr/bin/time -f "%U %S %e %M" -o "$tmp/time" sh -c '
			n=$1; shift
			while [ $n -gt 0 ]; do
				"$@" || exit 1
				n=$((n - 1))
			done' sh "$REPEAT" "$@" > /dev/null 2> "$tmp/err" ||
			{ cat "$tmp/err" >&2; echo "bench: failed: $*" >&2; exit 2; }
		awk -v n="$REPEAT" '{ printf "%.3f %.3f %.3f %.3f %s\n",
			($1 + $2) / n, $1 / n, $2 / n, $3 / n, $4 }' \
			"$tmp/time" >> "$tmp/runs"
		i=$((i + 1))
	done
	# median by CPU; the largest RSS
	rss=$(sort -n -k5 "$tmp/runs" | tail -1 | cut -d' ' -f5)
	sort -n -k1 "$tmp/runs" | sed -n "$(((RUNS + 1) / 2))p" |
		awk -v rss="$rss" '{ print $1, $2, $3, $4, rss }'
}

pairs() {	# CMD: -j 2 / -j 1 on $t, the median of alternating pairs
	python3 "$top/bench/pairs.py" "$PAIRS" -- "$LT" "$1" -j 1 -i "$t" \
		-- "$LT" "$1" -j 2 -i "$t" |
		awk '{ printf "%.2f", $3 }'
}

ratio() {	# A B: A/B, two decimals
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'
}

out=$tmp/table
fail=0 checked=0
{
echo "| trace | events | command | CPU s | user s | sys s | wall s | peak RSS MB |"
echo "|---|---|---|---|---|---|---|---|"
} > "$out"
: > "$tmp/goals"
for t in "$@"; do
	[ -s "$t" ] || { echo "bench: no such trace $t" >&2; exit 2; }
	events=$("$tmp/bare-iter" "$t" | cut -d' ' -f1)
	name=$(basename "$t")
	cmds="bare stats report report_l tc_report tc_report_l"
	[ "$events" -ge "$PAR" ] && cmds="$cmds stats_j1 stats_j2 split_2 report_j1 report_j2"
	for c in $cmds; do
		case $c in
		bare)		set -- "$tmp/bare-iter" "$t"; label="bare-iter" ;;
		stats)		set -- "$LT" stats -i "$t"; label="lazytrace stats" ;;
		report)		set -- "$LT" report -i "$t"; label="lazytrace report" ;;
		report_l)	set -- "$LT" report -l -i "$t"; label="lazytrace report -l" ;;
		tc_report)	set -- trace-cmd report -i "$t"; label="trace-cmd report" ;;
		tc_report_l)	set -- trace-cmd report -l -i "$t"; label="trace-cmd report -l" ;;
		stats_j1)	set -- "$LT" stats -j 1 -i "$t"; label="lazytrace stats -j 1" ;;
		stats_j2)	set -- "$LT" stats -j 2 -i "$t"; label="lazytrace stats -j 2" ;;
		split_2)	set -- "$tmp/split-bound" "$t" 2; label="split-bound 2 (no join)" ;;
		report_j1)	set -- "$LT" report -j 1 -i "$t"; label="lazytrace report -j 1" ;;
		report_j2)	set -- "$LT" report -j 2 -i "$t"; label="lazytrace report -j 2" ;;
		esac
		read -r cpu user sys wall rss <<EOF
$(measure "$@")
EOF
		eval "cpu_$c=$cpu wall_$c=$wall"
		printf '| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %.1f |\n' \
			"$name" "$events" "$label" "$cpu" "$user" "$sys" "$wall" \
			"$(awk -v k="$rss" 'BEGIN { print k / 1024 }')" >> "$out"
	done
	r1=$(ratio "$cpu_tc_report" "$cpu_stats")
	r2=$(ratio "$cpu_stats" "$cpu_bare")
	r3=$(ratio "$cpu_tc_report_l" "$cpu_report_l")
	r4=$(ratio "$cpu_tc_report" "$cpu_report")
	ok() { awk -v v="$1" -v op="$2" -v g="$3" 'BEGIN {
		exit !((op == ">=" && v >= g) || (op == "<=" && v <= g)) }'; }
	verdict=""
	if [ "$name" = host618-hogs.dat ]; then
		m1=met m2=met
		ok "$r1" ">=" 5 || { m1=MISSED; fail=1; }
		ok "$r4" ">=" 5 || { m2=MISSED; fail=1; }
		echo "Start-up on $name ($events events): trace-cmd report / stats ${r1}x (goal >= 5: $m1), / report ${r4}x (goal >= 5: $m2)" >> "$tmp/startup"
	fi
	if [ "$events" -ge "$BIG" ]; then
		checked=1
		m1=met m2=met m3=met m4=met
		ok "$r1" ">=" 6 || { m1=MISSED; fail=1; }
		ok "$r4" ">=" 4 || { m4=MISSED; fail=1; }
		ok "$r2" "<=" 1.5 || { m2=MISSED; fail=1; }
		ok "$r3" ">=" 1.5 || { m3=MISSED; fail=1; }
		verdict=" ($m1 / $m4 / $m2 / $m3)"
	fi
	printf '| %s | %s | %sx | %sx | %sx | %sx |%s\n' "$name" "$events" \
		"$r1" "$r4" "$r2" "$r3" "$verdict" >> "$tmp/goals"
	if [ "$events" -ge "$PAR" ]; then
		# the goals on pairs: a ratio of medians minutes apart moves
		# with the VM's speed by 0.1 and more
		p1=$(pairs stats)
		p2=$(pairs report)
		p3=$(ratio "$wall_split_2" "$wall_stats_j1")
		m1=met m2=met
		ok "$p1" "<=" 0.6 || { m1=MISSED; fail=1; }
		ok "$p2" "<=" 0.6 || { m2=MISSED; fail=1; }
		echo "| $name | $events | ${p1}x | ${p3}x | ${p2}x | $m1 / $m2 |" >> "$tmp/par"
	fi
done
{
echo
echo "| trace | events | trace-cmd report / stats (goal >= 6) | trace-cmd report / report (goal >= 4) | stats / bare-iter (goal <= 1.5) | trace-cmd report -l / report -l (goal >= 1.5) |"
echo "|---|---|---|---|---|---|"
sed 's/ (\(.*\))$//' "$tmp/goals"
echo
sed -n 's/^| \([^|]*\) | \([0-9]*\) |.*(\(.*\))$/Goals on \1 (\2 events): \3/p' "$tmp/goals"
if [ -s "$tmp/startup" ]; then
	echo
	cat "$tmp/startup"
fi
if [ -s "$tmp/par" ]; then
	echo
	echo "| trace | events | stats wall -j 2 / -j 1, median of $PAIRS pairs (goal <= 0.6) | split-bound 2 / stats -j 1 (floor, no join) | report wall -j 2 / -j 1, median of $PAIRS pairs (goal <= 0.6) | goals |"
	echo "|---|---|---|---|---|---|"
	cat "$tmp/par"
fi
} >> "$out"

# The text reader streams: its memory must not grow with the trace.
xz -dc "$top/tests/data/lazy612-msg-full.txt.xz" > "$tmp/x1.txt"
python3 "$top/bench/mk-long-text.py" 10 < "$tmp/x1.txt" > "$tmp/x10.txt"
read -r c1 u1 s1 w1 rss1 <<EOF
$(measure "$LT" stats -i "$tmp/x1.txt")
EOF
read -r c10 u10 s10 w10 rss10 <<EOF
$(measure "$LT" stats -i "$tmp/x10.txt")
EOF
growth=$(awk -v a="$rss1" -v b="$rss10" 'BEGIN { printf "%+.1f", 100 * (b - a) / a }')
{
echo
echo "| text trace (lazytrace stats) | events | CPU s | wall s | peak RSS KB |"
echo "|---|---|---|---|---|"
echo "| lazy612-msg-full.txt (1x) | 116623 | $c1 | $w1 | $rss1 |"
echo "| 10x (mk-long-text.py) | 1166230 | $c10 | $w10 | $rss10 ($growth %) |"
} >> "$out"
awk -v g="$growth" 'BEGIN { exit !(g <= 10) }' || fail=1

cat "$out"
if [ "${BENCH_README:-1}" != 0 ]; then
	readme=$top/bench/README.md
	{
		sed '/<!-- bench:begin -->/q' "$readme"
		echo
		echo "$(date -u +%Y-%m-%d), $(nproc) CPUs, $(uname -r), trace-cmd $(trace-cmd -h 2>&1 | sed -n 's/.*version \([^ ]*\).*/\1/p' | head -1), $RUNS runs of $REPEAT executions (median run, times per execution):"
		echo
		cat "$out"
		echo
		sed -n '/<!-- bench:end -->/,$p' "$readme"
	} > "$tmp/readme"
	cp "$tmp/readme" "$readme"
fi
if [ $checked = 0 ]; then
	echo "bench: no trace of $BIG events or more: goals not checked" >&2
	exit 2
fi
[ $fail = 0 ] || { echo "bench: a goal is missed" >&2; exit 1; }
echo "bench: all goals met"
