#!/bin/sh
# Runs inside the test VM. Records each scenario into its own tracefs
# instance, then writes the kernel's own text output of that buffer
# (latency-format off, then on) and, last because it consumes the
# buffer, trace-cmd extract of the same buffer. Preemption modes are
# switched through /sys/kernel/debug/sched/preempt while the guest is
# quiet (PREEMPT_DYNAMIC; the kernel boots in lazy mode).
#
# With lt_boot_check=1 on the kernel command line (it reaches us as an
# environment variable) it only reports the mode the kernel booted in.
OUT=${1:-/out}
T=/sys/kernel/tracing
P=/sys/kernel/debug/sched/preempt
HOG=/sys/kernel/debug/lazyhog
SPIN=/sys/kernel/debug/lazyhog_spin
RESCHED=/sys/kernel/debug/lazyhog_resched
FLAGS=/sys/kernel/debug/lazyhog_flags
FEATURES=/sys/kernel/debug/sched/features
INST=lazyvm
I=$T/instances/$INST
BUF_KB=${BUF_KB:-24576}
HOG_MS=${HOG_MS:-4000}
EAGER_HOG_MS=${EAGER_HOG_MS:-2000}
MSG_SECS=${MSG_SECS:-20}
MSG_LOOPS=${MSG_LOOPS:-600}
HB_GROUPS=${HB_GROUPS:-2}
HB_LOOPS=${HB_LOOPS:-50}
STACK_HOG_MS=${STACK_HOG_MS:-2000}
TC_HOG_MS=${TC_HOG_MS:-300}
ALL_BUF_KB=${ALL_BUF_KB:-65536}
ALL_SECS=${ALL_SECS:-0.3}
SPIN_N=${SPIN_N:-40}
SPIN_MS=${SPIN_MS:-40}
RESCHED_MS=${RESCHED_MS:-1500}
FLAGS_N=${FLAGS_N:-5}
HRTICK_HOG_MS=${HRTICK_HOG_MS:-3000}
EVENTS="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new
irq_vectors/local_timer_entry irq_vectors/local_timer_exit
irq_vectors/reschedule_entry irq_vectors/reschedule_exit
timer/hrtimer_expire_entry timer/hrtimer_expire_exit
irq/softirq_entry irq/softirq_exit"

stamp() { echo "=== $(cut -d' ' -f1 /proc/uptime) $*"; }

# mode NAME: switch the preemption mode and check that it took. Without
# PREEMPT_DYNAMIC (lt_nodyn=1) the configured model, lazy, is the only one.
mode() {
	if [ -n "${lt_nodyn:-}" ]; then
		[ "$1" = lazy ] || echo "FAIL: mode $1 asked for without PREEMPT_DYNAMIC"
		stamp "mode lazy (configured, no PREEMPT_DYNAMIC)"
		return
	fi
	echo "$1" > $P || echo "FAIL: cannot write $1 to $P"
	grep -q "($1)" $P || echo "FAIL: $P says '$(cat $P)' after writing $1"
	stamp "mode $(cat $P)"
}

setup() {
	rmdir $I 2>/dev/null
	mkdir $I || exit 1
	echo 0 > $I/tracing_on
	echo $BUF_KB > $I/buffer_size_kb
	for e in $EVENTS; do
		echo 1 > $I/events/$e/enable || echo "cannot enable $e"
	done
	# the lazyhog module's own events (what its test modes measured)
	echo 1 > $I/events/lazyhog/enable || echo "cannot enable lazyhog events"
	if echo 'resched_curr resched_curr_lazy schedule' > $I/set_ftrace_filter; then
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

# hogs PREFIX MS: three lazyhog writers pinned to CPU 1, with a periodic
# sleeper, a user-space busy loop and an RT task woken from CPU 0.
hogs() {
	pfx=$1
	ms=$2
	secs=$((ms / 1000 + 1))
	lazyload -c 1 sleep $secs 10 &
	echo "${pfx}sleeper pid $!"
	lazyload -c 1 spin $secs &
	echo "${pfx}spinner pid $!"
	lazyload -c 1 rt $secs 20 0 &
	echo "${pfx}rt pid $!"
	lazyload -c 1 fair $secs 30 0 &
	echo "${pfx}fair pid $!"
	sleep 0.3
	for n in 1 2 3; do
		taskset 2 sh -c "echo $ms > $HOG" &
		echo "${pfx}hog pid $!"
	done
	wait
}

stamp "start"
uname -a
cat /proc/cmdline
# whether a KVM guest can run under this one (TCG emulates SVM)
echo "kvm: svm $(grep -cw svm /proc/cpuinfo) cpus, $(ls /dev/kvm 2>&1)"
# PREEMPT_DYNAMIC=n (make vm-test-nodyn: lt_nodyn=1): no mode file, the
# model is the configured one (lazy); only the lazy scenarios run.
FULL=full
if [ -n "${lt_nodyn:-}" ]; then
	FULL=
	[ -e $P ] && echo "FAIL: $P exists without PREEMPT_DYNAMIC"
	echo "preempt: no $P (PREEMPT_DYNAMIC=n)"
else
	echo "preempt: $(cat $P)"
fi
if [ -n "${lt_boot_check:-}" ]; then
	echo "boot-check: $(cat $P)"
	stamp "done"
	exit 0
fi
insmod /lib/modules/lazyhog.ko || echo "FAIL: insmod lazyhog.ko"
# A kernel built without PREEMPT_LAZY (make vm-test-nolazy: lt_nolazy=1
# on the command line) boots in full mode. As in mainline, lazy stays a
# run-time mode wherever the architecture has it (PREEMPT_DYNAMIC), so it
# is offered all the same; the lazy scenarios are left out and the modes
# are compared without it, so that the run is the pristine kernel's.
if [ -n "${lt_nodyn:-}" ]; then
	LAZY=lazy
elif [ -n "${lt_nolazy:-}" ] || ! grep -q lazy $P; then
	LAZY=
	echo "no lazy scenarios: $(cat $P)"
else
	LAZY=lazy
fi
# The modes this kernel offers: PREEMPT_RT has no none or voluntary
# (make vm-test VM_RT=1), and they must be refused.
MODES=
for m in none voluntary full lazy; do
	[ -e $P ] && grep -qw "$m" $P && MODES="$MODES $m"
done
echo "modes offered:$MODES"
RUN_MODES=$MODES
[ -z "$LAZY" ] && RUN_MODES=$(echo $MODES | sed 's/ *lazy//')
if [ -n "${lt_nodyn:-}" ]; then
	:
elif grep -qw none $P; then
	# The hog refuses to run where nothing would preempt it.
	mode none
	if echo 10 > $HOG 2>/dev/null; then
		echo "FAIL: lazyhog ran in mode none"
	else
		echo "lazyhog refused in mode none: ok"
	fi
else
	for m in none voluntary; do
		if echo $m > $P 2> /dev/null; then
			echo "FAIL: $P took '$m': $(cat $P)"
		else
			echo "$m refused: ok"
		fi
	done
fi
echo

# a. hogs, lazy mode
if [ -n "$LAZY" ]; then
	mode lazy
	setup
	echo 1 > $I/tracing_on
	stamp "hogs start"
	hogs "" $HOG_MS
	echo 0 > $I/tracing_on
	stamp "hogs end"
	save hogs
	teardown
fi

# b. hogs-eager: the same in full mode, shorter. The hogs must be
#    preempted at once, not at the next tick. Pids are logged as
#    "eager ..." so that check.sh keeps them apart.
if [ -n "$FULL" ]; then
	mode full
	setup
	echo 1 > $I/tracing_on
	stamp "hogs-eager start"
	hogs "eager " $EAGER_HOG_MS
	echo 0 > $I/tracing_on
	stamp "hogs-eager end"
	save hogs-eager
	teardown
fi

# b2. resched (lazy) and resched-eager (full, the control): with a
#     user-space spinner on CPU 1 as the other runnable task, lazyhog's
#     need_resched() spin (SPIN_N writes, each a spin of at most
#     SPIN_MS with preemption disabled), its cond_resched() loop
#     (RESCHED_MS), then FLAGS_N rounds of its flag states (each
#     combination of eager, lazy and folded, one event in each).
for m in $LAZY $FULL; do
	mode $m
	name=resched-$m
	pfx="resched-$m "
	[ $m = full ] && name=resched-eager pfx="resched-eager "
	setup
	echo 1 > $I/tracing_on
	stamp "$name start"
	lazyload -c 1 spin 30 &
	comp=$!
	echo "${pfx}competitor pid $comp"
	sleep 0.2
	taskset 2 sh -c "i=0; while [ \$i -lt $SPIN_N ]; do echo $SPIN_MS > $SPIN || exit 1; i=\$((i + 1)); done" &
	echo "${pfx}spin pid $!"
	wait $! || echo "FAIL: $name: lazyhog_spin write failed"
	taskset 2 sh -c "echo $RESCHED_MS > $RESCHED" &
	echo "${pfx}cond_resched pid $!"
	wait $! || echo "FAIL: $name: lazyhog_resched write failed"
	taskset 2 sh -c "echo $FLAGS_N > $FLAGS" || echo "FAIL: $name: lazyhog_flags write failed"
	kill $comp
	wait $comp 2> /dev/null
	echo 0 > $I/tracing_on
	stamp "$name end"
	save $name
	teardown
done

# b3. hrtick: the lazy hogs again with the HRTICK scheduler feature on
#     (the fair class's slice-end timer asks for the CPU lazily, the tick
#     upgrades), three lazyhog writers on CPU 1 only. The feature is
#     switched while the guest is quiet.
if [ -n "$LAZY" ]; then
	mode lazy
	echo HRTICK > $FEATURES || echo "FAIL: cannot write HRTICK to $FEATURES"
	grep -qw HRTICK $FEATURES && echo "hrtick: feature on" || echo "FAIL: HRTICK not on: $(cat $FEATURES)"
	setup
	echo 1 > $I/tracing_on
	stamp "hrtick start"
	for n in 1 2 3; do
		taskset 2 sh -c "echo $HRTICK_HOG_MS > $HOG" &
		echo "hrtick hog pid $!"
	done
	wait
	echo 0 > $I/tracing_on
	stamp "hrtick end"
	save hrtick
	teardown
	echo NO_HRTICK > $FEATURES
	grep -qw NO_HRTICK $FEATURES && echo "hrtick: feature off" || echo "FAIL: HRTICK still on"
fi

# c. the messaging load, lazy then full: the same amount of work in both
#    (MSG_LOOPS rounds per sender; MSG_SECS is only a cap).
for m in $LAZY $FULL; do
	mode $m
	name=msg-$m
	[ $m = full ] && name=msg-eager
	setup
	echo 1 > $I/tracing_on
	stamp "$name start"
	lazyload msg $MSG_SECS 2 $MSG_LOOPS
	echo 0 > $I/tracing_on
	stamp "$name end"
	save $name
	teardown
done

# d. the four modes at run time: hackbench (pipes) with cyclictest
#    measuring wake-up latency at the same time; sched_switch only, to
#    count preempted (R+) switches.
MI=$T/instances/lazymodes
for m in $RUN_MODES; do
	mode $m
	rmdir $MI 2>/dev/null
	mkdir $MI && echo 8192 > $MI/buffer_size_kb &&
		echo 1 > $MI/events/sched/sched_switch/enable || echo "FAIL: modes instance"
	cyclictest -q -m -S -p 90 -i 1000 -D 600 > /tmp/ct.$m 2>&1 &
	ct=$!
	sleep 1
	echo 1 > $MI/tracing_on
	hackbench -p -g $HB_GROUPS -l $HB_LOOPS > /tmp/hb.$m 2>&1
	echo 0 > $MI/tracing_on
	kill -INT $ct
	wait $ct
	# the latency format's header names the model (M:)
	echo 1 > $MI/options/latency-format
	echo "modes $m: header $(head -n 8 $MI/trace | grep -o 'M:[a-z_]*')"
	echo 0 > $MI/options/latency-format
	hdr=$(grep -m1 'entries-in-buffer' $MI/trace | sed 's/.*written: //; s/ .*//')
	sw=$(grep -c 'sched_switch:' $MI/trace)
	# cyclictest's own wake-ups preempt whatever runs: not counted
	pre=$(grep 'prev_state=R+ ' $MI/trace | grep -vc 'next_comm=cyclictest')
	prt=$(grep -c 'prev_state=R+ ' $MI/trace)
	echo "modes $m: hackbench $(grep -m1 '^Time' /tmp/hb.$m); switches $sw preempted $pre (by cyclictest too: $prt) (entries $hdr)"
	# hackbench's own switches out, by the state it left in: a model
	# can move switches (R+ to R) rather than remove them
	echo "modes $m: hackbench states $(grep 'sched_switch: prev_comm=hackbench ' $MI/trace |
		grep -o 'prev_state=[A-Z+]*' | sort | uniq -c |
		awk '{ printf "%s=%s ", substr($2, 12), $1 }')"
	grep '^T:' /tmp/ct.$m | sed "s/^/modes $m: cyclictest /"
	rmdir $MI
done
[ -n "$LAZY" ] && mode lazy

# i. the series' kselftest (tools/testing/selftests/sched/preempt_lazy,
#    patch 9), built on the host, with the guest quiet: it selects the
#    modes it needs itself and puts the one it found back. Its TAP
#    output goes to kselftest.tap for check.sh.
if [ -x /bin/preempt_lazy ]; then
	stamp "kselftest start"
	preempt_lazy > $OUT/kselftest.tap 2>&1
	echo "kselftest: preempt_lazy exit $?"
	stamp "kselftest end"
	[ -n "$LAZY" ] && [ -e $P ] && ! grep -q '(lazy)' $P && echo "FAIL: kselftest left $P at '$(cat $P)'"
else
	echo "kselftest: no /bin/preempt_lazy in the initramfs"
fi

# e. hog call sites: lazytrace record with its kernel-stack capture (by
#    default a stacktrace trigger on the tick, filtered on the lazy bit)
#    while three lazyhog writers hog CPU 1 in lazy mode (full mode on a
#    kernel without it: no stack may be taken). Its notes (what it set)
#    go to the log.
if [ -n "${lt_nodyn:-}" ]; then
	echo "hogs-stacks: left out (no PREEMPT_DYNAMIC)"
elif command -v lazytrace > /dev/null; then
	cat > /tmp/stackhogs.sh <<EOF
for n in 1 2 3; do
	taskset 2 sh -c "echo $STACK_HOG_MS > $HOG" &
	echo "stacks hog pid \$!"
done
wait
EOF
	stamp "hogs-stacks start"
	lazytrace record -o /tmp/hogs-stacks.dat -- sh /tmp/stackhogs.sh > /tmp/stackhogs.out 2> /tmp/stackhogs.err
	echo "hogs-stacks: lazytrace record exit $?"
	cat /tmp/stackhogs.out
	sed 's/^/hogs-stacks: lazytrace: /' /tmp/stackhogs.err
	cp /tmp/hogs-stacks.dat $OUT/hogs-stacks.dat
	rm -f /tmp/hogs-stacks.dat
	stamp "hogs-stacks end"
else
	echo "hogs-stacks: left out (no lazytrace in the guest: LAZYTRACE=skip)"
fi

# f. trace-cmd record -T (the stacktrace option: a kernel stack after
#    every event) while two lazyhog writers share CPU 1; trace-cmd's own
#    report of it, for the host to compare with. The tick's exit event
#    shows a lazy request made in the tick (slice expiry), so that the
#    next tick's finds it pending for a whole tick.
cat > /tmp/tchogs.sh <<EOF
for n in 1 2; do
	taskset 2 sh -c "echo $TC_HOG_MS > $HOG" &
	echo "tc-stacks hog pid \$!"
done
wait
EOF
stamp "tc-stacks start"
if [ -z "$LAZY" ] || [ -n "${lt_nodyn:-}" ]; then
	echo "tc-stacks: left out (no lazy mode, or no PREEMPT_DYNAMIC)"
elif trace-cmd record -T -b 8192 -e irq_vectors:local_timer_entry -e irq_vectors:local_timer_exit \
	-e sched:sched_switch -e sched:sched_wakeup -o /tmp/tc-stacks.dat sh /tmp/tchogs.sh > /tmp/tc.out 2> /tmp/tc.err; then
	grep 'hog pid' /tmp/tc.out
	cp /tmp/tc-stacks.dat $OUT/tc-stacks.dat
	trace-cmd report /tmp/tc-stacks.dat > $OUT/tc-stacks.report.txt 2> /tmp/tc.report.err ||
		echo "FAIL: trace-cmd report tc-stacks.dat: $(head -1 /tmp/tc.report.err)"
	rm -f /tmp/tc-stacks.dat
else
	echo "FAIL: trace-cmd record -T: $(tail -3 /tmp/tc.err | tr '\n' ' ')"
fi
stamp "tc-stacks end"

# h. KVM guest entry (patch 2), where the kernel has KVM and the CPU
#    virtualization (TCG emulates SVM): a vCPU thread on CPU 1 whose guest
#    leaves guest mode for the kernel at every CPUID and for user space
#    only every 200 of them, with fair wake-ups from CPU 0 making lazy
#    requests on it. Each must be honoured at the next exit, in the
#    kernel's run loop, not at the tick.
if [ -n "$LAZY" ] && [ -e /dev/kvm ]; then
	mode lazy
	KI=$T/instances/lazykvm
	rmdir $KI 2>/dev/null
	mkdir $KI && echo 4096 > $KI/buffer_size_kb || echo "FAIL: kvm instance"
	# kvm_entry: the flags at each entry into the guest
	for e in sched/sched_switch sched/sched_waking irq_vectors/local_timer_entry kvm/kvm_entry; do
		echo 1 > $KI/events/$e/enable || echo "FAIL: kvm: cannot enable $e"
	done
	echo 1 > $KI/tracing_on
	lazyload -c 1 fair 2 30 0 &
	kvmlazy -c 1 2 200 > /tmp/kvm.out 2>&1 || echo "FAIL: kvmlazy: $(tail -1 /tmp/kvm.out)"
	wait
	echo 0 > $KI/tracing_on
	cat $KI/trace > $OUT/kvm.txt
	rmdir $KI
	sed 's/^/kvm: /' /tmp/kvm.out
	stamp "kvm done"
fi

# g. every event the kernel has, for a short mixed load: fork/exec, file
#    I/O on tmpfs, pipes, sleeps, the messaging load. One instance buffer,
#    big enough that nothing is lost; saved as the other recordings are.
[ -z "$LAZY" ] || [ -n "${lt_nodyn:-}" ] && { stamp "done"; exit 0; }
rmdir $I 2>/dev/null
mkdir $I || exit 1
echo 0 > $I/tracing_on
echo $ALL_BUF_KB > $I/buffer_size_kb
echo 1 > $I/events/enable
echo 1 > $I/tracing_on
stamp "allevents start"
(for i in 1 2 3 4; do /bin/true; ls / > /dev/null; done) &
(dd if=/dev/zero of=/tmp/ddtmp bs=64k count=8 2> /dev/null; cat /tmp/ddtmp > /dev/null; rm -f /tmp/ddtmp) &
(seq 1 2000 | cat | wc -l > /dev/null) &
(sleep 0.05; sleep 0.02) &
lazyload msg 1 1 20 > /dev/null &
sleep $ALL_SECS
wait
echo 0 > $I/tracing_on
stamp "allevents end"
echo 0 > $I/events/enable
save allevents
teardown
stamp "done"
