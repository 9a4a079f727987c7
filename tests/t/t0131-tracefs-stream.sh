#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A tracefs file stats as a regular file of size 0: report reads an
# instance's trace file (and a pipe) as a stream, as the kernel printed
# it, and stats analyses it. On the host's own tracefs, in an instance of
# this test's own, removed at the end.
. "$(dirname "$0")/lib.sh"

need_tracefs
[ -d $T/events/sched/sched_switch ] || skip "kernel has no sched:sched_switch"
I=$T/instances/lt-t0131-$$
mkdir $I || fail "cannot make instance $I"
trap 'echo 0 > $I/tracing_on 2>/dev/null; rmdir $I 2>/dev/null' EXIT
echo 1 > $I/events/sched/sched_switch/enable || fail "enable sched_switch"
echo 1 > $I/events/sched/sched_waking/enable || fail "enable sched_waking"
i=0
while [ $i -lt 50 ]; do
	sh -c 'sleep 0.001'
	i=$((i + 1))
done
echo 0 > $I/tracing_on
[ "$(stat -c %s $I/trace)" = 0 ] || echo "note: $I/trace stats as $(stat -c %s $I/trace) bytes"

cd "$TMPDIR" || fail "no TMPDIR"
cat $I/trace > kernel.txt
grep -v '^#' kernel.txt > body.txt
n=$(wc -l < body.txt)
[ "$n" -gt 100 ] || fail "the instance recorded only $n events"
lt report -i $I/trace > report.txt || fail "report -i $I/trace"
cmp body.txt report.txt || fail "report of $I/trace is not the kernel's text"
cat $I/trace | lt report -i - | cmp body.txt - || fail "report of a pipe from $I/trace"
lt stats --json -i $I/trace > st.json || fail "stats -i $I/trace"
python3 - st.json "$n" <<'PY' || fail "stats of $I/trace"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["meta"]["events"] == int(sys.argv[2]), (d["meta"], sys.argv[2])
s = d["summary"]
assert s["switches_preempted"] + s["switches_yielded"] + s["switches_blocked"] > 0, s
PY
# An empty stream is still an empty input.
echo > $I/trace
lt report -i $I/trace > /dev/null 2> err.txt
st=$?
# the cleared file still has its header: no events, exit 1
[ $st = 1 ] || fail "report of a cleared $I/trace exited $st: $(cat err.txt)"
expect_exit 2 lt report -i /dev/null 2> /dev/null
echo "$n events read from $I/trace"
exit 0
