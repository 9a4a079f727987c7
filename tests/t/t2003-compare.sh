#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# compare: the same messaging load in lazy and in full mode. Full mode
# preempts (R+) far more; lazy mode yields (R) more, and only lazy mode
# has lazy requests.
. "$(dirname "$0")/lib.sh"

A=$DATA/lazy612-msg-lazy.dat
B=$DATA/lazy612-msg-full.dat
lt compare "$A" "$B" > "$TMPDIR/cmp.txt" || fail "compare exited $?"
cat "$TMPDIR/cmp.txt"
set -- $(grep -m1 '^  preempted ' "$TMPDIR/cmp.txt")
[ "$3" -gt "$2" ] || fail "text: preempted full $3 <= lazy $2"
grep -q '^  tick_upgrades ' "$TMPDIR/cmp.txt" || fail "no tick_upgrades row"

lt compare --json "$A" "$B" > "$TMPDIR/cmp.json" || fail "compare --json"
lt stats -i "$A" --json > "$TMPDIR/a.json" || fail "stats --json"
python3 - "$TMPDIR/cmp.json" "$TMPDIR/a.json" <<'PY' || fail "compare json"
import json, sys
d = json.load(open(sys.argv[1]))
a, b = d["a"], d["b"]
sa, sb = a["summary"], b["summary"]
assert sb["switches_preempted"] > sa["switches_preempted"], (sa, sb)
assert sa["switches_yielded"] > sb["switches_yielded"]
assert sa["lazy"] > 0 and sb["lazy"] == 0
assert a["meta"]["lazy_preemption"] and not b["meta"]["lazy_preemption"]
lz = [l for l in a["latency"] if l["pid"] is None and l["kind"] == "lazy_served"]
assert lz[0]["count"] == sa["lazy"]
# one vocabulary: compare's side is what stats says, key for key
st = json.load(open(sys.argv[2]))
assert d["version"] == st.pop("version") == 3
assert a == st
PY
lt compare --csv "$A" "$B" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
r = {x["metric"]: x for x in rows}
assert int(r["switches.preempted"]["b"]) > int(r["switches.preempted"]["a"])
' || fail "compare csv"
expect_exit 2 lt compare "$A"
expect_exit 2 lt compare "$A" "$TMPDIR/missing.dat"
exit 0
