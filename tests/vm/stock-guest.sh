#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the stock-kernel VM (busybox sh). LT_RUN (kernel command
# line, comma-separated) lists what to do, in order:
#   info              kernel, preempt model, sched features, probe support
#   rec:NAME          the hog workload recorded into a tracefs instance,
#                     saved as NAME.txt, NAME.lat.txt (the kernel's text of
#                     the buffer) and NAME.dat (trace-cmd extract of it)
#   stacks:NAME       the same plus a stacktrace trigger on the tick,
#                     filtered on the lazy bit of common_flags
#   all:NAME          every event, about a second of mixed load
#   probes:NAME       kprobe, kretprobe (also on a module's function),
#                     fprobe, tracepoint probe, eprobe, uprobe and uretprobe events with fetch args of many
#                     types (group ltprobe) on a short mixed load; the
#                     uprobes need OUT/uprobe-main (lazyload's main as
#                     0xOFFSET in its file)
#   allipi:NAME       the same, and a sched feature flipped off and on in
#                     the window: its static key patches the kernel's text
#                     on every CPU, an IPI to a cpumask (s390x sends no
#                     other in that load: no bitmask in the trace)
#   fgraph:NAME       the function_graph tracer (the top buffer: an
#                     instance has none before 6.x) on read() of a dd,
#                     depth 6, with the kernel's graph text (absolute
#                     time, CPU, task) as NAME.txt and NAME.dat
#   hrtick:on|off     HRTICK / NO_HRTICK (only between scenarios: quiet)
#   preempt:MODE      the preemption model, as /sys/kernel/debug/sched/preempt
#   housekeeping:off  khugepaged and proactive compaction idle (see below)
#   lt:TAG            lazytrace record, live --json and tui --live (tmux)
#                     on the hog workload and on hackbench, files TAG-*
#   startup:TAG       live's start-up (to its instance tracing), 3 times
#   stopabove:TAG     record --stop-above 2ms on the hog workload, TAG-stop*
#   khist:TAG         lazytrace hist (in the kernel) with a record of the
#                     same run, and hist's CPU against live's, files TAG-hist*
#   case:TAG          the spinlock case study, fresh and pre-faulted memory
#   big:TAG           lazytrace record of hackbench, about 600k events with
#                     the kernel's whole kallsyms: bench/'s distribution
#                     kernel trace (TAG.dat, TAG.log)
#   bigtc:TAG         the same load and events by trace-cmd record, for a
#                     guest with no lazytrace of its arch (s390x: bench/'s
#                     big-endian trace)
# LT_SECS: workload seconds (default 3); LT_HZ: the kernel's CONFIG_HZ;
# LT_LIVE_SAVE=1: live also writes its intervals (OUT/TAG-live-saved/).
OUT=${1:-/out}
T=/sys/kernel/tracing
F=/sys/kernel/debug/sched/features
# before 5.13 (Debian bullseye's 5.10)
[ -f $F ] || F=/sys/kernel/debug/sched_features
INST=lazyvm
I=$T/instances/$INST
PROBE=lazytrace/set_need_resched
TRIGGER='stacktrace if common_flags & 2'
SECS=${LT_SECS:-3}
EVENTS="sched/sched_switch sched/sched_waking sched/sched_wakeup sched/sched_wakeup_new
irq_vectors/local_timer_entry irq_vectors/local_timer_exit
irq_vectors/reschedule_entry irq_vectors/reschedule_exit
timer/hrtimer_expire_entry timer/hrtimer_expire_exit
irq/softirq_entry irq/softirq_exit"

stamp() { echo "=== $(cut -d' ' -f1 /proc/uptime) $*"; }
# The model in use; empty on kernels without PREEMPT_DYNAMIC (Debian's
# arm64 7.2: lazy is built in and there is no sched/preempt file).
preempt_model() {
	[ -f /sys/kernel/debug/sched/preempt ] &&
		sed -n 's/.*(\([a-z]*\)).*/\1/p' /sys/kernel/debug/sched/preempt
}
# The setup line of CONTRACT.md; unknown fields are left out.
setup_line() {
	p=$(preempt_model)
	echo "lazytrace-setup: release=$(uname -r)${p:+ preempt=$p}${LT_HZ:+ hz=$LT_HZ}" \
		"sched_features=$(tr ' ' ',' < $F | sed 's/,$//')"
}

# The tracepoint probe on the bare sched_set_need_resched tracepoint:
# first with the task's pid and comm through BTF, then the raw arguments.
probe_add() {
	for args in "pid=tsk->pid comm=tsk->comm:string cpu=cpu tif=tif" \
		    "pid=tsk->pid cpu=cpu tif=tif" "tsk cpu tif" ""; do
		if echo "t:$PROBE sched_set_need_resched_tp $args" >> $T/dynamic_events 2>/dev/null; then
			echo "probe: t:$PROBE sched_set_need_resched_tp $args"
			return 0
		fi
		echo "probe rejected: '$args': $(tail -n 2 $T/error_log | tr '\n' ' ')"
	done
	return 1
}
probe_del() {
	grep -q "$PROBE" $T/dynamic_events 2>/dev/null || return 0
	echo "-:$PROBE" >> $T/dynamic_events || echo "cannot remove probe $PROBE"
}

resched_funcs() {
	grep -E '^_*resched_curr[a-z_]*( |$)' $T/available_filter_functions | cut -d' ' -f1 | tr '\n' ' '
}

setup() { # what: basic|stacks|all
	rmdir $I 2>/dev/null
	mkdir $I || exit 1
	echo 0 > $I/tracing_on
	echo "${LT_BUF_KB:-32768}" > $I/buffer_size_kb
	if [ "$1" = all ] || [ "$1" = allipi ]; then
		echo 1 > $I/events/enable
		return
	fi
	[ "$1" = probes ] && return
	for e in $EVENTS; do
		echo 1 > $I/events/$e/enable || echo "cannot enable $e"
	done
	if [ -d $T/events/$PROBE ]; then
		echo 1 > $I/events/$PROBE/enable || echo "cannot enable $PROBE"
	fi
	fn=$(resched_funcs)
	if [ -n "$fn" ] && echo "$fn" > $I/set_ftrace_filter; then
		echo function > $I/current_tracer
		echo "function tracer on: $fn"
	fi
	if [ "$1" = stacks ]; then
		if echo "$TRIGGER" > $I/events/irq_vectors/local_timer_entry/trigger; then
			echo "trigger: $(grep -v '^#' $I/events/irq_vectors/local_timer_entry/trigger)"
		else
			echo "trigger rejected: $(tail -n 2 $T/error_log | tr '\n' ' ')"
		fi
	fi
}

teardown() {
	if [ -d $I ]; then
		t=$I/events/irq_vectors/local_timer_entry/trigger
		[ -f $t ] && grep -q stacktrace $t && echo "!$TRIGGER" > $t
		echo nop > $I/current_tracer
		rmdir $I || echo "cannot remove instance $INST"
	fi
}

save() {
	stamp "save $1"
	echo 0 > $I/options/latency-format
	cat $I/trace > $OUT/$1.txt
	echo 1 > $I/options/latency-format
	cat $I/trace > $OUT/$1.lat.txt
	echo 0 > $I/options/latency-format
	grep -m1 'entries-in-buffer' $OUT/$1.txt
	cat $I/per_cpu/cpu*/stats | grep -E 'overrun|dropped'
	trace-cmd extract --compression zstd -B $INST -o $OUT/$1.dat > $OUT/$1.extract.log 2>&1 ||
		trace-cmd extract -B $INST -o $OUT/$1.dat >> $OUT/$1.extract.log 2>&1
	stamp "saved $1"
}

# The hog workload, all on CPU 1: three kernel hogs reading /dev/zero in
# 64 MiB blocks (read_zero only checks the eager need-resched bit), a
# user-space spinner, a 10 ms sleeper; SECS seconds. A script, so that
# lazytrace record can run it as its command.
cat > /tmp/hogs.sh <<EOS
echo "script pid \$\$"
lazyload -c 1 sleep $((SECS + 1)) 10 &
echo "sleeper pid \$!"
lazyload -c 1 spin $((SECS + 1)) &
echo "spinner pid \$!"
p=
for n in 1 2 3; do
	taskset 2 dd if=/dev/zero of=/dev/null bs=64M 2>/dev/null &
	p="\$p \$!"
	echo "hog pid \$!"
done
sleep $SECS
kill \$p
wait
EOS
hogs() {
	sh /tmp/hogs.sh
}

# Mixed load for the all-events recordings: pipe messaging, a reader of
# /dev/zero, a sleeper.
mixed() {
	hackbench -p -g 2 -f 5 -l ${LT_MSG_LOOPS:-30} > /dev/null &
	dd if=/dev/zero of=/dev/null bs=1M count=128 2>/dev/null &
	if [ "$1" = ipi ]; then
		echo NO_HRTICK > $F
		echo HRTICK > $F
	fi
	sleep 1
	wait
}

record() { # kind name
	stamp "$2 start ($(preempt_model), $(grep -o '[A-Z_]*HRTICK ' $F | head -n 1))"
	setup $1
	echo 1 > $I/tracing_on
	setup_line > $I/trace_marker
	case $1 in
	all)	mixed ;;
	allipi)	mixed ipi ;;
	*)	hogs ;;
	esac
	echo 0 > $I/tracing_on
	stamp "$2 end"
	save $2
	teardown
}

# The function graph of a read() path: leaves, nested calls, returns.
fgraph() {
	stamp "$1 start"
	echo 0 > $T/tracing_on
	echo nop > $T/current_tracer
	echo > $T/trace
	echo 6 > $T/max_graph_depth
	echo ksys_read > $T/set_graph_function ||
		echo "set_graph_function: $(tail -n 2 $T/error_log | tr '\n' ' ')"
	if ! echo function_graph > $T/current_tracer; then
		echo "no function_graph tracer"
		return
	fi
	for o in funcgraph-abstime funcgraph-proc funcgraph-cpu; do
		echo 1 > $T/options/$o
	done
	echo 1 > $T/tracing_on
	dd if=/dev/zero of=/dev/null bs=4k count=${LT_FGRAPH_READS:-40} 2>/dev/null
	echo 0 > $T/tracing_on
	cat $T/trace > $OUT/$1.txt
	grep -m1 'entries-in-buffer' $OUT/$1.txt
	trace-cmd extract -o $OUT/$1.dat > $OUT/$1.extract.log 2>&1 ||
		echo "trace-cmd extract failed: $(tail -n 3 $OUT/$1.extract.log)"
	echo nop > $T/current_tracer
	echo > $T/set_graph_function
	for o in funcgraph-abstime funcgraph-proc; do
		echo 0 > $T/options/$o
	done
	stamp "$1 end"
}

# Every kind of dynamic probe, with fetch args of every type.
probes() {
	off=$(cat $OUT/uprobe-main 2>/dev/null)
	while read -r file def; do
		if echo "$def" >> $T/$file 2>/dev/null; then
			echo "probe: $def"
		else
			echo "probe rejected: '$def': $(tail -n 2 $T/error_log | tr '\n' ' ')"
		fi
	done <<EOP
dynamic_events p:ltprobe/kp_read vfs_read file=\$arg1:x64 count=\$arg3:u64 c32=\$arg3:u32 c16=\$arg3:u16 c8=\$arg3:u8 s32=\$arg3:s32 s8=\$arg3:s8 x32=\$arg3:x32 x16=\$arg3:x16 bits=\$arg3:b4@4/32 comm=\$comm:string
dynamic_events r:ltprobe/kr_read vfs_read ret=\$retval:s64 x=\$retval:x64
dynamic_events p:ltprobe/kp_timer call_timer_fn fn=\$arg2:symbol fns=\$arg2:symstr stk=+0(%sp):x64[2]
dynamic_events p:ltprobe/kp_open do_sys_openat2 dfd=\$arg1:s32 name=+0(\$arg2):ustring
dynamic_events f:ltprobe/fp_write vfs_write count=count:u64 buf=buf:x64
dynamic_events f:ltprobe/fp_write_ret vfs_write%return ret=\$retval:s64
dynamic_events t:ltprobe/tp_switch sched_switch prev=prev->pid:s32 next=next->pid:s32 pcomm=prev->comm:string
dynamic_events p:ltprobe/kp_9p p9_client_rpc c=\$arg1:x64 type=\$arg2:s8
dynamic_events r:ltprobe/kr_9p p9_client_rpc ret=\$retval:x64
dynamic_events e:ltprobe/ep_waking sched/sched_waking pid=\$pid:s32 prio=\$prio:x32 tcpu=\$target_cpu:u32
uprobe_events p:ltprobe/up_main /bin/lazyload:$off argc=%di:s32 arg0=+0(+0(%si)):string
uprobe_events r:ltprobe/ur_main /bin/lazyload:$off ret=\$retval:s32
EOP
	stamp "$1 start"
	setup probes
	echo 1 > $I/events/ltprobe/enable || echo "cannot enable ltprobe"
	echo 1 > $I/tracing_on
	setup_line > $I/trace_marker
	cat /proc/version > /dev/null
	cat /nonexistent 2>/dev/null
	ls / > /dev/null
	ls $OUT > /dev/null	# 9p: functions of the 9pnet module
	echo probe-write > /tmp/probe-write
	lazyload sleep 1 10
	dd if=/dev/zero of=/dev/null bs=4k count=20 2>/dev/null
	echo 0 > $I/tracing_on
	stamp "$1 end"
	save $1
	teardown
	echo 0 > $T/events/ltprobe/enable 2>/dev/null
	grep ltprobe $T/dynamic_events | sed 's/^[a-z]*:\([^ ]*\) .*/-:\1/' |
		while read -r d; do echo "$d" >> $T/dynamic_events; done
}

# lazytrace itself on the same workloads. tracefs must be as clean after
# it as before.
tracefs_state() {
	ls $T/instances
	cat $T/dynamic_events
	cat $T/events/irq_vectors/local_timer_entry/trigger | grep -v '^#'
	cat $T/set_event_notrace_pid $T/set_ftrace_notrace_pid 2>/dev/null
}
# Until a lazytrace instance traces (tracing_on), 60 s at most: live and
# the TUI read the kernel's symbols before they start, which takes
# seconds under emulation; the workload is for what they trace.
wait_tracing() {
	n=0
	while [ $n -lt 60 ]; do
		for f in $T/instances/lazytrace-*/tracing_on; do
			[ -f "$f" ] && [ "$(cat $f)" = 1 ] && return 0
		done
		sleep 1
		n=$((n + 1))
	done
	echo "no lazytrace instance traced within 60 s"
	return 1
}

# tui --live in a detached tmux session under the hog load: the screen
# is captured after SECS seconds, then q must end it within 10 s; a TUI
# that does not is killed (and reported) so that it does not load the
# next run.
tui() {
	rc=/tmp/tui-$1.rc
	export TERM=xterm-256color LANG=C.UTF-8
	tmux new-session -d -s lt -x 160 -y 48 "lazytrace tui --live; echo \$? > $rc"
	wait_tracing
	hogs > /dev/null &
	sleep $SECS
	tmux capture-pane -p -t lt > $OUT/$1-tui.txt
	wait
	# under TCG the first screen can take a while: up to 16 s more
	n=0
	while [ $n -lt 16 ]; do
		sleep 2
		n=$((n + 2))
		tmux capture-pane -p -t lt > $OUT/$1-tui-end.txt
		grep -q 'Reading the input' $OUT/$1-tui-end.txt || break
	done
	echo "$1 tui screen after the load (+${n} s): $(grep -c '[^ ]' $OUT/$1-tui-end.txt) non-empty lines"
	tmux send-keys -t lt q
	n=0
	while [ ! -f $rc ] && [ $n -lt 10 ]; do
		sleep 1
		n=$((n + 1))
	done
	if [ -f $rc ]; then
		echo "$1 tui quit on q: exit $(cat $rc)"
	else
		echo "$1 tui did not quit on q within 10 s: killing it"
		tmux capture-pane -p -t lt > $OUT/$1-tui-q.txt
		pids=$(pidof lazytrace)
		[ -n "$pids" ] && kill $pids
		sleep 3
		pids=$(pidof lazytrace)
		[ -n "$pids" ] && echo "$1 tui survived SIGTERM" && kill -9 $pids
		sleep 1
	fi
	tmux kill-server 2>/dev/null
	echo "$1 tui screen: $(grep -c '[^ ]' $OUT/$1-tui.txt) non-empty lines"
}

# lazytrace and the workload write into the guest's RAM and the results
# are copied to the 9p share afterwards: record -o on the 9p mount hung
# the guest (its spool files are unlinked temporaries next to the
# output), and a task waiting for 9p I/O lets the guest idle, which with
# -icount sleep=off jumps guest time ahead and ends a -d recording early. Each run is
# bounded by timeout so that a hang fails the step instead of the VM.
lt() {
	tag=$1
	tracefs_state > /tmp/before
	stamp "lt $tag record"
	timeout -s KILL 300 lazytrace record -o /tmp/r.dat -d $((SECS + 2)) -- sh /tmp/hogs.sh \
		> /tmp/r.log 2>&1
	echo "$tag record exit $?"
	mv /tmp/r.dat $OUT/$tag-record.dat
	mv /tmp/r.log $OUT/$tag-record.log
	stamp "lt $tag record hackbench"
	timeout -s KILL 300 lazytrace record -o /tmp/m.dat -d 20 -- hackbench -p -g 2 -l 50 \
		> /tmp/m.log 2>&1
	echo "$tag record hackbench exit $?"
	mv /tmp/m.dat $OUT/$tag-msg.dat
	mv /tmp/m.log $OUT/$tag-msg.log
	stamp "lt $tag live"
	(wait_tracing && hogs > /dev/null) &
	# live runs on the workload's CPU. Single-threaded TCG (-icount)
	# runs one vCPU at a time: while live analysed an interval on CPU 0,
	# CPU 1 barely ran between its timer interrupts, its hrtick fired
	# only with the tick, and the hog workload's requests waited 12-20
	# ms: live called 1-3 tasks hogs. A shell busy loop on CPU 0 during
	# record did the same to record (7 hogs); on hardware it would not.
	# LT_LIVE_SAVE=1: keep every interval (live --save), to read again
	# with report or hogs; it writes kallsyms with each, on live's CPU.
	save=
	if [ "${LT_LIVE_SAVE:-0}" = 1 ]; then
		rm -rf /tmp/live-saved
		mkdir /tmp/live-saved
		save="--save /tmp/live-saved"
	fi
	taskset 2 timeout -s KILL 300 lazytrace live --json -d $((SECS + 2)) $save > /tmp/live.json 2> /tmp/live.err
	echo "$tag live exit $?"
	mv /tmp/live.json $OUT/$tag-live.json
	mv /tmp/live.err $OUT/$tag-live.err
	[ -n "$save" ] && mv /tmp/live-saved $OUT/$tag-live-saved
	wait
	stamp "lt $tag tui"
	if command -v tmux > /dev/null; then
		tui $tag
	else
		echo "$tag tui: no tmux in the guest"
	fi
	tracefs_state > /tmp/after
	if cmp -s /tmp/before /tmp/after; then
		echo "$tag tracefs clean after lazytrace"
	else
		echo "$tag tracefs NOT clean after lazytrace:"
		diff /tmp/before /tmp/after
	fi
	stamp "lt $tag done"
}
# Single-threaded TCG runs one vCPU at a time, so CPU 0's work is taken
# from CPU 1's. In 3 of 12 runs khugepaged spent about 370 ms of CPU 0
# collapsing the hogs' buffers inside live's window (under 2 ms in every
# record window), and dd's requests waited 8-36 ms in the scheduler on
# CPU 1: live named hogs with HRTICK. On hardware CPU 0's work does not
# stop CPU 1; the huge pages the hogs fault in stay as they are.
housekeeping_off() {
	k=/sys/kernel/mm/transparent_hugepage/khugepaged
	c=/proc/sys/vm/compaction_proactiveness
	echo 3600000 > $k/scan_sleep_millisecs
	echo 3600000 > $k/alloc_sleep_millisecs
	echo 0 > $c
	echo "housekeeping: khugepaged sleeps $(cat $k/scan_sleep_millisecs) ms, compaction_proactiveness $(cat $c)"
}
info() {
	uname -a
	cat /proc/cmdline
	echo "preempt: $(cat /sys/kernel/debug/sched/preempt)"
	echo "features: $(cat $F)"
	echo "resched functions: $(resched_funcs)"
	grep -c . $T/available_events | sed 's/^/available events: /'
	if probe_add; then
		cat $T/events/$PROBE/format
		probe_del
	fi
	setup_line
}

# lazytrace hist (in-kernel histograms) on the hog workload, with a
# lazytrace record of the same run to check its counts against; then the
# CPU of hist and of live --json, each alone on the same workload, in
# clock ticks (utime + stime of /proc/PID/stat, last seen before it
# ended): files TAG-hist.json, TAG-hist.err, TAG-hist-record.dat,
# TAG-hist-cpu.
cpu_ticks() { # pid: "STATE utime+stime" with its waited-for children's
	[ -r /proc/$1/stat ] &&
		sed 's/.*) //' /proc/$1/stat | awk '{ print $1, $12 + $13 + $14 + $15 }'
}
# cpu_of OUT ERR CMD...: CMD in the background, its output in OUT and
# ERR; prints its CPU ticks, read once it is a zombie (exact: the kernel
# keeps them until it is waited for), and its exit status.
cpu_of() {
	o=$1 e=$2
	shift 2
	"$@" > $o 2> $e &
	pid=$!
	last=0
	while :; do
		t=$(cpu_ticks $pid)
		[ -z "$t" ] && break
		last=${t#* }
		[ "${t%% *}" = Z ] && break
		sleep 0.1
	done
	wait $pid
	echo "$last exit $?"
}
# Until an instance of hist's has its triggers (its synthetic events).
wait_khist() {
	n=0
	while [ $n -lt 60 ]; do
		grep -q '^lazytrace_[0-9]*_eager' $T/synthetic_events 2>/dev/null && return 0
		sleep 1
		n=$((n + 1))
	done
	echo "no hist triggers within 60 s"
	return 1
}
khist() {
	tag=$1
	tracefs_state > /tmp/before
	cat $T/synthetic_events >> /tmp/before
	stamp "khist $tag"
	# record starts first and ends last: both see the whole workload,
	# which starts once both trace (record reads the symbols first)
	timeout -s KILL 300 lazytrace record -o /tmp/hr.dat -d $((SECS + 14)) > /tmp/hr.log 2>&1 &
	rec=$!
	(wait_khist && wait_tracing && hogs > /dev/null) &
	c=$(cpu_of /tmp/h.json /tmp/h.err taskset 1 lazytrace hist --json -d $((SECS + 10)))
	echo "$tag hist cpu ticks $c"
	echo "hist $c" > $OUT/$tag-hist-cpu
	wait $rec
	echo "$tag hist record exit $?"
	wait
	mv /tmp/h.json $OUT/$tag-hist.json
	mv /tmp/h.err $OUT/$tag-hist.err
	mv /tmp/hr.dat $OUT/$tag-hist-record.dat
	mv /tmp/hr.log $OUT/$tag-hist-record.log
	stamp "khist $tag live cpu"
	(wait_tracing && hogs > /dev/null) &
	c=$(cpu_of /dev/null /dev/null taskset 1 lazytrace live --json -d $((SECS + 6)))
	echo "$tag live cpu ticks $c"
	echo "live $c" >> $OUT/$tag-hist-cpu
	wait
	stamp "khist $tag hist cpu"
	(wait_khist && hogs > /dev/null) &
	c=$(cpu_of /dev/null /dev/null taskset 1 lazytrace hist --json -d $((SECS + 6)))
	echo "$tag hist alone cpu ticks $c"
	echo "hist-alone $c" >> $OUT/$tag-hist-cpu
	wait
	# trace-cmd record of the events live reads, on the same load, for
	# the figures (its per-CPU recorders are its waited-for children)
	stamp "khist $tag trace-cmd cpu"
	(while [ "$(cat $T/events/sched/sched_switch/enable)" != 1 ]; do
		sleep 0.1; done; hogs > /dev/null) &
	c=$(cpu_of /dev/null /dev/null taskset 1 trace-cmd record -o /tmp/tc.dat \
		-e sched:sched_switch -e sched:sched_waking -e sched:sched_wakeup \
		-e irq_vectors:local_timer_entry -e irq_vectors:local_timer_exit \
		-e timer:hrtimer_expire_entry -e timer:hrtimer_expire_exit \
		sleep $((SECS + 6)))
	echo "$tag trace-cmd record cpu ticks $c"
	echo "trace-cmd $c" >> $OUT/$tag-hist-cpu
	wait
	rm -f /tmp/tc.dat*
	# a hist killed with its triggers set: the next one removes what it
	# left (its instance, synthetic events and probe)
	stamp "khist $tag killed"
	lazytrace hist -d 60 > /dev/null 2>&1 &
	p=$!
	wait_khist && sleep 2
	kill -KILL $p
	wait $p
	echo "$p" > $OUT/$tag-hist-killed
	grep "lazytrace.*$p" $T/synthetic_events $T/dynamic_events >> $OUT/$tag-hist-killed
	ls $T/instances | grep "lazytrace-$p" >> $OUT/$tag-hist-killed
	timeout -s KILL 120 lazytrace hist -d 1 > /dev/null 2> $OUT/$tag-hist-stale.err
	echo "$tag hist after a killed one exit $?"
	tracefs_state > /tmp/after
	cat $T/synthetic_events >> /tmp/after
	if cmp -s /tmp/before /tmp/after; then
		echo "$tag tracefs clean after hist"
	else
		echo "$tag tracefs NOT clean after hist:"
		diff /tmp/before /tmp/after
	fi
	stamp "khist $tag done"
}

# live's start-up: from the command to its instance tracing (the first
# interval's start), three times, in ms of guest time (/proc/uptime),
# looked at every 50 ms.
uptime_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}
startup() {
	stamp "startup $1"
	for i in 1 2 3; do
		t0=$(uptime_ms)
		lazytrace live -d 2 --save /tmp/su > /dev/null 2>&1 &
		p=$!
		n=0
		while [ "$(cat $T/instances/lazytrace-$p/tracing_on 2>/dev/null)" != 1 ] &&
		      [ $n -lt 1200 ]; do
			sleep 0.05
			n=$((n + 1))
		done
		t1=$(uptime_ms)
		wait $p
		echo "$1 live start-up $((t1 - t0)) ms"
		rm -rf /tmp/su
	done
}

# lazytrace record --stop-above 2ms on the hog workload's CPU 1 (lazy
# requests): it stops a second after the first one that waited that long
# and names it (a dd hog's or the spinner's: on CPU 0 the script's shell
# waited 7 ms once, under emulation); files TAG-stop.dat, TAG-stop.log.
stopabove() {
	stamp "stopabove $1"
	timeout -s KILL 300 lazytrace record -o /tmp/sa.dat -d $((SECS + 20)) \
		--cpu 1 --stop-above 2ms -- sh /tmp/hogs.sh > /tmp/sa.log 2>&1
	echo "$1 record --stop-above exit $?"
	# record stopped the script with SIGTERM: its hogs run on
	pids="$(pidof dd) $(pidof lazyload)"
	[ -n "${pids% }" ] && kill $pids 2>/dev/null
	wait
	mv /tmp/sa.dat $OUT/$1-stop.dat
	mv /tmp/sa.log $OUT/$1-stop.log
}

# The case study (docs/case-spinlock.md): three spinlock-fault threads
# on CPU 1, holders faulting fresh memory, then with it pre-faulted, each
# recorded with a stack at every preemption and the system calls; files
# TAG-case-MEM.dat, .out (the program's spin and hold times) and .log.
casestudy() {
	# the series' minimal kernel has no syscall events
	sc=--syscalls
	[ -d $T/events/raw_syscalls ] || sc=
	for mem in fresh prefault; do
		opt=
		[ $mem = prefault ] && opt=-p
		stamp "case $1 $mem"
		timeout -s KILL 300 lazytrace record --stacks=preempt $sc \
			-o /tmp/c.dat -- taskset -c 1 spinlock-fault -t 3 -d $SECS $opt \
			> /tmp/c.out 2> /tmp/c.log
		echo "record exit $?" >> /tmp/c.log
		echo "$1 case $mem $(tail -n 1 /tmp/c.log)"
		mv /tmp/c.dat $OUT/$1-case-$mem.dat
		mv /tmp/c.out $OUT/$1-case-$mem.out
		mv /tmp/c.log $OUT/$1-case-$mem.log
	done
}

big() {
	stamp "big $1"
	timeout -s KILL 600 lazytrace record --buffer-size 16384 -o /tmp/big.dat -- \
		hackbench -p -g 2 -l 300 > $OUT/$1.log 2>&1
	echo "record exit $?" >> $OUT/$1.log
	mv /tmp/big.dat $OUT/$1.dat
	echo "big $1 $(tail -n 1 $OUT/$1.log)"
}

# lazytrace record's events (lt-events.c) and its function tracer on
# resched_curr*, by trace-cmd, with the setup line it writes first.
bigtc() {
	stamp "bigtc $1"
	ev=
	for e in sched:sched_switch sched:sched_waking sched:sched_wakeup \
		 sched:sched_wakeup_new sched:sched_process_fork \
		 sched:sched_process_exit timer:hrtimer_expire_entry \
		 timer:hrtimer_expire_exit timer:hrtimer_start \
		 irq:softirq_entry irq:softirq_exit; do
		ev="$ev -e $e"
	done
	fn=
	for f in $(resched_funcs); do
		fn="$fn -l $f"
	done
	timeout -s KILL 900 trace-cmd record -q -b 16384 -o /tmp/big.dat $ev \
		${fn:+-p function $fn} -- sh -c "echo '$(setup_line)' > $T/trace_marker;
		hackbench -p -g 2 -l ${LT_BIG_LOOPS:-360}" > $OUT/$1.log 2>&1
	echo "record exit $?" >> $OUT/$1.log
	mv /tmp/big.dat $OUT/$1.dat
	echo "bigtc $1 $(tail -n 1 $OUT/$1.log)"
}

stamp start
for step in $(echo "${LT_RUN:-info}" | tr ',' ' '); do
	arg=${step#*:}
	case $step in
	info)		info ;;
	probe:on)	probe_add ;;
	probe:off)	probe_del ;;
	preempt:*)	sleep 1; echo $arg > /sys/kernel/debug/sched/preempt
			echo "preempt: $(preempt_model)" ;;
	hrtick:on)	sleep 1; echo HRTICK > $F; echo "features: $(cat $F)" ;;
	hrtick:off)	sleep 1; echo NO_HRTICK > $F; echo "features: $(cat $F)" ;;
	housekeeping:off) housekeeping_off ;;
	rec:*)		record basic $arg ;;
	stacks:*)	record stacks $arg ;;
	all:*)		record all $arg ;;
	probes:*)	probes $arg ;;
	allipi:*)	record allipi $arg ;;
	fgraph:*)	fgraph $arg ;;
	lt:*)		lt $arg ;;
	khist:*)	khist $arg ;;
	startup:*)	startup $arg ;;
	stopabove:*)	stopabove $arg ;;
	case:*)		casestudy $arg ;;
	big:*)		big $arg ;;
	bigtc:*)	bigtc $arg ;;
	*)		echo "unknown step $step" ;;
	esac
done
probe_del
stamp done
