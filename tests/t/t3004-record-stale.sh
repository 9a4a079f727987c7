#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# After kill -9 of `lazytrace record`, its instance stays behind; the next
# record recognises it by its prefix and dead pid, removes it, and works.
. "$(dirname "$0")/lib.sh"

need_tracefs

cd "$TMPDIR" || fail "no TMPDIR"
${LAZYTRACE_WRAP:-} "$LAZYTRACE" record -o dead.dat -- sleep 30 2> dead.err &
rec=$!
wait_instance $rec
sleep 0.3
kill -9 $rec
wait $rec 2>/dev/null
[ -d $T/instances/lazytrace-$rec ] || fail "expected the killed run's instance to stay behind"

lt record -d 0.3 -o next.dat 2> next.err || { cat next.err; fail "next record failed"; }
cat next.err
[ -d $T/instances/lazytrace-$rec ] && fail "stale instance lazytrace-$rec not removed"
grep -q "removed stale instance lazytrace-$rec" next.err || fail "no word about the stale instance"
lt report -i next.dat > lt.txt || fail "next recording unreadable"
grep -q sched_switch lt.txt || fail "next recording has no sched_switch"
echo ok
