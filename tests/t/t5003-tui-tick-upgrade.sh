#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# n moves the cursor to a tick-upgrade that `lazytrace timeline` reports,
# at the same time, CPU and task; further n go later, N back.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

f=$DATA/lazy612-hogs.dat
lt timeline -i "$f" --kind tick-upgrade > "$TMPDIR/up.txt" ||
	fail "timeline found no tick-upgrade"

# check_upgrade: the status line's upgrade is one of timeline's; prints
# its time (so its failures go to stderr).
check_upgrade() {
	exec 3>&1 1>&2
	st=$(screen | grep -m1 '^ tick-upgrade ')
	ts=$(echo "$st" | awk '{ print $2 }')
	cpu=$(echo "$st" | awk '{ print $3 }')
	task=$(echo "$st" | awk '{ print $4 }')
	[ "$(cursor_ts)" = "$ts" ] || fail "cursor $(cursor_ts), upgrade at $ts"
	awk -v t="$ts" -v c="$cpu" -v k="$task" \
		'$1 == t && $2 == c && $3 == k && $4 == "tick-upgrade" { f = 1 }
		 END { exit !f }' "$TMPDIR/up.txt" ||
		fail "'$st' is not in lazytrace timeline"
	echo "$ts" >&3
}

tui_start -i "$f"
wait_for '^Hogs: '
keys +
keys n
wait_for '^ tick-upgrade [0-9]+\.[0-9]{6} \[[0-9]{3}\] '
t1=$(check_upgrade) || exit 1
old=$(screen | grep -m1 '^ tick-upgrade ')
keys n
wait_change "$old" '^ tick-upgrade '
t2=$(check_upgrade) || exit 1
awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(b > a) }' || fail "n: $t1 then $t2"
old=$(screen | grep -m1 '^ tick-upgrade ')
keys N
wait_change "$old" '^ tick-upgrade '
t3=$(check_upgrade) || exit 1
[ "$t3" = "$t1" ] || fail "N went to $t3, want $t1"
# The event panel shows the upgrade's event with the kernel's flags: the
# need-resched letter is B (eager, lazy and folded) on this kernel.
screen | grep -E "^> .* $t1: " | grep -Eq ' [dD.]B[hHs.]' ||
	fail "cursor event at $t1 without its B flags"
# Every line of the events panel is the kernel's own line for that event
# (its text output of the same buffer) up to the event's name: task, CPU,
# the five flag characters, time.
screen | sed -n '/^Events on cpu /,$p' | sed '1d;$d' > "$TMPDIR/panel"
[ "$(wc -l < "$TMPDIR/panel")" -ge 10 ] || fail "events panel nearly empty"
python3 - "$TMPDIR/panel" "$(kernel_text lazy612-hogs.txt.xz)" <<'PY' ||
import re, sys
# Up to the event's name: the kernel hashes the pointers of some payloads
# (hrtimer=...), which trace.dat gives raw.
head = re.compile(r"^.*? \d+\.\d{6}: \S+")
panel = [l[2:].rstrip() for l in open(sys.argv[1]) if l.strip()]
kernel = set()
for l in open(sys.argv[2]):
    m = head.match(l)
    if m and not l.startswith("#"):
        kernel.add(m.group(0))
n = 0
for p in panel:
    m = head.match(p)
    if m:
        assert m.group(0) in kernel, p
        n += 1
assert n >= 10, n
PY
	fail "events panel differs from the kernel's text"

# h: a hog episode, a tick-upgrade of one of the three hogs.
keys h
wait_for '^ hog episode [0-9.]+ \[[0-9]{3}\] sh-14[234] '

# The upgrades n visits grow with the trace: they are in a file of
# $TMPDIR without a name, mapped, not on the heap; where no such file can
# be made, on the heap, and n goes to the same one.
viewer_maps() {
	pane=$(tm list-panes -t $SESSION -F '#{pane_pid}')
	vpid=$(pgrep -P "$pane" | head -1)
	cat /proc/"$vpid"/maps
}
[ -n "${LAZYTRACE_WRAP:-}" ] || {
	viewer_maps | grep -q '/#[0-9]* (deleted)$' ||
		fail "the upgrades are not in a mapped file"
}
keys q
wait_exit 0
tui_stop
LAZYTRACE_WRAP="${LAZYTRACE_WRAP:-} env TMPDIR=$TMPDIR/none" tui_start -i "$f"
wait_for '^Hogs: '
keys +
keys n
wait_for '^ tick-upgrade [0-9]+\.[0-9]{6} \[[0-9]{3}\] '
[ "$(check_upgrade)" = "$t1" ] || fail "without a file: n went elsewhere"
viewer_maps | grep -q '(deleted)$' && fail "a file without \$TMPDIR"
keys q
wait_exit 0
echo ok
