#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# + and - halve and double the ruler's span (and its labels change);
# Right and Left move the cursor, and the ruler with it, by an eighth of
# the screen; Home and End reach the trace's start and end.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

tui_start -i "$DATA/lazy612-hogs.dat"
wait_for '^Hogs: '
span0=$(span_ns)
[ -n "$span0" ] && [ "$span0" -gt 0 ] || fail "no span in '$(header)'"
ruler0=$(screen | grep -m1 '^time ')

# ratio A B LO HI: A/B within [LO, HI]
ratio() {
	awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" \
		'BEGIN { r = a / b; exit !(r >= lo && r <= hi) }'
}

keys +
wait_change "$ruler0" '^time '
span1=$(span_ns)
ratio "$span1" "$span0" 0.45 0.55 || fail "+: span $span0 -> $span1"
keys + + +
wait_for " span [0-9.]+[mu]?s "
i=0
while [ $i -lt 100 ]; do
	span4=$(span_ns)
	ratio "$span4" "$span0" 0.05 0.07 && break
	sleep 0.05; i=$((i + 1))
done
ratio "$span4" "$span0" 0.05 0.07 || fail "4 x +: span $span0 -> $span4"
keys -
i=0
while [ $i -lt 100 ]; do
	span3=$(span_ns)
	ratio "$span3" "$span4" 1.9 2.1 && break
	sleep 0.05; i=$((i + 1))
done
ratio "$span3" "$span4" 1.9 2.1 || fail "-: span $span4 -> $span3"

# Right: the cursor moves later by about an eighth of the span.
c0=$(cursor_ts)
ruler=$(screen | grep -m1 '^time ')
keys Right
wait_change "$ruler" '^time '
c1=$(cursor_ts)
awk -v a="$c0" -v b="$c1" -v s="$span3" \
	'BEGIN { d = (b - a) * 1e9; exit !(d > s / 10 && d < s / 6) }' ||
	fail "Right: cursor $c0 -> $c1 with span $span3"
ruler=$(screen | grep -m1 '^time ')
keys Left
wait_change "$ruler" '^time '
[ "$(cursor_ts)" = "$c0" ] || fail "Left: cursor $(cursor_ts), want $c0"

# End then Home: the ruler's first label is near the trace's first event.
first=$(lt report -i "$DATA/lazy612-hogs.dat" | head -1 |
	sed -n 's/.*\] [^ ]* *\([0-9]*\.[0-9]*\): .*/\1/p')
ruler=$(screen | grep -m1 '^time ')
keys End
wait_change "$ruler" '^time '
ruler=$(screen | grep -m1 '^time ')
keys Home
wait_change "$ruler" '^time '
lab=$(screen | grep -m1 '^time ' | awk '{ print $2 }')
awk -v a="$first" -v b="$lab" -v s="$span3" \
	'BEGIN { d = (b - a) * 1e9; exit !(d >= 0 && d < s / 4) }' ||
	fail "Home: first label $lab, trace starts $first"
keys q
wait_exit 0
echo ok
