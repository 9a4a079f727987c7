#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record --stacks=preempt: a stacktrace trigger on sched_switch filtered on
# the preempted bit of prev_state (the "+" of R+, read from this kernel's
# sched_switch format), set in the instance while recording and gone with
# it. In the trace.dat a stack follows every R+ switch and no other, and
# lazytrace preempts takes each as its row's stack (stack_at switch).
. "$(dirname "$0")/lib.sh"

need_tracefs
[ -w $T/events/sched/sched_switch/trigger ] ||
	skip "no event triggers on sched:sched_switch on this kernel"
cd "$TMPDIR" || fail "no TMPDIR"

# Three readers of /dev/zero share CPU 0: the kernel preempts them.
cat > load.sh <<SH
cat $T/instances/lazytrace-\$PPID/events/sched/sched_switch/trigger > trig.txt
for i in 1 2 3; do
	taskset -c 0 dd if=/dev/zero of=/dev/null bs=4M count=400 2> /dev/null &
done
wait
SH
lt record --stacks=preempt -o pre.dat -- sh load.sh 2> rec.err ||
	{ cat rec.err; fail "record --stacks=preempt"; }
cat rec.err
bit=$(sed -n "s/.*'stacktrace if prev_state & \([0-9]*\)' on sched:sched_switch.*/\1/p" rec.err)
[ -n "$bit" ] || fail "record does not say which trigger it set on sched_switch"
[ $((bit & (bit - 1))) = 0 ] || fail "prev_state bit $bit is not one bit"
grep -qx "stacktrace:unlimited if prev_state & $bit" trig.txt ||
	{ cat trig.txt; fail "no filtered stacktrace trigger on sched_switch while recording"; }
# the tick's lazy trigger stays
grep -q "on irq_vectors:local_timer_entry\|on timer:hrtimer_expire_entry\|no kernel stacks at ticks" rec.err ||
	fail "record says nothing about the tick's trigger"

# A stack right after every R+ switch, after no other switch.
# (per CPU: report interleaves the CPUs in time order)
lt report -i pre.dat | awk '
	/^ => / { next }
	{ c = $0; sub(/^[^[]*\[/, "", c); c = substr(c, 1, index(c, "]") - 1) }
	/sched_switch:/ { sw[c] = / prev_state=R\+ / ? 1 : 2; n[sw[c]]++; next }
	/<stack trace>$/ { if (sw[c]) s[sw[c]]++ }
	{ sw[c] = 0 }
	END { print n[1] + 0, s[1] + 0, s[2] + 0 }' > counts
read -r rplus after_rplus after_other < counts
[ "$rplus" -ge 10 ] || fail "only $rplus R+ switches recorded"
[ "$after_other" = 0 ] || fail "$after_other stacks after switches that are not R+"
lt table meta --csv -i pre.dat | grep -q ',0,0,,' ||
	echo "note: events were lost: not every R+ switch need have its stack"
lt table preempts --csv -i pre.dat > pre.csv || fail "table preempts"
python3 - pre.csv "$rplus" "$after_rplus" <<'PY' || fail "preempts' stacks"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rplus, stacks = int(sys.argv[2]), int(sys.argv[3])
assert len(rows) == rplus, (len(rows), rplus)
at_switch = [r for r in rows if r["stack_at"] == "switch"]
assert len(at_switch) == stacks, (len(at_switch), stacks)
assert stacks * 10 >= rplus * 9, (stacks, rplus)
for r in at_switch:
    assert r["place_from"] == "stack" and r["site"], r
    assert r["place"] != "unknown", r
PY
[ -d $T/instances/lazytrace-* ] 2>/dev/null &&
	ls -d $T/instances/lazytrace-* | while read -r d; do
		[ -f "$d/events/sched/sched_switch/trigger" ] || continue
		grep -q "prev_state & $bit" "$d/events/sched/sched_switch/trigger" &&
			echo "note: another run's instance $d has such a trigger"
	done
exit 0
