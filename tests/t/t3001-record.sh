#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lazytrace record -d 2 -- <CPU-bound loop>: a trace.dat that trace-cmd and
# lazytrace both read, with the loop's sched_switch events; its instance is
# gone afterwards and the top-level buffer's settings are untouched; a
# command's exit status is record's; -P PID records until PID exits.
. "$(dirname "$0")/lib.sh"

need_tracefs
[ -d $T/events/sched/sched_switch ] || skip "kernel has no sched:sched_switch"

top_state() {
	for f in tracing_on current_tracer set_event buffer_size_kb trace_clock \
		 tracing_cpumask; do
		printf '%s: ' $f; cat $T/$f 2>/dev/null | tr '\n' ' '; echo
	done
}

cd "$TMPDIR" || fail "no TMPDIR"
top_state > top.before
${LAZYTRACE_WRAP:-} "$LAZYTRACE" record -d 2 -o rec.dat -- \
	sh -c 'echo $$ > loop.pid; while :; do :; done' 2> rec.err &
rec=$!
wait $rec
st=$?
[ $st = 0 ] || { cat rec.err; fail "record exited $st"; }
cat rec.err
# Said up front: whether this kernel can preempt lazily, as its config says.
grep -q "^lazytrace record: lazy preemption: " rec.err || fail "record did not say whether the kernel preempts lazily"
cfg=/boot/config-$(uname -r)
[ -r "$cfg" ] || cfg=/lib/modules/$(uname -r)/config
if [ -r "$cfg" ]; then
	cat "$cfg"
elif [ -r /proc/config.gz ]; then
	zcat /proc/config.gz
fi > kconfig
if [ -s kconfig ] && ! grep -q '^CONFIG_PREEMPT_LAZY=y' kconfig; then
	grep -q "lazy preemption: absent from this kernel" rec.err ||
		fail "CONFIG_PREEMPT_LAZY is not set, record did not say absent"
fi
top_state > top.after
cmp -s top.before top.after || { diff top.before top.after; fail "top-level buffer settings changed"; }
pid=$(cat loop.pid) || fail "the command did not run"
[ -s rec.dat ] || fail "no trace.dat written"
# The size it reports is the size of the file it wrote.
size=$(stat -c %s rec.dat)
grep -q "wrote rec.dat: $size bytes," rec.err || fail "reported size is not $size bytes: $(cat rec.err)"
! kill -0 "$pid" 2>/dev/null || { kill -9 "$pid"; fail "loop $pid still running after record"; }
[ -d $T/instances/lazytrace-$rec ] && fail "instance lazytrace-$rec left behind"

lt report -i rec.dat > lt.txt || fail "lazytrace report failed"
grep -Eq "sched_switch: prev_comm=[^ ]* prev_pid=$pid " lt.txt ||
	fail "lazytrace report: no sched_switch of loop pid $pid"
grep -Eq "next_pid=$pid " lt.txt || fail "lazytrace report: loop $pid never switched in"
grep -q "local_timer_entry\|hrtimer_expire_entry" lt.txt || fail "no tick events"

# A command that ends by itself gives record its exit status (128+N
# for a signal); the file is written all the same.
for c in 'exit 3:3:status 3' 'kill -TERM $$:143:killed by Terminated' 'true:0:'; do
	cmd=${c%%:*} want=${c#*:} msg=${want#*:} want=${want%%:*}
	lt record -o st.dat -- sh -c "$cmd" 2> st.err
	st=$?
	[ $st = "$want" ] || fail "record -- sh -c '$cmd' exited $st, not $want: $(cat st.err)"
	[ -s st.dat ] || fail "record -- sh -c '$cmd' wrote no file"
	[ -z "$msg" ] || grep -q "sh .*$msg" st.err ||
		fail "record -- sh -c '$cmd' did not say '$msg': $(cat st.err)"
	rm -f st.dat
done

# -P PID: until that process exits, also when it stays a zombie (its
# parent never reaps it); a pid that does not run is a usage error.
sh -c 'sleep 1 & echo $! > zpid; exec sleep 20' &
parent=$!
while [ ! -s zpid ]; do sleep 0.05; done
t0=$(date +%s)
timeout 15 "$LAZYTRACE" record -P "$(cat zpid)" -o p.dat 2> p.err ||
	{ cat p.err; kill $parent; fail "record -P exited $?"; }
kill $parent
[ $(($(date +%s) - t0)) -le 5 ] || fail "record -P did not end when the process exited"
grep -q "process $(cat zpid) exited" p.err || fail "record -P: $(cat p.err)"
lt report -i p.dat > /dev/null || fail "record -P wrote no readable file"
lt record -P 0 2> p.err && fail "record -P 0 accepted"
lt record -P $$ -- true 2> p.err && fail "record -P with a command accepted"
grep -q "one thing to record until it ends" p.err || fail "-P with a command: $(cat p.err)"

command -v trace-cmd >/dev/null || skip "trace-cmd not installed; lazytrace part passed"
trace-cmd report -i rec.dat > tc.txt 2> tc.err || { cat tc.err; fail "trace-cmd report failed"; }
grep -Eq "sched_switch: +.*:$pid \[[0-9]+\] [A-Z+|]+ ==>" tc.txt ||
	fail "trace-cmd report: no sched_switch of loop pid $pid"
# Both see the same events.
a=$(grep -c . lt.txt)
b=$(grep -v -e '^cpus=' -e 'LOST.*EVENTS' -e 'EVENTS DROPPED' -e 'is empty' tc.txt | grep -c .)
[ "$a" = "$b" ] || fail "lazytrace report has $a events, trace-cmd report $b"
echo "ok: $a events, loop pid $pid"
