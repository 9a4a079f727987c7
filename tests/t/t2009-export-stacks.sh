#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# export --perfetto attaches the kernel stack a tick took to the
# tick-upgrade it made, on the stock 7.2 recording with stacks: the dd
# readers' tick-upgrades carry stacks through read_zero; nothing else
# carries a stack. The stack is the library's: each tick-upgrade's is the
# one the transitions table gives it (the stack the stacks and sites
# tables count its request under), in every trace with stacks.
. "$(dirname "$0")/lib.sh"

dat=$DATA/stock/stock72-lazy-nohrtick-stacks.dat
lt export -i "$dat" --perfetto "$TMPDIR/p.json" || fail "export"
# the first line of the text timeline is its header
n=$(lt timeline -i "$dat" --kind tick-upgrade | tail -n +2 | wc -l)
dd=$(lt hogs -i "$dat" --csv | awk -F, '$3 == "dd" { printf "%s ", $2 }')
[ -n "$dd" ] || fail "no dd hogs"
python3 - "$TMPDIR/p.json" "$n" $dd <<'PY' || fail "stacks in the export"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
want = int(sys.argv[2])
tu = [e for e in ev if e["name"] == "tick-upgrade"]
assert len(tu) == want, (len(tu), want)
for e in ev:
    if "stack" in e.get("args", {}):
        assert e["name"] == "tick-upgrade", e
        a = e["args"]
        assert a["site"] in a["stack"] or a["site"] == "[unknown]", a
pids = {int(p) for p in sys.argv[3:]}
dd = [e for e in tu if e["tid"] in pids]
with_stack = [e for e in dd if "stack" in e.get("args", {})]
via = [e for e in with_stack if "read_zero" in e["args"]["stack"]]
print(f"{len(tu)} tick-upgrades, {len(dd)} of dd, {len(with_stack)} "
      f"with a stack, {len(via)} through read_zero")
# The tick-upgrades come with the analysis of issue 10 (__resched_curr
# from sched_tick on 7.2); before it this trace has none to look at.
if want:
    assert len(dd) >= 300 and len(with_stack) >= 0.95 * len(dd)
    assert len(via) >= 0.9 * len(with_stack)
PY

# The library's rule, on every trace with stacks: the tick-upgrades'
# stacks and sites are the transitions table's, no more, no fewer.
for dat in "$dat" "$DATA/vm/lazyvm-hogs-stacks.dat" "$DATA/vm/lazyvm-tc-stacks.dat"; do
	lt export -i "$dat" --perfetto "$TMPDIR/q.json" || fail "export $dat"
	lt table transitions -i "$dat" --kind tick-upgrade --csv > "$TMPDIR/tu.csv" ||
		fail "transitions $dat"
	python3 - "$TMPDIR/q.json" "$TMPDIR/tu.csv" <<'PY' || fail "stacks of $dat"
import csv, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
got = sorted((round(e["ts"], 3), e["tid"],
              ";".join(e["args"].get("stack", [])), e["args"].get("site", ""))
             for e in ev if e["name"] == "tick-upgrade")
want = sorted((round(int(r["ts_ns"]) / 1000, 3), int(r["pid"]), r["stack"],
               r["site"]) for r in csv.DictReader(open(sys.argv[2])))
assert got == want, [g for g in got if g not in want][:3]
print(sys.argv[1], len(got), "tick-upgrades,",
      sum(1 for g in got if g[2]), "with the library's stack")
PY
done
exit 0
