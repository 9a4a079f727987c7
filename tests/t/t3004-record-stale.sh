#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# After kill -9 of `lazytrace record`, its instance stays behind; the next
# record recognises it by its prefix and dead pid, removes it, and works;
# the instance of a live program of another name stays.
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

# A live program that is not called lazytrace (one linked with the
# library: a unit test, a Python script) keeps its instance: it started
# before the instance was made, so it is its maker, not a reused pid.
sh -c "mkdir $T/instances/lazytrace-\$\$ && exec sleep 30" &
own=$!
i=0
until [ -d $T/instances/lazytrace-$own ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "the other program made no instance"
	sleep 0.05
done
lt record -d 0.3 -o third.dat 2> third.err || { cat third.err; fail "third record failed"; }
[ -d $T/instances/lazytrace-$own ] || fail "removed the instance of live pid $own (sleep)"
! grep -q "lazytrace-$own" third.err || fail "said it removed lazytrace-$own: $(cat third.err)"
kill $own
wait $own 2> /dev/null
# Its maker gone, the next run removes it.
lt record -d 0.3 -o fourth.dat 2> fourth.err || { cat fourth.err; fail "fourth record failed"; }
[ -d $T/instances/lazytrace-$own ] && fail "stale instance lazytrace-$own not removed"
lt report -i next.dat > lt.txt || fail "next recording unreadable"
grep -q sched_switch lt.txt || fail "next recording has no sched_switch"
echo ok
