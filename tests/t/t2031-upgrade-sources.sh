#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every output names each upgrade's source the same way: stats' global and
# per-task upgrades_by_source, the timeline (JSON, CSV, text), the hogs
# and the Perfetto export count the same upgrades by the same sources, on
# our own 6.12 recording (tick and direct upgrades) and on stock 7.2 with
# HRTICK (hrtick upgrades). The JSON validates against the schemas.
. "$(dirname "$0")/lib.sh"

SCHEMA=$(dirname "$0")/../schema

for f in "$DATA/lazy612-hogs.dat" "$DATA/stock/stock72-lazy-hrtick.dat"; do
	n=$(basename "$f" .dat)
	lt stats -i "$f" --json > "$TMPDIR/$n.stats.json" || fail "stats $n"
	lt timeline -i "$f" --json > "$TMPDIR/$n.tl.json" || fail "timeline $n"
	lt timeline -i "$f" --csv > "$TMPDIR/$n.tl.csv" || fail "timeline csv $n"
	lt export --perfetto "$TMPDIR/$n.pf.json" -i "$f" || fail "export $n"
	lt hogs -i "$f" --json > "$TMPDIR/$n.hogs.json"
	[ $? -le 1 ] || fail "hogs $n"
	python3 "$SCHEMA/tables.py" "$TMPDIR/$n.stats.json" \
		"$TMPDIR/$n.hogs.json" || fail "$n: stats or hogs --json"
	python3 "$SCHEMA/validate.py" "$SCHEMA/perfetto.schema.json" \
		"$TMPDIR/$n.pf.json" || fail "$n perfetto schema"
	python3 - "$TMPDIR/$n" <<'PY' || fail "$n: sources differ"
import collections, csv, json, sys
b = sys.argv[1]
SRC = ("tick", "hrtick", "timer", "irq", "direct")
def by_source(r):
    return {k: r["upgrades_" + k] for k in SRC if r["upgrades_" + k]}
st = json.load(open(b + ".stats.json"))
want = by_source(st["summary"])
assert want, "no upgrades"
tl = json.load(open(b + ".tl.json"))["transitions"]
got = collections.Counter(t["source"] for t in tl
                          if t["kind"] in ("upgrade", "tick-upgrade"))
assert dict(got) == want, (got, want)
assert not any(t["source"] is not None for t in tl
               if t["kind"] not in ("upgrade", "tick-upgrade"))
rows = list(csv.DictReader(open(b + ".tl.csv")))
got = collections.Counter(r["source"] for r in rows if r["source"])
assert dict(got) == want, (got, want)
pf = json.load(open(b + ".pf.json"))["traceEvents"]
got = collections.Counter(e["args"]["source"] for e in pf
                          if e.get("ph") == "i" and "source" in e.get("args", {}))
assert dict(got) == want, (got, want)
# per task, the same
per = collections.defaultdict(collections.Counter)
for t in tl:
    if t["source"] is not None:
        per[t["pid"]][t["source"]] += 1
hogs = json.load(open(b + ".hogs.json"))["hogs"]
for h in hogs:
    assert by_source(h) == dict(per[h["pid"]]), h
PY
done
exit 0
