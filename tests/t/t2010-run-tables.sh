#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The run and its tables (lazytrace table, and the commands on them): the
# request table agrees with the analysis' counts and latencies; the same
# filters work in every command and mean the same; times read back as
# printed (kernel rounding, -t for every nanosecond).
. "$(dirname "$0")/lib.sh"

d=$DATA/lazy612-hogs.dat
lt table summary latency "$d" --json > "$TMPDIR/sum.json" || fail "table summary"
lt table requests "$d" --csv > "$TMPDIR/req.csv" || fail "table requests"
python3 - "$TMPDIR/sum.json" "$TMPDIR/req.csv" <<'PY' || fail "requests vs summary"
import csv, json, sys
s = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
summ = s["summary"]
served = sum(summ[k] for k in ("preempted", "yielded", "blocked", "cleared", "truncated"))
# one row per request ended: every served or truncated transition
assert len(rows) == served, (len(rows), served)
lazy = [r for r in rows if r["kind"] == "lazy"]
assert len(lazy) == summ["lazy"], (len(lazy), summ["lazy"])
lat = next(l for l in s["latency"] if l["pid"] is None and l["kind"] == "lazy_served")
got = sorted(int(r["latency_ns"]) for r in lazy if r["latency_ns"])
assert got[-1] == lat["max_ns"], (got[-1], lat)
assert len(got) == lat["count"], (len(got), lat)
# the histogram's median is within 0.8 % of the exact one
med = got[(len(got) + 1) // 2 - 1]
assert abs(med - lat["p50_ns"]) <= 0.008 * med, (med, lat)
# a request lies in its bound, and an upgrade between it and its end
for r in rows:
    assert int(r["after_ns"]) <= int(r["seen_ns"]) <= int(r["served_ns"]), r
    if r["upgrade_ns"]:
        assert r["kind"] == "lazy" and r["upgrade_source"], r
        assert int(r["seen_ns"]) <= int(r["upgrade_ns"]) <= int(r["served_ns"]), r
ups = sum(1 for r in lazy if r["upgrade_ns"])
assert ups > 100, ups
PY

# --pid, --comm: the same rows in stats, hogs, timeline and the tables
lt stats "$d" --pid 142 --csv > "$TMPDIR/s142.csv" || fail "stats --pid"
lt stats "$d" --comm 'sh' --csv > "$TMPDIR/ssh.csv" || fail "stats --comm"
lt stats "$d" --csv > "$TMPDIR/sall.csv" || fail "stats --csv"
python3 - "$TMPDIR/s142.csv" "$TMPDIR/ssh.csv" "$TMPDIR/sall.csv" <<'PY' || fail "stats filters"
import csv, sys
one, sh, every = (list(csv.DictReader(open(p))) for p in sys.argv[1:])
assert one and all(r["pid"] == "142" for r in one), one
assert sh and all(r["comm"] == "sh" for r in sh), sh
assert [r for r in every if r["pid"] == "142"] == one
assert [r for r in every if r["comm"] == "sh"] == sh
PY
n=$(lt timeline "$d" --pid 142 --kind tick-upgrade --csv | tail -n +2 | wc -l)
m=$(lt table transitions "$d" --csv | awk -F, '$4 == 142 && $7 == "tick-upgrade"' | wc -l)
[ "$n" -gt 10 ] && [ "$n" = "$m" ] || fail "timeline --pid --kind: $n rows, table: $m"
lt hogs "$d" --comm 'nosuch*' > /dev/null 2>&1; st=$?
[ $st = 1 ] || fail "hogs --comm that matches nothing: exit $st, want 1"

# --cpu and the window cut the trace: events outside never reach the
# analysis, and a window is the whole trace's events in it
all=$(lt table meta "$d" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["events"])')
c0=$(lt table meta "$d" --cpu 0 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["events"])')
c1=$(lt table meta "$d" --cpu 1 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["events"])')
[ $((c0 + c1)) = "$all" ] && [ "$c0" -gt 0 ] || fail "--cpu 0 + --cpu 1: $c0 + $c1 events, all $all"
ev=$(lt table events "$d" --from 8 --to 9 --csv | tail -n +2 | wc -l)
want=$(lt table events "$d" -t | awk 'NR > 1 && $1 >= 8 && $1 <= 9.000000000' | wc -l)
[ "$ev" -gt 100 ] && [ "$ev" = "$want" ] || fail "--from 8 --to 9: $ev events, $want in the window"

# A time copied from the output selects the event printed with it: the
# kernel rounds to the microsecond, six decimals take the whole microsecond.
line=$(lt table events "$d" | awk 'NR == 500')
ts=$(echo "$line" | awk '{print $1}')
case $ts in *.??????) ;; *) fail "events text time '$ts' is not the kernel's" ;; esac
full=$(lt table events "$d" -t | awk 'NR == 500 {print $1}')
case $full in *.?????????) ;; *) fail "-t time '$full' is not in ns" ;; esac
got=$(lt table events "$d" --from "$ts" --to "$ts" -t | awk 'NR > 1 {print $1}')
echo "$got" | grep -qx "$full" || fail "--from $ts --to $ts lost the event at $full: $got"
# the rounding is the kernel's: report prints the same time
rep=$(lt report -i "$d" | awk -v t="$ts:" '$0 ~ t' | wc -l)
[ "$rep" -ge 1 ] || fail "report has no event at $ts"
echo ok
