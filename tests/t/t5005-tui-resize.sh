#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The viewer follows a resize of its window: at 80x24 and at 150x50 every
# part is drawn once, in place, and nothing of the old size is left over.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

# check_layout COLS LINES
check_layout() {
	s=$(screen)
	n=$(echo "$s" | wc -l)
	[ "$n" = "$2" ] || fail "$n lines, want $2"
	echo "$s" | head -1 | grep -q '^ lazytrace tui ' || fail "header not on top"
	echo "$s" | tail -1 | grep -q '^ q quit ' || fail "status not at the bottom"
	for part in '^ lazytrace tui ' '^time ' '^cpu0 ' '^cpu1 ' '^\. idle ' \
		    '^Hogs: ' '^Events on cpu ' '^ q quit '; do
		c=$(echo "$s" | grep -c -- "$part")
		[ "$c" = 1 ] || fail "'$part' drawn $c times at $1x$2"
	done
	long=$(echo "$s" | awk -v w="$1" 'length($0) > w' | wc -l)
	[ "$long" = 0 ] || fail "lines wider than $1"
	# The ruler's tick marks fill the width: it is drawn for it.
	w=$(echo "$s" | sed -n 3p | awk '{ print length($0) }')
	[ "$w" -gt $(($1 - 10)) ] || fail "ruler is $w wide at $1 columns"
}

tui_start -i "$DATA/lazy612-hogs.dat"
wait_for '^Hogs: '
check_layout 120 40
tm resize-window -t $SESSION -x 80 -y 24
wait_for ' span .* cursor'
i=0
while [ "$(screen | wc -l)" != 24 ] && [ $i -lt $POLLS ]; do
	sleep 0.05; i=$((i + 1))
done
sleep 0.2
check_layout 80 24
tm resize-window -t $SESSION -x 150 -y 50
i=0
while [ "$(screen | sed -n 3p | awk '{ print length($0) }')" -lt 140 ] &&
      [ $i -lt $POLLS ]; do
	sleep 0.05; i=$((i + 1))
done
sleep 0.2
check_layout 150 50
# Keys still work after the resizes.
keys +
wait_for '^Hogs: '
keys q
wait_exit 0
echo ok
