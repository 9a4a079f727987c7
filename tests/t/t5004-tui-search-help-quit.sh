#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# / with a pid selects and highlights that task (its lane, its statistics,
# underlined cells); a keeps its lane; ? shows the keys; Enter shows an event in full; q
# exits 0 with the terminal restored; SIGTERM and Ctrl-C restore it too.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

f=$DATA/lazy612-hogs.dat
tui_start -i "$f"
wait_for '^Hogs: '
keys / 1 4 3 Enter
wait_for " Task 143 sh \\(hog\\)"
header | grep -q ' task 143 sh' || fail "header does not name the task"
screen | grep -Eq '^143 sh +[-.lef! ]*l' || fail "no lane for 143"
screen | grep -Eq '^> *[0-9]+ +143 sh ' || fail "143 not marked in the hog list"
# Its cells are underlined (SGR 4) on the CPU rows.
tm capture-pane -e -p -t $SESSION | grep 'cpu1 ' | grep -q '\[[0-9;]*4[;m]' ||
	fail "no highlighted cell on cpu1"
# The lazy request count is the one stats reports.
lazy=$(lt stats -i "$f" --csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	NR > 1 && $c["pid"] == 143 { print $c["lazy"] }')
[ -n "$lazy" ] && screen | grep -q "lazy $lazy " ||
	fail "task panel lazy count, stats says '$lazy'"

# a keeps 143's lane; selecting another hog adds its own below.
keys a Tab
wait_for '^ selected hog 14[24] sh'
screen | grep -Eq '^143 sh ' || fail "143's lane was not kept"
screen | grep -Eq '^14[24] sh ' || fail "no lane for the next hog"
keys A / 1 4 3 Enter
wait_for '^ selected 143 sh'
[ "$(screen | grep -Ec '^14[234] sh ')" = 1 ] || fail "A kept lanes"

# A comm: its busiest task; the same search again: the next one.
keys c / s h Enter
wait_for '^ selected [0-9]+ sh, match 1 of [0-9]+'
first=$(screen | sed -n 's/^ selected \([0-9]*\) sh, match 1 .*/\1/p')
keys / s h Enter
wait_for '^ selected [0-9]+ sh, match 2 of [0-9]+'
screen | grep -q "^ selected $first sh" && fail "the second search found $first again"

keys / n o s u c h Enter
wait_for "no task matches 'nosuch'"

keys ?
wait_for 'lazytrace tui: keys'
screen | grep -q 'zoom in / zoom out' || fail "help lacks zoom"
screen | grep -q 'next / previous tick-upgrade' || fail "help lacks n/N"
keys Escape
i=0
while screen | grep -q 'lazytrace tui: keys' && [ $i -lt $POLLS ]; do
	sleep 0.05; i=$((i + 1))
done
screen | grep -q 'lazytrace tui: keys' && fail "help did not close"

keys Enter
wait_for 'common_flags 0x[0-9a-f]{2} +common_preempt_count'
keys Escape
keys q
wait_exit 0
screen | grep -q '^cpu0 ' && fail "the viewer's screen is still shown"
tui_stop

# SIGTERM: the terminal comes back, and the exit is the signal's.
tui_start -i "$f"
wait_for '^Hogs: '
pid=$(tm list-panes -t $SESSION -F '#{pane_pid}')
vpid=$(pgrep -P "$pid" | head -1)
[ -n "$vpid" ] || fail "no viewer process"
kill -TERM "$vpid"
wait_exit 143
tui_stop

# Ctrl-C (SIGINT from the terminal): the same, exit 130.
tui_start -i "$f"
wait_for '^Hogs: '
keys C-c
wait_exit 130
echo ok
