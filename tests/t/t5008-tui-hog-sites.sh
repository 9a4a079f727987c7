#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The hog panel shows the selected hog's call sites, as hogs --json's
# sites rows rank them, on the stock 7.2 recording with kernel stacks.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

f=$DATA/stock/stock72-lazy-nohrtick-stacks.dat
lt hogs -i "$f" --json > "$TMPDIR/hogs.json" || fail "hogs --json"
set -- $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hogs"][0]
s = [x for x in d["sites"] if x["task_id"] == h["task_id"]][0]
print(h["pid"], s["episodes"], s["function"])
' "$TMPDIR/hogs.json")
pid=$1 ep=$2 fn=$3

tui_start -i "$f"
wait_for '^Hogs: '
keys Tab
wait_for "^Sites of $pid "
screen | grep -Eq "^ +$ep $fn( |\$)" || {
	screen
	fail "no '$ep $fn' under the sites of $pid"
}
keys q
exit 0
