#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The recorder's footprint: `trace-cmd record` and `lazytrace record`
# record the same events while the same workload runs; for each, the
# share of the trace's events that are the recorder's own (its pids), its
# CPU time (user + system, children included, from time(1)) against the
# run's length, and the trace's size. As root; writes into BENCH_DIR
# (/var/tmp/lt-bench).
#
#   bench/bench-record.sh [SECONDS]
#
# Workload, SECONDS long: three `dd if=/dev/zero of=/dev/null bs=64M`
# kernel hogs and a shell busy loop pinned to the last CPU, plus a shell
# pipe of small writes on any CPU. Events: those lazytrace record enables
# here (sched, irq_vectors timer and reschedule, timer:hrtimer_expire_*,
# irq softirq_*); no function tracer for either (lazytrace enables it only
# where hrtimer events are missing), no probe (this host has none).
set -u
SECS=${1:-3}
LT=${LAZYTRACE:-$(cd "$(dirname "$0")/.." && pwd)/lazytrace}
DIR=${BENCH_DIR:-/var/tmp/lt-bench}
T=/sys/kernel/tracing
[ "$(id -u)" = 0 ] || { echo "bench-record: needs root"; exit 2; }
command -v trace-cmd >/dev/null || { echo "bench-record: no trace-cmd"; exit 2; }
[ -x /usr/bin/time ] || { echo "bench-record: no /usr/bin/time"; exit 2; }
mkdir -p "$DIR" || exit 2
cpu=$(($(nproc) - 1))

EVENTS="sched:sched_switch sched:sched_waking sched:sched_wakeup
sched:sched_wakeup_new sched:sched_process_fork sched:sched_process_exit
timer:hrtimer_expire_entry timer:hrtimer_expire_exit
irq:softirq_entry irq:softirq_exit irq:softirq_raise"
for e in local_timer_entry local_timer_exit reschedule_entry reschedule_exit; do
	[ -d $T/events/irq_vectors/$e ] && EVENTS="$EVENTS irq_vectors:$e"
done

workload() {
	pids=""
	for i in 1 2 3; do
		taskset -c $cpu dd if=/dev/zero of=/dev/null bs=64M 2>/dev/null &
		pids="$pids $!"
	done
	taskset -c $cpu sh -c 'while :; do :; done' &
	pids="$pids $!"
	sh -c 'while :; do echo x; done | while read l; do :; done' &
	pids="$pids $!"
	sleep "$SECS"
	# the pipe's shells are the last one's children
	for p in $pids; do pkill -P $p 2>/dev/null; kill $p 2>/dev/null; done
	for p in $pids; do wait $p 2>/dev/null; done
}

# run NAME DAT CMD...: CMD records during the workload until SIGINT.
run() {
	name=$1 dat=$2
	shift 2
	/usr/bin/time -f "%e %U %S" -o "$DIR/$name.time" "$@" \
		> "$DIR/$name.out" 2> "$DIR/$name.err" &
	wp=$!
	sleep 1
	# the recorder (time's child) and its threads' and readers' pids:
	# other lazytrace runs on the machine are not its own
	rp=$(pgrep -P $wp)
	own_re=$( (echo $rp; pgrep -P $rp; ls /proc/$rp/task) 2>/dev/null |
		sort -u | tr '\n' '|' | sed 's/|$//')
	workload
	sleep 0.5
	# the recorder itself (time's only child), not time(1)
	pkill -INT -P $wp
	wait $wp
	"$LT" report -i "$dat" > "$DIR/$name.txt" 2>/dev/null ||
		{ echo "bench-record: cannot read $dat"; return 1; }
	total=$(grep -c . "$DIR/$name.txt")
	own=$(grep -Ec "^ *[^ ].*-($own_re) +\[" "$DIR/$name.txt")
	set -- $(cat "$DIR/$name.time")
	size=$(du -k "$dat" | cut -f1)
	awk -v n="$name" -v t="$total" -v o="$own" -v e="$1" -v u="$2" \
		-v s="$3" -v k="$size" 'BEGIN {
		printf "%-10s events %8d  own %6d (%5.2f %%)  cpu %5.2f s of %5.2f s (%5.1f %%)  %6d KiB\n",
			n, t, o, t ? 100 * o / t : 0, u + s, e,
			e ? 100 * (u + s) / e : 0, k }'
}

ev_args=""
for e in $EVENTS; do ev_args="$ev_args -e $e"; done
echo "$(uname -r), $(nproc) CPUs, workload ${SECS}s"
# trace-cmd record: the top-level buffer, one reader process per CPU. It
# writes /proc/sys/kernel/ftrace_enabled even for events only, which some
# hosts refuse: then say so and measure lazytrace alone.
if trace-cmd record -o "$DIR/tc-try.dat" -e sched:sched_switch true \
	> /dev/null 2> "$DIR/tc-try.err"; then
	run trace-cmd "$DIR/tc.dat" trace-cmd record -o "$DIR/tc.dat" $ev_args
else
	echo "trace-cmd    record does not work here: $(tr '\n' ' ' < "$DIR/tc-try.err")"
fi
run lazytrace "$DIR/lt.dat" "$LT" record -o "$DIR/lt.dat"
# the function tracer on resched_curr* too (the default before it was
# kept for kernels without hrtimer events)
run lt-funcs "$DIR/ltf.dat" "$LT" record --functions -o "$DIR/ltf.dat"
ls $T/instances | grep -q "^lazytrace-" && echo "note: lazytrace instances exist (other runs?)"
exit 0
