#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What record adds for stock kernels, on this host: the setup line (the
# running kernel's release, and its HZ where /boot or /proc/config.gz
# says), the hrtimer events that name the tick (so no function tracing
# by default), the recorder's own pid left out (at most 1 % of the
# events are its own), and the sched_set_need_resched probe: used where
# the kernel accepts tracepoint probes, and never left in dynamic_events,
# also after SIGINT. live --json's interval carries the same columns as
# stats' meta.
. "$(dirname "$0")/lib.sh"

need_tracefs
[ -d $T/events/timer/hrtimer_expire_entry ] ||
	skip "kernel has no timer:hrtimer_expire_entry"

cd "$TMPDIR" || fail "no TMPDIR"
# A busy loop, then 100 short processes: events of the workload's own
# (forks, wakeups, switches, exits), so that the 1 % bound below weighs
# the recorder against them, not against how busy the host happens to be.
${LAZYTRACE_WRAP:-} "$LAZYTRACE" record -d 2 -o rec.dat -- \
	sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done
		i=0; while [ $i -lt 100 ]; do /bin/true; i=$((i + 1)); done' 2> rec.err &
rec=$!
wait $rec || { cat rec.err; fail "record exited $?"; }
grep -q "lazytrace_$rec/" $T/dynamic_events 2>/dev/null &&
	fail "probe group lazytrace_$rec left in dynamic_events"
lt stats -i rec.dat --json > st.json || fail "stats"
lt report -i rec.dat > rep.txt || fail "report"
tp=no
grep -q "sched_set_need_resched" rec.err || tp=yes
python3 - st.json rep.txt "$rec" "$(uname -r)" "$tp" <<'PY' || fail "recording"
import json, re, sys
st, rep, rec, release, tp = sys.argv[1:]
d = json.load(open(st))["meta"]
assert d["kernel"] == release, d
# record enables hrtimer_start: the tick's expiry grid gives it exactly
# (the kernel's TICK_NSEC), idle CPUs or not
assert d["tick_source"] == "timer_grid", d["tick_source"]
if d["hz"]:
    assert d["tick_ns"] == (10**9 + d["hz"] // 2) // d["hz"], d
assert d["requests"] == ("probe" if tp == "yes" else "flags"), (d["requests"], tp)
lines = [l for l in open(rep) if re.search(r"\] [^ ]+ +\d+\.\d+: ", l)]
own = [l for l in lines if re.match(r"\s*\S+-%s +\[" % rec, l)]
# enough events for the 1 % bound to mean something, even on a loaded host
assert len(lines) > 400, len(lines)
assert len(own) <= 0.01 * len(lines), (len(own), len(lines))
assert any("lazytrace-setup: release=" + release in l for l in own), "no setup line"
assert not any(re.search(r": resched_curr", l) for l in lines), "function tracing on"
PY

# live --json: each interval has the columns of stats --json's meta
lt live -d 1 --interval 500 --json > live.json 2> live.err ||
	{ cat live.err; fail "live exited $?"; }
python3 - live.json "$(uname -r)" <<'PY' || fail "live --json"
import json, sys
iv = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert iv, "no interval"
SRC = ("tick", "hrtick", "timer", "irq", "direct")
for d in iv:
    i, s = d["interval"], d["summary"]
    for k in ("tick_ns", "tick_source", "requests", "kernel", "preempt", "hz",
              "sched_features"):
        assert k in i, (k, i.keys())
    assert i["kernel"] == sys.argv[2], i
    assert sum(s["upgrades_" + k] for k in SRC) == s["upgrades"], s
PY

# SIGINT: the probe goes with the instance.
"$LAZYTRACE" record -o int.dat 2> int.err &
rec=$!
wait_instance $rec
sleep 0.5
kill -INT $rec
wait $rec || fail "record exited $? after SIGINT"
grep -q "lazytrace_$rec/" $T/dynamic_events 2>/dev/null &&
	fail "probe group lazytrace_$rec left after SIGINT"
[ -d $T/instances/lazytrace-$rec ] && fail "instance left after SIGINT"
exit 0
