#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The hog panel shows the selected hog's call sites, as hogs --json
# ranks them, on the stock 7.2 recording with kernel stacks.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

f=$DATA/stock/stock72-lazy-nohrtick-stacks.dat
lt hogs -i "$f" --json > "$TMPDIR/hogs.json" || fail "hogs --json"
set -- $(python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))["hogs"][0]
print(h["pid"], h["sites"][0]["episodes"], h["sites"][0]["function"])
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
