#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lazytrace tui outside a terminal, and the tmux helpers of the t5* tests.
#
# Sourced with T5_LIB=1 by the other t5* tests, it only defines the
# helpers: the viewer runs in a detached tmux session on a private socket,
# 120x40; keys go in with send-keys and the screen comes back with
# capture-pane; waits poll the screen every 50 ms instead of sleeping.
. "$(dirname "$0")/lib.sh"

command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"

SOCK=$TMPDIR/tmux.sock
STARTS=0
SESSION=lt5
# Under ASan a first screen takes longer: polls give up after 20 s.
POLLS=400

tm() {
	tmux -S "$SOCK" "$@"
}

tui_stop() {
	tm kill-server >/dev/null 2>&1
	return 0
}

# tui_start ARGS...: the viewer in a 120x40 pane; when it exits the pane
# keeps its exit status and the terminal's modes in $TMPDIR. The pane's
# shell survives a Ctrl-C meant for the viewer (a trap, not an ignore,
# which the viewer would inherit).
tui_start() {
	rm -f "$TMPDIR/exit" "$TMPDIR/stty" "$TMPDIR/stderr"
	# A new server each time: the last one may still be shutting down.
	STARTS=$((STARTS + 1))
	SOCK=$TMPDIR/tmux.$STARTS.sock
	trap tui_stop EXIT
	tm -f /dev/null new-session -d -s $SESSION -x 120 -y 40 \
		"trap true INT; ${LAZYTRACE_WRAP:-} $LAZYTRACE tui $* 2>$TMPDIR/stderr; \
		 echo \$? > $TMPDIR/exit; stty -a > $TMPDIR/stty 2>&1; sleep 600" ||
		fail "cannot start tmux"
}

screen() {
	tm capture-pane -p -t $SESSION
}

keys() {
	tm send-keys -t $SESSION "$@"
}

# wait_for ERE: until a line of the screen matches.
wait_for() {
	i=0
	while [ $i -lt $POLLS ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.05
		i=$((i + 1))
	done
	screen
	fail "screen never showed /$1/"
}

# wait_change OLD_LINE ERE: until the first line matching ERE differs.
wait_change() {
	i=0
	while [ $i -lt $POLLS ]; do
		now=$(screen | grep -E -m1 -- "$2")
		[ -n "$now" ] && [ "$now" != "$1" ] && return 0
		sleep 0.05
		i=$((i + 1))
	done
	screen
	fail "line /$2/ never changed from '$1'"
}

header() {
	screen | grep -m1 '^ lazytrace tui '
}

# The header's "span 20.830ms" in ns.
span_ns() {
	header | sed -n 's/.* span \([0-9.]*\)\([a-z]*\) .*/\1 \2/p' |
		awk '{ m = $2 == "s" ? 1e9 : $2 == "ms" ? 1e6 : $2 == "us" ? 1e3 : 1;
		       printf "%.0f\n", $1 * m }'
}

# The header's "cursor 9.933627" as it prints it.
cursor_ts() {
	header | sed -n 's/.* cursor \([0-9.]*\) .*/\1/p'
}

# Wait for the viewer to end; check exit status 0 and a sane terminal.
wait_exit() {
	i=0
	while [ $i -lt $POLLS ] && [ ! -s "$TMPDIR/stty" ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -s "$TMPDIR/exit" ] || fail "the viewer did not exit"
	st=$(cat "$TMPDIR/exit")
	[ -s "$TMPDIR/stderr" ] && cat "$TMPDIR/stderr"
	[ "$st" = "$1" ] || fail "the viewer exited $st, want $1"
	grep -Eq '(^| )icanon( |$)' "$TMPDIR/stty" &&
		grep -Eq '(^| )echo( |$)' "$TMPDIR/stty" ||
		fail "terminal not restored: $(cat "$TMPDIR/stty")"
}

[ "${T5_LIB:-}" = 1 ] && return 0

# Not a terminal: a one-line error and exit 2, before touching anything.
out=$(lt tui -i "$DATA/lazy612-hogs.dat" </dev/null 2>&1)
[ $? = 2 ] || fail "tui without a terminal should exit 2"
echo "$out" | grep -q "needs a terminal" || fail "no message: $out"
expect_exit 0 lt tui --help >/dev/null
lt tui --bogus >/dev/null 2>&1
[ $? = 2 ] || fail "bad option should exit 2"

# A missing file: the reader's message names it, exit 2, no screen.
tui_start -i "$TMPDIR/missing.dat"
wait_exit 2
grep -q "missing.dat" "$TMPDIR/stderr" || fail "error does not name the file"
tui_stop
echo "ok"
