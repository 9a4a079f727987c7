#!/bin/sh
# The recordings `make -C patches vm-test` made on our own patched 6.12
# kernel (tests/data/vm, roles in its README): lazytrace prints exactly
# what that kernel printed, finds its three hogs, and the eager mode of
# the same kernel preempts at least 10x as often as the lazy mode and
# preempts the same hogs without waiting for the tick (no hog found, eager
# request -> preempted well under the tick, where lazy takes a tick), and
# the user-space spinner honours lazy requests in schedule() on its way
# out to user mode. The tick comes from the HZ that check.sh logged.
. "$(dirname "$0")/lib.sh"

VM=$DATA/vm
hz=$(sed -n 's/^HZ=\([0-9]*\): .*/\1/p' "$VM/lazyvm-check.log")
[ -n "$hz" ] || fail "no HZ in lazyvm-check.log"
tick_ns=$((1000000000 / hz))
for n in lazyvm-hogs lazyvm-hogs-eager lazyvm-msg-lazy lazyvm-msg-eager; do
	k=$TMPDIR/$n.txt
	xz -dc "$VM/$n.txt.xz" > "$k" || fail "xz $n"
	lt report -i "$VM/$n.dat" > "$TMPDIR/$n.out" || fail "report $n"
	python3 "$TOOLS/compare-report.py" --min 100 "$k" "$TMPDIR/$n.out" || fail "$n differs"
	xz -dc "$VM/$n.lat.txt.xz" > "$k.lat" || fail "xz $n.lat"
	lt report -l -i "$VM/$n.dat" > "$TMPDIR/$n.lat.out" || fail "report -l $n"
	python3 "$TOOLS/compare-report.py" --latency --min 100 "$k.lat" "$TMPDIR/$n.lat.out" ||
		fail "$n latency format differs"
done
# The kernel's own letters: lazy requests, and ticks upgrading them.
grep -q '^.\{32\}l' "$TMPDIR/lazyvm-hogs.txt" || fail "no 'l' in the kernel's text"
grep -q '^.\{32\}B' "$TMPDIR/lazyvm-hogs.txt" || fail "no 'B' in the kernel's text"
grep -q 'resched_curr <-sched_tick' "$TMPDIR/lazyvm-hogs.txt" || fail "no tick upgrade traced"
# Return to user space honours a lazy request: the spinner calls
# schedule() from the exit to user mode with only the lazy bit set.
spinner=$(sed -n 's/^spinner pid //p' "$VM/lazyvm-guest.log")
[ -n "$spinner" ] || fail "no spinner pid in the guest log"
grep -q "lazyload-$spinner .*\] \.l\.\.\. .*schedule <-.*exit_to_user_mode" "$TMPDIR/lazyvm-hogs.txt" ||
	fail "spinner $spinner never schedules at exit to user mode with a lazy request"

# The hog pids, from the guest's log ("hog pid N" lazy, "eager hog pid N").
hogs=$(sed -n 's/^hog pid //p' "$VM/lazyvm-guest.log" | tr '\n' ' ')
eager=$(sed -n 's/^eager hog pid //p' "$VM/lazyvm-guest.log" | tr '\n' ' ')
[ "$(echo $hogs | wc -w)" = 3 ] && [ "$(echo $eager | wc -w)" = 3 ] ||
	fail "guest log: hogs '$hogs', eager hogs '$eager'"

lt hogs --json -i "$VM/lazyvm-hogs.dat" > "$TMPDIR/hogs.json" || fail "hogs"
python3 - "$TMPDIR/hogs.json" $hogs <<'PY' || fail "hogs are not $hogs"
import json, sys
h = json.load(open(sys.argv[1]))["hogs"]
assert sorted(x["pid"] for x in h) == sorted(map(int, sys.argv[2:])), h
for x in h:
    assert x["episodes"] > 0 and x["tick_upgrades"] > 0, x
    assert abs(x["lifetime_share"] - 0.25) <= 0.05, x
PY

for m in lazy eager; do
	lt stats --json -i "$VM/lazyvm-msg-$m.dat" > "$TMPDIR/$m.json" || fail "stats $m"
done
python3 - "$TMPDIR/lazy.json" "$TMPDIR/eager.json" <<'PY' || fail "eager mode does not preempt 10x more"
import json, sys
lazy, eager = (json.load(open(f))["summary"]["switches_preempted"] for f in sys.argv[1:])
print("preempted: lazy %d, eager %d (%.1fx)" % (lazy, eager, eager / lazy))
assert lazy > 0 and eager >= 10 * lazy
PY

# Full mode (sched/preempt), the same hogs setup: no lazy letter in the
# kernel's text, no hog, and each hog's eager requests are served (it is
# preempted) in well under a tick, where in lazy mode its lazy requests
# wait about one tick for the upgrade.
! grep -q '^.\{32\}[lLbB]' "$TMPDIR/lazyvm-hogs-eager.txt" || fail "lazy letter in eager mode"
lt hogs -i "$VM/lazyvm-hogs-eager.dat" > "$TMPDIR/hogs-eager.out"
rc=$?
[ $rc = 1 ] || fail "hogs in eager mode: exit $rc, want 1 (no hog)"
lt stats --json -i "$VM/lazyvm-hogs.dat" > "$TMPDIR/hogs-stats.json" || fail "stats hogs"
lt stats --json -i "$VM/lazyvm-hogs-eager.dat" > "$TMPDIR/hogs-eager-stats.json" || fail "stats hogs-eager"
python3 - "$TMPDIR/hogs-stats.json" "$TMPDIR/hogs-eager-stats.json" "$hogs" "$eager" "$tick_ns" <<'PY' ||
import json, sys
tick = int(sys.argv[5])
def lat(d, pid, kind):   # a latency row as {count, p50}
    r = [l for l in d["latency"] if l["pid"] == pid and l["kind"] == kind]
    r = r[0] if r else {"count": 0, "p50_ns": 0}
    return {"count": r["count"], "p50": r["p50_ns"]}
def tasks(f, pids):
    d = json.load(open(f))
    t = {x["pid"]: x for x in d["tasks"]}
    for x in t.values():
        x["lazy_latency_ns"] = lat(d, x["pid"], "lazy_served")
        x["eager_latency_ns"] = lat(d, x["pid"], "eager_served")
    return [t[int(p)] for p in pids.split()]
for x in tasks(sys.argv[1], sys.argv[3]):
    l = x["lazy_latency_ns"]
    print("lazy hog %d: lazy requests %d, served p50 %d ns" % (x["pid"], l["count"], l["p50"]))
    assert l["count"] >= 50 and 0.75 * tick <= l["p50"] <= 1.25 * tick, x
for x in tasks(sys.argv[2], sys.argv[4]):
    e = x["eager_latency_ns"]
    print("eager hog %d: eager requests %d, served p50 %d ns, preempted %d" %
          (x["pid"], e["count"], e["p50"], x["preempted"]))
    assert x["lazy"] == 0 and x["upgrades"] == 0 and not x["hog"], x
    assert e["count"] >= 50 and x["preempted"] >= 50 and e["p50"] < tick / 10, x
PY
	fail "eager hogs are not preempted well before the tick"
