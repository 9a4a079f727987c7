#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lazytrace tui on large traces: time to the first screen (ruler and CPU
# rows drawn, while the input is still being read), time to the complete
# summary (the hog list shown), and the viewer's peak memory, measured
# from outside in a tmux pane, as a user would see it.
#
#   bench/bench-tui.sh [TRACE...]      default: tests/data/lazy612-msg-full.dat
#   BENCH_RECORD=S bench/bench-tui.sh  also record S seconds of two pipe
#                                      loops (root, tracefs) into
#                                      bench/data/tui-S.dat and measure it
#
# PEAK-RSS is VmHWM; it includes the trace.dat pages libtracecmd maps from
# the file, which the kernel may drop at will. PEAK-ANON is the largest
# RssAnon seen: the memory that is really the viewer's.
#
# Results (2 vCPU VM, Debian 12, 2026-12-03; x10.txt: the kernel text of
# lazy612-msg-full ten times over, bench/mk-long-text.py; tui-16.dat:
# BENCH_RECORD=16, trace.dat v6 uncompressed):
#
# TRACE                  SIZE    EVENTS FIRST-SCREEN  COMPLETE   PEAK-RSS  PEAK-ANON
# lazy612-msg-full.dat   1.0M    116623        0.24s     0.24s    20872kB    17472kB
# x10.txt              142.5M   1166230        0.16s     1.06s    10236kB     7260kB
# tui-16.dat           854.3M  10424550        0.31s     4.14s    47712kB    24940kB
#
# The first screen comes before the input is read: the timeline fills in
# behind it. Memory is the summary's fixed-size bins (per CPU), not the
# events: 25 MB for 10 M events, 2.9 % of the file.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
LAZYTRACE=${LAZYTRACE:-$top/lazytrace}
command -v tmux >/dev/null 2>&1 || { echo "bench-tui: needs tmux"; exit 77; }
command -v bc >/dev/null 2>&1 || { echo "bench-tui: needs bc"; exit 77; }
[ -x "$LAZYTRACE" ] || { echo "bench-tui: build first (make)"; exit 2; }

if [ -n "${BENCH_RECORD:-}" ]; then
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
	[ $# -gt 0 ] || set -- "$top/tests/data/lazy612-msg-full.dat"
	set -- "$@" "$big"
fi
[ $# -gt 0 ] || set -- "$top/tests/data/lazy612-msg-full.dat"

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
	events=$("$LAZYTRACE" stats --json -i "$f" 2>/dev/null |
		grep -o '"events": *[0-9]*' | head -1 | grep -o '[0-9]*$')
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
done
