#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Lost events show in the TUI's header, as stats counts them: the host's
# hog recording in the kernel's text, with the line the kernel prints
# where its ring buffer lost events on CPU 1 ("CPU:1 [LOST 987 EVENTS]")
# put in the middle; without it, no LOST in the header.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

xz -dc "$DATA/host618-hogs.txt.xz" > "$TMPDIR/whole.txt" || fail "xz"
awk 'NR == 6000 { print "CPU:1 [LOST 987 EVENTS]" } { print }' \
	"$TMPDIR/whole.txt" > "$TMPDIR/lost.txt"
n=$(lt stats -i "$TMPDIR/lost.txt" --json | python3 -c '
import json, sys
print(json.load(sys.stdin)["meta"]["lost_events"])')
[ "$n" = 987 ] || fail "stats counts $n lost events, want 987"

tui_start -i "$TMPDIR/lost.txt"
wait_for '^Hogs: '
screen | head -n 1 | grep -q ' LOST 987' || fail "no LOST 987 in the header: $(screen | head -n 1)"
keys q
wait_exit 0
tui_start -i "$TMPDIR/whole.txt"
wait_for '^Hogs: '
screen | head -n 1 | grep -q 'LOST' && fail "LOST without a loss: $(screen | head -n 1)"
keys q
wait_exit 0
echo ok
