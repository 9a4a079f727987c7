#!/bin/sh
# Runs inside the test VM. Records each scenario into its own tracefs
# instance, then writes the kernel's own text output of that buffer
# (latency-format off, then on) and, last because it consumes the
# buffer, trace-cmd extract of the same buffer.
OUT=${1:-/out}
T=/sys/kernel/tracing
INST=lazyvm
I=$T/instances/$INST
BUF_KB=${BUF_KB:-24576}
HOG_SECS=${HOG_SECS:-4}
EAGER_HOG_SECS=${EAGER_HOG_SECS:-2}
MSG_SECS=${MSG_SECS:-20}
MSG_LOOPS=${MSG_LOOPS:-600}
EVENTS="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new
irq_vectors/local_timer_entry irq_vectors/local_timer_exit
irq_vectors/reschedule_entry irq_vectors/reschedule_exit
timer/hrtimer_expire_entry timer/hrtimer_expire_exit
irq/softirq_entry irq/softirq_exit"

stamp() { echo "=== $(cat /proc/uptime | cut -d' ' -f1) $*"; }

setup() {
	rmdir $I 2>/dev/null
	mkdir $I || exit 1
	echo 0 > $I/tracing_on
	echo $BUF_KB > $I/buffer_size_kb
	for e in $EVENTS; do
		echo 1 > $I/events/$e/enable || echo "cannot enable $e"
	done
	if echo 'resched_curr resched_curr_lazy' > $I/set_ftrace_filter; then
		echo function > $I/current_tracer
	fi
}

teardown() {
	# trace-cmd extract -B removes the instance itself
	[ -d $I ] || return 0
	echo nop > $I/current_tracer
	rmdir $I
}

save() {
	name=$1
	stamp "save $name"
	echo 0 > $I/options/latency-format
	cat $I/trace > $OUT/$name.txt
	echo 1 > $I/options/latency-format
	cat $I/trace > $OUT/$name.lat.txt
	echo 0 > $I/options/latency-format
	trace-cmd extract --compression zstd -B $INST -o $OUT/$name.dat > $OUT/$name.extract.log 2>&1 ||
		trace-cmd extract -B $INST -o $OUT/$name.dat >> $OUT/$name.extract.log 2>&1
	stamp "saved $name"
}

mode() {
	if [ "$1" = eager ]; then
		echo FORCE_NEED_RESCHED > /sys/kernel/debug/sched/features
	else
		echo NO_FORCE_NEED_RESCHED > /sys/kernel/debug/sched/features
	fi
}

stamp "start"
uname -a
cat /proc/cmdline
cat /sys/kernel/debug/sched/features
echo

# a. hogs: three sched/hog writers pinned to CPU 1, with a periodic
#    sleeper, a user busy loop and an RT task woken from CPU 0.
mode lazy
setup
echo 1 > $I/tracing_on
stamp "hogs start"
lazyload -c 1 sleep $((HOG_SECS + 1)) 10 &
echo "sleeper pid $!"
lazyload -c 1 spin $((HOG_SECS + 1)) &
echo "spinner pid $!"
lazyload -c 1 rt $((HOG_SECS + 1)) 20 0 &
echo "rt pid $!"
sleep 0.3
for n in 1 2 3; do
	taskset 2 sh -c "echo $HOG_SECS > /sys/kernel/debug/sched/hog" &
	echo "hog pid $!"
done
wait
echo 0 > $I/tracing_on
stamp "hogs end"
save hogs
teardown

# b. hogs-eager: the same hogs setup in eager mode (FORCE_NEED_RESCHED):
#    the hogs must be preempted at once, not at the next tick. Shorter.
#    Pids are logged as "eager ..." so check.sh keeps the lazy ones apart.
mode eager
setup
echo 1 > $I/tracing_on
stamp "hogs-eager start"
lazyload -c 1 sleep $((EAGER_HOG_SECS + 1)) 10 &
echo "eager sleeper pid $!"
lazyload -c 1 spin $((EAGER_HOG_SECS + 1)) &
echo "eager spinner pid $!"
lazyload -c 1 rt $((EAGER_HOG_SECS + 1)) 20 0 &
echo "eager rt pid $!"
sleep 0.3
for n in 1 2 3; do
	taskset 2 sh -c "echo $EAGER_HOG_SECS > /sys/kernel/debug/sched/hog" &
	echo "eager hog pid $!"
done
wait
echo 0 > $I/tracing_on
stamp "hogs-eager end"
save hogs-eager
teardown
mode lazy

# c. the messaging load, lazy then eager: the same amount of work in both
#    (MSG_LOOPS rounds per sender; MSG_SECS is only a cap).
for m in lazy eager; do
	mode $m
	setup
	echo 1 > $I/tracing_on
	stamp "msg-$m start"
	lazyload msg $MSG_SECS 2 $MSG_LOOPS
	echo 0 > $I/tracing_on
	stamp "msg-$m end"
	save msg-$m
	teardown
done
mode lazy
stamp "done"
