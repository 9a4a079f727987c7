#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lazytrace hogs on the real recordings (roles in tests/data/README.md):
# lazy612-hogs has exactly three in-kernel hogs, 142-144, sharing CPU 1
# with the user busy loop (~25% each); the busy loop 140, the sleeper 139
# and the RT task 145 are not hogs. The same holds on the kernel's text
# output of the same buffer. host618-hogs (preempt=none) has no lazy
# transition, and the output says the kernel ran without lazy preemption.
. "$(dirname "$0")/lib.sh"

check_hogs() {	# json file
	python3 - "$1" <<'PY' || fail "hogs on $1"
import json, sys
d = json.load(open(sys.argv[1]))
hogs = {h["pid"]: h for h in d["hogs"]}
assert sorted(hogs) == [142, 143, 144], f"hogs {sorted(hogs)}"
for pid, h in hogs.items():
    assert h["episodes"] > 0, (pid, h)
    assert h["tick_upgrades"] > 0, (pid, h)
    assert abs(h["lifetime_share"] - 0.25) <= 0.05, (pid, h["lifetime_share"])
    # they started after the trace did: a smaller share of the trace
    assert 0.1 < h["trace_share"] < h["lifetime_share"], (pid, h)
    assert h["lazy"] >= h["episodes"], (pid, h)
for pid in (139, 140, 145):
    assert pid not in hogs, pid
# ranked by total pending time
p = [h["pending_ns"] for h in d["hogs"]]
assert p == sorted(p, reverse=True), p
# HZ=250 kernel: the tick is 4 ms
m = d["meta"]
assert abs(m["tick_ns"] - 4000000) < 40000, m["tick_ns"]
assert m["tick_source"] == "timer_function", m["tick_source"]
assert m["lazy_preemption"] is True
PY
}

lt hogs -i "$DATA/lazy612-hogs.dat" --json > "$TMPDIR/hogs.json" ||
	fail "hogs exited $?"
check_hogs "$TMPDIR/hogs.json"
txt=$(kernel_text lazy612-hogs.txt.xz)
lt hogs -i "$txt" --json > "$TMPDIR/hogs-txt.json" || fail "hogs (text) exited $?"
check_hogs "$TMPDIR/hogs-txt.json"

# The busy loop, the sleeper and the RT task: no episode at all.
lt stats -i "$DATA/lazy612-hogs.dat" --json > "$TMPDIR/stats.json" ||
	fail "stats exited $?"
python3 - "$TMPDIR/stats.json" <<'PY' || fail "non-hogs"
import json, sys
d = json.load(open(sys.argv[1]))
t = {x["pid"]: x for x in d["tasks"]}
assert t[140]["lazy"] > 100, t[140]             # busy loop gets lazy requests
assert t[140]["lazy_p50_ns"] < 1000000, t[140]  # honoured fast
for pid in (139, 140, 145):
    assert not t[pid]["hog"], pid
for pid in (142, 143, 144):
    assert t[pid]["hog"], pid
PY

# The text table names the hogs too.
lt hogs -i "$DATA/lazy612-hogs.dat" > "$TMPDIR/hogs.txt" || fail "hogs text"
for pid in 142 143 144; do
	grep -Eq "^ +[0-9]+ +$pid +sh " "$TMPDIR/hogs.txt" || fail "no $pid in table"
done

# host618: preempt=none, no lazy transitions, no hogs (exit 1), and says so.
expect_exit 1 lt hogs -i "$DATA/host618-hogs.dat" > "$TMPDIR/h618.txt"
grep -q "without lazy preemption" "$TMPDIR/h618.txt" ||
	fail "host618 hogs does not say there was no lazy preemption"
lt stats -i "$DATA/host618-hogs.dat" --json > "$TMPDIR/s618.json" ||
	fail "stats host618"
python3 - "$TMPDIR/s618.json" <<'PY' || fail "host618 stats"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["meta"]["lazy_preemption"] is False
tr = d["summary"]
assert tr["lazy"] == 0 and tr["upgrades"] == 0 and tr["tick_upgrades"] == 0, tr
assert tr["eager"] > 0, tr
assert not any(t["hog"] for t in d["tasks"])
PY
lt stats -i "$DATA/host618-hogs.dat" | grep -q "without lazy preemption" ||
	fail "host618 stats does not say there was no lazy preemption"
expect_exit 1 lt timeline -i "$DATA/host618-hogs.dat" --kind lazy,upgrade,tick-upgrade

# Two shares, named for what they divide by: the trace's span and the
# task's own. The short-lived cut (pid 138) had most of its life on a CPU
# and almost none of the trace.
lt stats --json -i "$DATA/lazy612-hogs.dat" > "$TMPDIR/stats.json" || fail "stats --json"
python3 - "$TMPDIR/stats.json" <<'PY' || fail "trace_share / lifetime_share"
import json, sys
d = json.load(open(sys.argv[1]))
span = d["meta"]["last_ns"] - d["meta"]["first_ns"]
assert span > 0 and len(d["tasks"]) > 5
for t in d["tasks"]:
    life = t["last_ns"] - t["first_ns"]
    for key, want in (("trace_share", t["runtime_ns"] / span),
                      ("lifetime_share", t["runtime_ns"] / life if life else 0)):
        assert abs(t[key] - min(want, 1)) <= 1e-5 * max(want, 1e-3), (key, t, want)
    assert "cpu_share" not in t
cut = [t for t in d["tasks"] if t["pid"] == 138 and t["comm"] == "cut"]
assert len(cut) == 1 and cut[0]["lifetime_share"] > 0.5 > 0.01 > cut[0]["trace_share"], cut
PY
lt stats -i "$DATA/lazy612-hogs.dat" | grep -q ' TRACE% LIFE% ' ||
	fail "stats text does not name both shares"
exit 0
