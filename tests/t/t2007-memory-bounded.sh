#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Memory grows with tasks and CPUs, never with events: peak RSS of
# `lazytrace stats` on a kernel text trace 10 times as long (the same
# tasks, events repeated with shifted timestamps: bench/mk-long-text.py)
# stays within 10 % of the original's. bench/bench.sh does the same
# and also measures CPU against trace-cmd.
. "$(dirname "$0")/lib.sh"

[ -x /usr/bin/time ] || skip "needs GNU time (/usr/bin/time)"
[ -z "${LAZYTRACE_WRAP:-}" ] || skip "RSS is not meaningful under $LAZYTRACE_WRAP"
! ldd "$LAZYTRACE" 2> /dev/null | grep -q libasan ||
	skip "RSS is not meaningful under AddressSanitizer"

x1=$(kernel_text lazy612-msg-full.txt.xz)
python3 "$TOP/bench/mk-long-text.py" 10 < "$x1" > "$TMPDIR/x10.txt" ||
	fail "mk-long-text.py"

rss() {	# file -> peak RSS in KB
	/usr/bin/time -f "%M" -o "$TMPDIR/rss" "$LAZYTRACE" stats -i "$1" \
		--json > "$TMPDIR/out.json" || fail "stats $1"
	cat "$TMPDIR/rss"
}

small=$(rss "$x1")
python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["meta"]["events"])' \
	"$TMPDIR/out.json" > "$TMPDIR/n1"
large=$(rss "$TMPDIR/x10.txt")
python3 - "$TMPDIR/out.json" "$(cat "$TMPDIR/n1")" <<'PY' || fail "10x trace"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["meta"]["events"] == 10 * int(sys.argv[2]), d["meta"]["events"]
assert d["summary"]["switches_preempted"] > 0
PY
echo "peak RSS: 1x $small KB, 10x $large KB"
# Within 10 % or 512 KB, whichever is more: allocator noise moves a
# 3 MB peak by a few hundred KB, while growth with events would add at
# least a megabyte over the 1.05 million extra events.
allow=$((small / 10))
[ "$allow" -ge 512 ] || allow=512
[ $((large - small)) -le "$allow" ] ||
	fail "peak RSS grew from $small KB to $large KB on a 10x longer trace"
exit 0
