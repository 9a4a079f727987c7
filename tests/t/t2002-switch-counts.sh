#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For every lazy612 recording, stats --json counts every sched_switch
# (the idle task's included) as preempted / yielded / blocked exactly as
# an independent count of prev_state R+, R and anything else in the
# kernel's own text output of the same buffer.
. "$(dirname "$0")/lib.sh"

for rec in lazy612-hogs lazy612-msg-lazy lazy612-msg-full; do
	txt=$(kernel_text $rec.txt.xz)
	want=$(grep ' sched_switch: ' "$txt" |
		sed -n 's/.* prev_state=\([^ ]*\) ==> .*/\1/p' |
		awk '$1 == "R+" { p++; next } $1 == "R" { y++; next } { b++ }
		     END { printf "%d %d %d\n", p, y, b }')
	for input in "$DATA/$rec.dat" "$txt"; do
		lt stats -i "$input" --json > "$TMPDIR/s.json" ||
			fail "stats $input exited $?"
		got=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
print(s["switches_preempted"], s["switches_yielded"], s["switches_blocked"])' "$TMPDIR/s.json")
		[ "$got" = "$want" ] ||
			fail "$input: switches $got, kernel text says $want"
		echo "ok $rec $(basename "$input"): $got"
	done
done
exit 0
