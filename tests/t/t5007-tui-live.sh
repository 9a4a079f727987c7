#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lazytrace tui --live: the timeline of this machine grows while a
# CPU-bound loop runs (also while the find prompt is open), / finds the
# loop in the last interval's analysis,
# and on Ctrl-C the terminal is restored and the private tracefs instance
# is gone.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

need_tracefs

sh -c 'while :; do :; done' &
loop=$!
tui_start --live
trap 'kill $loop 2>/dev/null; tui_stop' EXIT
wait_for '^ lazytrace tui  live .* live [0-9]+s'
wait_for '^Hogs: [0-9]+ in the last interval'
pane=$(tm list-panes -t $SESSION -F '#{pane_pid}')
vpid=$(pgrep -P "$pane" | head -1)
[ -n "$vpid" ] || fail "no viewer process"
[ -d "$T/instances/lazytrace-$vpid" ] || fail "no instance lazytrace-$vpid"
screen | grep -Eq '^cpu0 +>?[-.lef! ]*[-.lef!]' || fail "no cpu0 row"
# span_grows WHAT: the header's span gets longer within POLLS polls
span_grows() {
	s=$(span_ns)
	i=0
	while [ $i -lt $POLLS ] && [ "$(span_ns)" -le "$s" ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ "$(span_ns)" -gt "$s" ] || fail "the live span stays $s$1"
}
# The timeline grows: the header's span gets longer.
span_grows ""
# The find prompt is a mode of the main loop: while it is open, the
# trace is still read and the timeline still grows.
keys / $loop
wait_for "^find pid or comm: $loop"
span_grows " while the prompt is open"
screen | grep -q "^find pid or comm: $loop" || fail "the prompt closed by itself"
keys Enter
wait_for " Task $loop sh"
keys C-c
wait_exit 130
[ -d "$T/instances/lazytrace-$vpid" ] && fail "instance lazytrace-$vpid left"
exit 0
