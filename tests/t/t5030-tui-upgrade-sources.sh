#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# On stock 7.2 with HRTICK the slice timer, not the tick, forces the hogs
# off: the header names the kernel's setup, n goes to an upgrade whose
# source is hrtick (one `lazytrace timeline` reports at the same time and
# CPU), and zoomed in the cell carries the hrtick mark '^', not the tick's.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

f=$DATA/stock/stock72-lazy-hrtick.dat
lt timeline -i "$f" --kind upgrade > "$TMPDIR/up.txt" || fail "timeline"
grep -q 'source=hrtick' "$TMPDIR/up.txt" || fail "no hrtick upgrade in timeline"

tui_start -i "$f"
wait_for '^Hogs: '
screen | head -1 | grep -q '7.2.13+deb14-amd64 lazy HZ=250 HRTICK' ||
	fail "header lacks the setup: $(screen | head -1)"
screen | grep -q '\^ hrtick' || fail "legend lacks the hrtick mark"
keys n
wait_for '^ upgrade [0-9]+\.[0-9]{6} \[[0-9]{3}\] .*source=hrtick'
st=$(screen | grep -m1 '^ upgrade ')
ts=$(echo "$st" | awk '{ print $2 }')
cpu=$(echo "$st" | awk '{ print $3 }' | tr -d '[]')
grep -Eq "^ *$ts \[$cpu\] .* upgrade .*source=hrtick" "$TMPDIR/up.txt" ||
	fail "'$st' is not an hrtick upgrade of lazytrace timeline"
# zoom in until a cell is narrower than a tick: the mark shows
i=0
while [ $i -lt 14 ]; do keys +; i=$((i + 1)); done
wait_for '^cpu[0-9]+ .*\^'
screen | grep -E "^cpu[0-9]+ " | grep -q "!" &&
	fail "a tick mark where only hrtick upgraded"
keys q
exit 0
