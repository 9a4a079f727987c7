#!/bin/sh
# Every kind of dynamic probe prints as the kernel printed it, with its
# fetch args of every type: stock72-probes-x86 (tests/data/stock/README.md)
# against the kernel's own text of the same buffer, default and latency
# format, every line identical but the eprobe's head, which names the
# event the eprobe is attached to and is in no part of the file: that
# head is taken out of the kernel's text, and the rest must match.
#
# Why no reader can print that head: trace_eprobe.c's print_eprobe_event()
# prints "(%s.%s)" of the attached event's system and name, which only the
# probe's definition holds (dynamic_events: "e:ltprobe/ep_waking
# sched.sched_waking ..."). The record is the common header and the fetch
# args alone (struct eprobe_trace_entry_head is a bare struct
# trace_entry), the format's print fmt starts at the args (" pid=%d
# prio=0x%x tcpu=%u"), the event's system is the probe's group (ltprobe),
# and trace-cmd 3.1.6 saves no probe definition: the file's options are
# HEADERS, FTRACE EVENTS, EVENT FORMATS, KALLSYMS, PRINTK, TRACECLOCK,
# UNAME, VERSION, TRACEID, CPUSTAT, CMDLINES, CPUCOUNT and BUFFER, the
# printk section holds only trace_printk() formats, and neither
# "sched.sched_waking" nor "e:ltprobe" occurs anywhere in `trace-cmd dump
# --all` of it. Nor do the fetch args tell: pid, prio and target_cpu are
# fields of sched_waking, sched_wakeup and sched_wakeup_new alike. So
# lazytrace prints no head ("ep_waking:  pid=..."), never a guessed one.
. "$(dirname "$0")/lib.sh"

n=stock72-probes-x86
xz -dc "$DATA/stock/$n.txt.xz" > "$TMPDIR/$n.txt" || fail "xz $n"
xz -dc "$DATA/stock/$n.lat.txt.xz" > "$TMPDIR/$n.lat.txt" || fail "xz $n.lat"
for f in $n.txt $n.lat.txt; do
	grep -q 'ep_waking: (sched\.sched_waking) pid=' "$TMPDIR/$f" ||
		fail "$f: no eprobe head to set aside"
	sed 's/ep_waking: (sched\.sched_waking) /ep_waking:  /' \
		"$TMPDIR/$f" > "$TMPDIR/k-$f"
done
lt report -i "$DATA/stock/$n.dat" > "$TMPDIR/$n.out" || fail "report"
lt report -l -i "$DATA/stock/$n.dat" > "$TMPDIR/$n.lat.out" || fail "report -l"
python3 "$TOOLS/compare-report.py" --min 100 \
	"$TMPDIR/k-$n.txt" "$TMPDIR/$n.out" || fail "lines differ"
python3 "$TOOLS/compare-report.py" --latency --min 100 \
	"$TMPDIR/k-$n.lat.txt" "$TMPDIR/$n.lat.out" || fail "latency lines differ"
# Not vacuous: each kind and each construct is in the kernel's text.
k=$TMPDIR/$n.txt
for re in \
	'kp_read: (vfs_read+0x[0-9a-f]*/0x[0-9a-f]*) file=0x[0-9a-f]* count=[0-9]* c32=[0-9]* c16=[0-9]* c8=[0-9]* s32=-*[0-9]* s8=-*[0-9]* x32=0x[0-9a-f]* x16=0x[0-9a-f]* bits=[0-9]* comm="' \
	'kr_read: ([a-z_]*+0x[0-9a-f]*/0x[0-9a-f]* <- vfs_read) ret=-*[0-9]* x=0x' \
	'kp_timer: (call_timer_fn+0x0/0x[0-9a-f]*) fn=[a-z_]*+0x[0-9a-f]*/0x[0-9a-f]* fns="[a-z_]*+0x[0-9a-f]*/0x[0-9a-f]*" stk={0x[0-9a-f]*,0x[0-9a-f]*}' \
	'kp_open: (do_sys_openat2+0x0/0x[0-9a-f]*) dfd=-100 name="/nonexistent"' \
	'fp_write: (vfs_write+0x[0-9a-f]*/0x[0-9a-f]*) count=' \
	'fp_write_ret: ([a-z_]*+0x[0-9a-f]*/0x[0-9a-f]* <- vfs_write) ret=' \
	'kp_9p: (p9_client_rpc+0x0/0x[0-9a-f]* \[9pnet\]) c=0x' \
	'kr_9p: ([a-z_0-9]*+0x[0-9a-f]*/0x[0-9a-f]* \[9pnet\] <- p9_client_rpc) ret=0x' \
	'tp_switch: (__probestub_sched_switch+0x[0-9a-f]*/0x[0-9a-f]*) prev=' \
	'up_main: (0x[0-9a-f]*) argc=[0-9]* arg0="lazyload"' \
	'ur_main: (0x[0-9a-f]* <- 0x[0-9a-f]*) ret=0'; do
	grep -q "$re" "$k" || fail "kernel text lacks: $re"
done
