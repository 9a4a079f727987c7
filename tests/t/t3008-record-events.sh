#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record -e EVENT adds any event the kernel has, as SYSTEM:EVENT, SYSTEM or
# EVENT: the trace.dat carries their formats, so that lazytrace report and
# trace-cmd report print each added event the same number of times, and
# the analysis still reads the file. An event the kernel lacks is exit 2
# with its name, and no instance is left.
. "$(dirname "$0")/lib.sh"

need_tracefs
for e in kmem/kmalloc workqueue irq/irq_handler_entry; do
	[ -d $T/events/$e ] || skip "kernel has no $e event"
done
command -v trace-cmd > /dev/null || skip "trace-cmd not installed (make deps)"
cd "$TMPDIR" || fail "no TMPDIR"

load='i=0; while [ $i -lt 200 ]; do cat /proc/self/stat > /dev/null; i=$((i + 1)); done'
lt record -o ev.dat -e kmem:kmalloc -e workqueue -e irq_handler_entry \
	-- sh -c "$load" 2> rec.err || { cat rec.err; fail "record -e failed"; }
lt report -i ev.dat > lt.txt || fail "lazytrace report"
trace-cmd report ev.dat > tc.txt 2> /dev/null || fail "trace-cmd report"
for name in kmalloc workqueue_queue_work irq_handler_entry; do
	a=$(grep -c " $name: " lt.txt)
	b=$(grep -c " $name: " tc.txt)
	[ "$a" = "$b" ] || fail "$name: lazytrace report prints $a, trace-cmd $b"
	echo "$name: $a events in both"
done
[ "$(grep -c ' kmalloc: ' lt.txt)" -gt 0 ] || fail "no kmalloc event recorded under a load that allocates"
# decoded, not a raw dump
grep -q ' kmalloc: call_site=.* bytes_req=[0-9]' lt.txt || fail "kmalloc not decoded: $(grep -m1 ' kmalloc: ' lt.txt)"
lt stats -i ev.dat > stats.txt || fail "stats of a file with added events"

${LAZYTRACE_WRAP:-} "$LAZYTRACE" record -e no_such_event -d 1 -o bad.dat 2> bad.err &
pid=$!
wait $pid
st=$?
[ $st = 2 ] || { cat bad.err; fail "record -e no_such_event exited $st, want 2"; }
grep -q "^lazytrace record: -e no_such_event: no event 'no_such_event'" bad.err ||
	fail "no message naming the event: $(cat bad.err)"
[ ! -e bad.dat ] || fail "an output was written for a bad -e"
[ ! -d $T/instances/lazytrace-$pid ] || fail "instance lazytrace-$pid left"
echo "ok: added events recorded and decoded"
