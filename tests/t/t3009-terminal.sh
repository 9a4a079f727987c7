#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lazytrace live on a terminal, like top: it redraws in place, keys sort
# the rows (h t l e u m p), H shows the latency histograms of hist and
# goes back, q ends it
# at once (exit 0, the last interval shown), the terminal's modes are
# given back, and its private instance is gone. record on a terminal
# (no command) shows its progress once a second and clears it at the end.
. "$(dirname "$0")/lib.sh"

need_tracefs
command -v tmux > /dev/null || skip "no tmux (make deps)"
cd "$TMPDIR" || fail "no TMPDIR"

SOCK=$TMPDIR/tmux.sock
tm() {
	tmux -S "$SOCK" "$@"
}
trap 'tm kill-server > /dev/null 2>&1' EXIT
# poll N WHY CMD...: until CMD succeeds, every 50 ms, N times at most
poll() {
	n=$1 why=$2
	shift 2
	i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -lt "$n" ] || { tm capture-pane -p; cat err 2> /dev/null; fail "$why"; }
		sleep 0.05
	done
}
title() {	# title ERE: the first line of the live pane matches
	tm capture-pane -p -t live | head -1 | grep -Eq "$1"
}
screen_has() {	# screen_has PANE ERE
	tm capture-pane -p -t "$1" | grep -Eq "$2"
}
tm -f /dev/null new-session -d -s live -x 120 -y 30 \
	"stty -a > $TMPDIR/stty.before; ${LAZYTRACE_WRAP:-} $LAZYTRACE live --interval 200ms 2> $TMPDIR/err; \
	 echo \$? > $TMPDIR/exit; stty -a > $TMPDIR/stty.after; sleep 600" ||
	fail "tmux"
poll 400 "no second interval on the screen" \
	screen_has live '^lazytrace live  interval [2-9]'
# redrawn in place: one title on the screen, at the top
[ "$(tm capture-pane -p -t live | grep -c '^lazytrace live  interval')" = 1 ] ||
	fail "live scrolls: $(tm capture-pane -p -t live | grep -c '^lazytrace live  interval') titles on the screen"
tm capture-pane -p -t live | head -1 | grep -q '^lazytrace live  interval' ||
	fail "the title is not on the first line"
# sorted as the keys say: h by default, p by pid (smallest first)
tm capture-pane -p -t live | head -1 | grep -q '  sort hogs (h t l e u m p; q quits)$' ||
	fail "no sort on the title: $(tm capture-pane -p -t live | head -1)"
tm send-keys -t live p
poll 100 "p did not sort by pid" title '  sort pid '
tm capture-pane -p -t live | awk '/^ +PID COMM/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { print $1 }' > pids
[ "$(wc -l < pids)" -ge 2 ] || fail "fewer than two rows"
sort -n -c pids || fail "rows not in pid order: $(tr '\n' ' ' < pids)"
# H: the latency histograms of hist, columns that add up, and back
tm send-keys -t live H
poll 100 "H showed no histograms" title '  histograms \(H: back'
tm capture-pane -p -t live > hist.txt
python3 - hist.txt <<'PY' || fail "the histogram view does not add up: $(cat hist.txt)"
import sys
rows, over, count = [], None, None
for line in open(sys.argv[1]):
    f = line.split()
    if not f or line.startswith("#") or f[0] in ("Index", "lazytrace"):
        continue
    if f[0] == "over:":
        over = [int(x) for x in f[1:]]
    elif f[0] == "count:":
        count = [int(x) for x in f[1:]]
    elif f[0].isdigit() or f[0] == "more:":
        rows.append([int(x) for x in f[1:]])
assert count and sum(count) > 0, count
assert len(open(sys.argv[1]).read().rstrip("\n").splitlines()) <= 30
for c in range(len(count)):
    assert count[c] == sum(r[c] for r in rows) + over[c], (c, count)
PY
tm send-keys -t live H
poll 100 "H did not go back to the tasks" title '  sort pid '
pane=$(tm list-panes -t live -F '#{pane_pid}')
lpid=$(pgrep -P "$pane" lazytrace | head -1)
[ -n "$lpid" ] || fail "no live process"
tm send-keys -t live q
poll 60 "live still running 3 s after q" test -s exit
[ "$(cat exit)" = 0 ] || fail "live exited $(cat exit) after q: $(cat err)"
cmp -s stty.before stty.after || { diff stty.before stty.after; fail "terminal modes not restored"; }
[ ! -d $T/instances/lazytrace-$lpid ] || fail "instance lazytrace-$lpid left"
tm kill-server > /dev/null 2>&1
# a new server: the last one may still be shutting down on its socket
SOCK=$TMPDIR/tmux-rec.sock

tm -f /dev/null new-session -d -s rec -x 150 -y 10 \
	"${LAZYTRACE_WRAP:-} $LAZYTRACE record -d 3 -o $TMPDIR/rec.dat; echo \$? > $TMPDIR/rexit; sleep 600" ||
	fail "tmux"
poll 100 "record showed no progress" screen_has rec \
	'^lazytrace record: [1-9] s, [0-9.]+ MiB of ring buffer read, [0-9]+ events lost'
poll 200 "record -d 3 still running" test -s rexit
[ "$(cat rexit)" = 0 ] || fail "record exited $(cat rexit)"
tm capture-pane -p -t rec > rec.screen
grep -q '^lazytrace record: wrote .*rec.dat' rec.screen || { cat rec.screen; fail "no summary"; }
! grep -q 'ring buffer read' rec.screen || { cat rec.screen; fail "progress line left on the screen"; }
echo "ok: q ends live, terminal restored; record's progress shown and cleared"
