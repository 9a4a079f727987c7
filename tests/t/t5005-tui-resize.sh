#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The viewer follows a resize of its window: at 80x24 and at 150x50 every
# part is drawn once, in place, and nothing of the old size is left over.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

# layout_ok COLS LINES: the screen as it should be; else why in $why.
layout_ok() {
	s=$(screen)
	n=$(echo "$s" | wc -l)
	why="$n lines, want $2"
	[ "$n" = "$2" ] || return 1
	why="header not on top"
	echo "$s" | head -1 | grep -q '^ lazytrace tui ' || return 1
	why="status not at the bottom"
	echo "$s" | tail -1 | grep -q '^ q quit ' || return 1
	for part in '^ lazytrace tui ' '^time ' '^cpu0 ' '^cpu1 ' '^\. idle ' \
		    '^Hogs: ' '^Events on cpu ' '^ q quit '; do
		c=$(echo "$s" | grep -c -- "$part")
		why="'$part' drawn $c times at $1x$2"
		[ "$c" = 1 ] || return 1
	done
	why="lines wider than $1"
	[ "$(echo "$s" | awk -v w="$1" 'length($0) > w' | wc -l)" = 0 ] ||
		return 1
	# The ruler's tick marks fill the width: it is drawn for it.
	w=$(echo "$s" | sed -n 3p | awk '{ print length($0) }')
	why="ruler is $w wide at $1 columns"
	[ "$w" -gt $(($1 - 10)) ] || return 1
	return 0
}

# check_layout COLS LINES: wait for it (a redraw may be under way).
check_layout() {
	i=0
	while [ $i -lt $POLLS ]; do
		layout_ok "$1" "$2" && return 0
		sleep 0.05
		i=$((i + 1))
	done
	screen
	fail "$why"
}

tui_start -i "$DATA/lazy612-hogs.dat"
wait_for '^Hogs: '
check_layout 120 40
tm resize-window -t $SESSION -x 80 -y 24
check_layout 80 24
tm resize-window -t $SESSION -x 150 -y 50
check_layout 150 50
# Keys still work after the resizes, and the panels follow.
keys / 1 4 3 Enter
wait_for ' Task 143 sh \(hog\)'
[ "$(screen | wc -l)" = 50 ] || fail "not 50 lines after a key"
[ "$(screen | grep -c '^143 sh ')" = 1 ] || fail "143's lane not drawn once"
screen | tail -1 | grep -q '^ selected 143 sh' || fail "status line not at the bottom"
keys q
wait_exit 0
echo ok
