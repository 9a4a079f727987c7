#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# SIGINT in the middle of `lazytrace record`: the instance is removed and
# the recording made so far is a usable trace.dat.
. "$(dirname "$0")/lib.sh"

need_tracefs

cd "$TMPDIR" || fail "no TMPDIR"
${LAZYTRACE_WRAP:-} "$LAZYTRACE" record -o int.dat -- \
	sh -c 'echo $$ > loop.pid; while :; do :; done' 2> rec.err &
rec=$!
i=0
while [ ! -s loop.pid ] || [ ! -d $T/instances/lazytrace-$rec ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || { kill -9 $rec; fail "record did not start"; }
	sleep 0.05
done
sleep 1
kill -INT $rec
wait $rec
st=$?
cat rec.err
pid=$(cat loop.pid)
[ $st = 0 ] || fail "record exited $st after SIGINT"
[ -d $T/instances/lazytrace-$rec ] && fail "instance lazytrace-$rec left after SIGINT"
sleep 0.2
! kill -0 "$pid" 2>/dev/null || { kill -9 "$pid"; fail "command $pid still running"; }
lt report -i int.dat > lt.txt || fail "the interrupted recording is not readable"
grep -Eq "next_pid=$pid " lt.txt || fail "no sched_switch to the loop ($pid)"
if command -v trace-cmd >/dev/null; then
	trace-cmd report -i int.dat > tc.txt 2>&1 || fail "trace-cmd cannot read it"
fi
echo "ok: $(grep -c . lt.txt) events before SIGINT"
