#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lazytrace tui on large traces: time to the first screen (ruler and CPU
# rows drawn, while the input is still being read), time to the complete
# summary (the hog list shown), and the viewer's peak memory, measured
# from outside in a tmux pane, as a user would see it.
#
#   bench/bench-tui.sh [TRACE...]      default: tests/data/lazy612-msg-full.dat
#                                      and the recordings bench.sh keeps in
#                                      bench/data/
#   BENCH_TUI_RECORD=S bench/bench-tui.sh  also record S seconds of two pipe
#                                      loops (root, tracefs) into
#                                      bench/data/tui-S.dat and measure it
#
# PEAK-RSS is VmHWM; it includes the trace.dat pages libtracecmd maps from
# the file, which the kernel may drop at will. PEAK-ANON is the largest
# RssAnon seen: the memory that is really the viewer's.
#
# Exits 1 when a first screen takes more than BENCH_TUI_FIRST seconds
# (default 2), the goal on a 1 GB trace.dat.
#
# Results (2 vCPU VM shared with other builds, load average 60, Debian 12,
# 2026-12-03; big1g.dat: `lazytrace record -- perf bench sched messaging
# -l 76000`, trace.dat v6 uncompressed):
#
# TRACE                  SIZE    EVENTS FIRST-SCREEN  COMPLETE   PEAK-RSS  PEAK-ANON
# big1g.dat            995.1M  20915930        0.60s    23.27s    59272kB    52312kB
#
# 2026-12-04, the reader reading the pages itself, a fuzzer on the other
# vCPU; the same command (v6, 916 MB this time):
#
# big1g.dat            916.3M  19387798        0.25s     2.33s    41820kB    38372kB
#
# 2026-12-07, the upgrades (for n/N) in a mapped file, not the heap; the
# 1 GB and 10 GB scale traces (bench-scale.sh, 980k and 9.8M upgrades):
#
# scale-1024.dat      1025.2M  35150318        0.09s     5.66s    53544kB    11104kB
# scale-10240.dat    10241.3M 351568225        0.09s    62.00s   400660kB    11580kB
#
# The first screen comes before the input is read: the timeline fills in
# behind it. Memory is the summary's fixed-size bins (per CPU) and the
# tasks, not the events.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
LAZYTRACE=${LAZYTRACE:-$top/lazytrace}
command -v tmux >/dev/null 2>&1 || { echo "bench-tui: needs tmux"; exit 77; }
command -v bc >/dev/null 2>&1 || { echo "bench-tui: needs bc"; exit 77; }
[ -x "$LAZYTRACE" ] || { echo "bench-tui: build first (make)"; exit 2; }

if [ $# -eq 0 ]; then
	set -- "$top/tests/data/lazy612-msg-full.dat"
	for f in "$top"/bench/data/*.dat; do
		[ -s "$f" ] && set -- "$@" "$f"
	done
fi
if [ -n "${BENCH_TUI_RECORD:-}" ]; then
	BENCH_RECORD=$BENCH_TUI_RECORD
	big=$top/bench/data/tui-$BENCH_RECORD.dat
	mkdir -p "$top/bench/data"
	if [ ! -s "$big" ]; then
		echo "recording $big: $BENCH_RECORD s of pipe loops" >&2
		"$LAZYTRACE" record -o "$big.tmp" --buffer-size 65536 \
			-d "$BENCH_RECORD" -- sh -c '
			dd if=/dev/zero bs=1 count=1000000000 2>/dev/null | cat >/dev/null &
			dd if=/dev/zero bs=1 count=1000000000 2>/dev/null | cat >/dev/null' \
			> /dev/null || exit 2
		mv "$big.tmp" "$big"
	fi
	set -- "$@" "$big"
fi
FIRST_MAX=${BENCH_TUI_FIRST:-2}
fail=0

tmp=$(mktemp -d)
sock=$tmp/tmux.sock
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

now() {
	date +%s.%N
}

screen() {
	tmux -S "$sock" capture-pane -p -t bench 2>/dev/null
}

status() {	# PID FIELD: kB
	awk -v f="$2:" '$1 == f { print $2 }' /proc/"$1"/status 2>/dev/null
}

printf "%-20s %8s %9s %12s %9s %11s %11s %9s\n" TRACE SIZE EVENTS \
	FIRST-SCREEN COMPLETE PEAK-RSS PEAK-ANON ANON/SIZE
for f in "$@"; do
	size=$(stat -c %s "$f")
	events=$("$LAZYTRACE" table meta --json -i "$f" 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["meta"]["events"])')
	t0=$(now)
	tmux -S "$sock" -f /dev/null new-session -d -s bench -x 160 -y 50 \
		"$LAZYTRACE tui -i $f; sleep 600"
	pane=$(tmux -S "$sock" list-panes -t bench -F '#{pane_pid}')
	first="" done="" peak=0 apeak=0 vpid=""
	while :; do
		s=$(screen)
		t=$(now)
		[ -n "$vpid" ] || vpid=$(pgrep -P "$pane" -x lazytrace | head -1)
		if [ -n "$vpid" ]; then
			h=$(status "$vpid" VmHWM)
			a=$(status "$vpid" RssAnon)
			[ -n "$h" ] && [ "$h" -gt "$peak" ] && peak=$h
			[ -n "$a" ] && [ "$a" -gt "$apeak" ] && apeak=$a
		fi
		if [ -z "$first" ] && echo "$s" | grep -q '^cpu0 .*[-.lef!]'; then
			first=$(echo "$t - $t0" | bc)
		fi
		if echo "$s" | grep -q '^Hogs: '; then
			done=$(echo "$t - $t0" | bc)
			break
		fi
		if [ "$(echo "$t - $t0 > 3600" | bc)" = 1 ]; then
			done=-1
			break
		fi
		sleep 0.05
	done
	if [ -n "$vpid" ]; then
		h=$(status "$vpid" VmHWM)
		[ -n "$h" ] && [ "$h" -gt "$peak" ] && peak=$h
	fi
	tmux -S "$sock" send-keys -t bench q
	sleep 0.3
	tmux -S "$sock" kill-session -t bench 2>/dev/null
	printf "%-20s %7.1fM %9s %11.2fs %8.2fs %9dkB %9dkB %8.1f%%\n" \
		"$(basename "$f")" "$(echo "$size / 1048576" | bc -l)" \
		"${events:-?}" "${first:-0}" "$done" "$peak" "$apeak" \
		"$(echo "100 * $apeak * 1024 / $size" | bc -l)"
	if [ -z "$first" ] || [ "$(echo "$first > $FIRST_MAX" | bc)" = 1 ]; then
		echo "bench-tui: $(basename "$f"): first screen after ${first:-never}s (goal <= ${FIRST_MAX}s)"
		fail=1
	fi
done
exit $fail
