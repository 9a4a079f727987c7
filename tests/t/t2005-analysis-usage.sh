#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The analysis commands' exit codes: --help 0, bad usage 2, unreadable or
# corrupt input 2 with a message naming the file, nothing found 1.
. "$(dirname "$0")/lib.sh"

for cmd in stats hogs timeline compare export; do
	lt $cmd --help > "$TMPDIR/help" || fail "$cmd --help"
	grep -q "usage: lazytrace $cmd" "$TMPDIR/help" || fail "$cmd usage"
	expect_exit 2 lt $cmd --no-such-option 2> /dev/null
done
expect_exit 2 lt stats -i "$TMPDIR/missing.dat" 2> "$TMPDIR/err"
grep -q missing.dat "$TMPDIR/err" || fail "error does not name the file"
expect_exit 2 lt hogs --hz 0 -i "$DATA/lazy612-hogs.dat" 2> /dev/null
expect_exit 2 lt hogs --tick bogus -i "$DATA/lazy612-hogs.dat" 2> /dev/null
expect_exit 2 lt timeline --kind nonsense -i "$DATA/lazy612-hogs.dat" 2> /dev/null
expect_exit 2 lt export -i "$DATA/lazy612-hogs.dat" 2> /dev/null
expect_exit 2 lt stats -i "$DATA/lazy612-hogs.dat" extra 2> /dev/null

# A truncated trace.dat: an error naming the file, never a crash.
head -c 200000 "$DATA/lazy612-hogs.dat" > "$TMPDIR/cut.dat"
lt stats -i "$TMPDIR/cut.dat" > /dev/null 2> "$TMPDIR/err"
rc=$?
[ $rc = 0 ] || [ $rc = 2 ] || fail "truncated input exited $rc"
[ $rc = 0 ] || grep -q cut.dat "$TMPDIR/err" || fail "error does not name cut.dat"

# Thresholds are options: demanding 1000 episodes leaves no hog.
expect_exit 1 lt hogs -i "$DATA/lazy612-hogs.dat" --hog-episodes 1000 \
	--hog-pending-ticks 1000 > /dev/null
# and a shorter forced tick still finds the three hogs
lt hogs -i "$DATA/lazy612-hogs.dat" --tick 4ms --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["meta"]["tick_ns"] == 4000000 and d["meta"]["tick_source"] == "option"
assert sorted(h["pid"] for h in d["hogs"]) == [142, 143, 144]' ||
	fail "--tick 4ms"
# timeline filters
lt timeline -i "$DATA/lazy612-hogs.dat" --pid 142 --kind tick-upgrade --csv |
	python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
assert len(rows) > 50 and all(r["pid"] == "142" and r["kind"] == "tick-upgrade" for r in rows)' ||
	fail "timeline filters"
exit 0
