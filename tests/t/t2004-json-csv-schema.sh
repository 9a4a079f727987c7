#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every --json output is a version-3 document whose every key and type
# docs/json.md documents (tests/schema/tables.py), and no key has two
# types across them; every --csv output has a header row and
# parses as CSV with one field per column; the Perfetto export parses as
# Chrome trace-event JSON.
. "$(dirname "$0")/lib.sh"
SCHEMA=$TOP/tests/schema

tables() {	# version-3 documents: docs/json.md's tables, column for column
	python3 "$SCHEMA/tables.py" "$@" ||
		fail "$* does not match docs/json.md"
}

valid() {	# schema file
	python3 "$SCHEMA/validate.py" "$SCHEMA/$1.schema.json" "$2" ||
		fail "$2 does not match $1.schema.json"
}

for rec in lazy612-hogs host618-hogs lazy612-msg-full; do
	d=$DATA/$rec.dat
	lt stats -i "$d" --json > "$TMPDIR/stats.json"; tables "$TMPDIR/stats.json"
	lt stats -i "$d" --json --pid 1-200 > "$TMPDIR/stats-pid.json"
	tables "$TMPDIR/stats-pid.json"
	lt hogs -i "$d" --json > "$TMPDIR/hogs.json"; tables "$TMPDIR/hogs.json"
	lt hogs -i "$d" --json --stacks > "$TMPDIR/hogs-stacks.json"
	tables "$TMPDIR/hogs-stacks.json"
	lt timeline -i "$d" --json > "$TMPDIR/tl.json"; tables "$TMPDIR/tl.json"
	lt table meta summary tasks hogs sites stacks latency lost "$d" --json \
		> "$TMPDIR/all.json"; tables "$TMPDIR/all.json"
	for t in events transitions requests switches; do
		lt table $t "$d" --json > "$TMPDIR/$t.json"; tables "$TMPDIR/$t.json"
		lt table $t "$d" --ndjson > "$TMPDIR/$t.nd"
		tables --ndjson $t "$TMPDIR/$t.nd"
		[ "$(wc -l < "$TMPDIR/$t.nd")" -gt 100 ] || fail "$rec: few $t"
	done
	lt stats "$d" --ndjson > "$TMPDIR/st.nd"; tables --ndjson tasks "$TMPDIR/st.nd"
	lt export -i "$d" --perfetto "$TMPDIR/p.json" || fail "export $rec"
	valid perfetto "$TMPDIR/p.json"
done
lt compare --json "$DATA/lazy612-msg-lazy.dat" "$DATA/lazy612-msg-full.dat" \
	> "$TMPDIR/cmp.json"
tables "$TMPDIR/cmp.json"
lt flags 0x26 --json > "$TMPDIR/flags.json"; tables "$TMPDIR/flags.json"
lt hogs -i "$DATA/stock/stock72-lazy-nohrtick-stacks.dat" --json --stacks \
	> "$TMPDIR/hogs-st.json"; tables "$TMPDIR/hogs-st.json"
for t in preempts preempt_groups; do
	lt preempts "$DATA/stock/stock72-lazy-nohrtick-stacks.dat" --json \
		$( [ $t = preempt_groups ] && echo --by site ) > "$TMPDIR/$t.json"
	tables "$TMPDIR/$t.json"
	lt table $t "$DATA/lazy612-hogs.dat" --ndjson > "$TMPDIR/$t.nd"
	tables --ndjson $t "$TMPDIR/$t.nd"
done
# one type per key, across every document
rm -f "$TMPDIR/p.json"
python3 "$SCHEMA/tables.py" --keys "$TMPDIR"/*.json > "$TMPDIR/keys" ||
	{ grep -B1 '\^' "$TMPDIR/keys"; fail "a key with two types, or none"; }

# compare's sides are stats' documents
python3 - "$TMPDIR/cmp.json" <<'PY' || fail "compare's sides"
import json, os, subprocess, sys
d = json.load(open(sys.argv[1]))
assert set(d) == {"version", "a", "b", "compare_preempts"}, set(d)
for side in "ab":
    s = json.loads(subprocess.run([os.environ["LAZYTRACE"], "stats", "--json",
                                   d[side]["meta"]["file"]],
                                  capture_output=True, text=True).stdout)
    del s["version"]
    assert s == d[side], side
PY

# stats says the same in text and JSON: the transitions table's rows
# are the JSON's keys and values, and its global counts add up to the
# task rows (with --idle every task is listed).
# (host618: 4 switches belonged to tasks with no transition, once unlisted)
for rec in lazy612-hogs host618-hogs; do
lt stats -i "$DATA/$rec.dat" --idle > "$TMPDIR/st.txt" || fail "stats $rec"
lt stats -i "$DATA/$rec.dat" --idle --json > "$TMPDIR/st.json" ||
	fail "stats --json $rec"
python3 - "$TMPDIR/st.txt" "$TMPDIR/st.json" <<'PY' || fail "stats text/json vocabulary: $rec"
import json, sys
d = json.load(open(sys.argv[2]))
s = d["summary"]
lines = open(sys.argv[1]).read().split("\n\n")
block = [b for b in lines if b.startswith("transitions\n")][0].splitlines()[1:]
text = {l.split()[0]: int(l.split()[1]) for l in block}
assert text == {k: s[k] for k in text}, (text, s)
for k in text:
    assert s[k] == sum(t[k] for t in d["tasks"]), k
src = ("tick", "hrtick", "timer", "irq", "direct")
assert s["upgrades"] == sum(s["upgrades_" + k] for k in src)
for k in ("preempted", "yielded", "blocked"):
    k = "switches_" + k
    assert s[k] == sum(t[k] for t in d["tasks"]), k
PY
done

# The timeline JSON is the same as the CSV, transition for transition.
d=$DATA/lazy612-hogs.dat
lt timeline -i "$d" --csv > "$TMPDIR/tl.csv" || fail "timeline --csv"
lt timeline -i "$d" --json > "$TMPDIR/tl.json"
python3 - "$TMPDIR/tl.csv" "$TMPDIR/tl.json" <<'PY' || fail "timeline csv/json"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
j = json.load(open(sys.argv[2]))["transitions"]
assert len(rows) == len(j) > 1000, (len(rows), len(j))
for r, t in zip(rows, j):
    assert int(r["ts_ns"]) == t["ts_ns"] and r["kind"] == t["kind"]
    assert int(r["pid"]) == t["pid"] and int(r["after_ns"]) <= t["ts_ns"]
PY

for cmd in stats hogs timeline; do
	lt $cmd -i "$d" --csv > "$TMPDIR/$cmd.csv" || fail "$cmd --csv exited $?"
	python3 - "$TMPDIR/$cmd.csv" <<'PY' || fail "$cmd csv"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
assert head and all(h and not h[0].isdigit() for h in head), head
assert body, "no rows"
assert all(len(r) == len(head) for r in body), "ragged rows"
for col in ("pid",):
    if col in head:
        i = head.index(col)
        assert all(r[i].isdigit() for r in body)
PY
done

# Perfetto: the trace-event structure, a track per CPU, tasks' requests.
lt export -i "$DATA/lazy612-hogs.dat" --perfetto "$TMPDIR/p.json" ||
	fail "export lazy612-hogs"
python3 - "$TMPDIR/p.json" <<'PY' || fail "perfetto structure"
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
assert all({"ph", "ts", "pid", "tid"} <= set(e) for e in ev)
names = {e["args"]["name"] for e in ev if e["ph"] == "M"}
assert "CPU 0" in names and "CPU 1" in names, names
cats = {e.get("cat") for e in ev if e["ph"] == "X"}
assert {"running", "request"} <= cats, cats
inst = {e["name"] for e in ev if e["ph"] == "i"}
assert {"fold", "tick-upgrade"} <= inst, inst
assert all(e["dur"] >= 0 for e in ev if e["ph"] == "X")
PY
exit 0
