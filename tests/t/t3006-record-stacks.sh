#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record and live set a stacktrace trigger on the tick in their instance,
# filtered on the lazy bit (0x02 on 6.13 and later), and remove it with
# the instance. This host has no lazy preemption, so the filter never
# fires: --stacks tick (a stack at every tick) checks the stacks that end
# up in the trace.dat: the same frames as trace-cmd report shows, named
# from the trace's kallsyms.
. "$(dirname "$0")/lib.sh"

need_tracefs
ev=
for e in irq_vectors/local_timer_entry timer/hrtimer_expire_entry; do
	[ -w $T/events/$e/trigger ] && { ev=$e; break; }
done
[ -n "$ev" ] || skip "no event triggers on a tick event on this kernel"
cd "$TMPDIR" || fail "no TMPDIR"

# While recording, the trigger is in the instance (the command's parent
# is record, whose pid names the instance).
lt record -d 5 -o lazy.dat -- sh -c \
	"cat $T/instances/lazytrace-\$PPID/events/$ev/trigger > trig.txt" \
	2> rec.err || { cat rec.err; fail "record"; }
cat rec.err
grep -q '^stacktrace' trig.txt || { cat trig.txt; fail "no stacktrace trigger while recording"; }
case $(uname -r) in
6.1[3-9]*|6.[2-9][0-9]*|[7-9].*)
	grep -qx 'stacktrace:unlimited if common_flags & 2' trig.txt ||
		{ cat trig.txt; fail "not the lazy bit filter of the mainline ABI"; }
	grep -q "kernel stacks: 'stacktrace if common_flags & 2' on ${ev%/*}:${ev#*/}" rec.err ||
		fail "record does not say which trigger it set";;
esac
# (other record tests may run at once: only look for ours)
${LAZYTRACE_WRAP:-} "$LAZYTRACE" record -d 1 -o again.dat 2> /dev/null &
wait $! || fail "record"
[ -d $T/instances/lazytrace-$! ] && fail "record left its instance behind"

# A stack at every tick: the trace.dat holds them, with symbols.
lt record -d 1 --stacks tick -o tick.dat -- sh -c 'while :; do :; done' \
	2> rec.err || { cat rec.err; fail "record --stacks tick"; }
grep -q "at every tick" rec.err || fail "record --stacks tick says nothing"
lt report -i tick.dat > lt.txt || fail "report"
n=$(grep -c '<stack trace>$' lt.txt)
[ "$n" -ge 50 ] || fail "only $n stacks in a second of ticks"
grep -A1 '<stack trace>$' lt.txt | grep -q '^ => [a-z_]' ||
	fail "stack frames without symbols"
if command -v trace-cmd >/dev/null; then
	# trace-cmd prints "=> func (addr)"; the frames must be ours
	trace-cmd report -i tick.dat 2>/dev/null |
		sed -n 's/^=> \([^ ]*\) (.*/\1/p' > tc.frames
	sed -n 's/^ => //p' lt.txt > lt.frames
	[ -s tc.frames ] && cmp -s tc.frames lt.frames ||
		fail "stack frames differ from trace-cmd report's"
fi
lt hogs -i tick.dat --json > hogs.json
[ $? -le 1 ] || fail "hogs on a trace with stacks"
python3 - hogs.json <<'PY' || fail "hogs --json stack counts"
import json, sys
d = json.load(open(sys.argv[1]))["meta"]
assert d["kernel_stacks"] >= 50
# without lazy preemption no tick finds a lazy request pending
assert d["lazy_preemption"] or d["kernel_stacks_at_ticks"] == 0
PY

# --no-stacks: none asked for, none recorded.
lt record -d 1 --no-stacks -o none.dat 2> rec.err || fail "record --no-stacks"
grep -q 'stack' rec.err && fail "--no-stacks still talks about stacks"
lt report -i none.dat | grep -q '<stack trace>' && fail "stacks with --no-stacks"

# live sets the trigger too and removes it with its instance.
${LAZYTRACE_WRAP:-} "$LAZYTRACE" live -d 1 --json --stacks tick > live.json 2> live.err &
wait $! || { cat live.err; fail "live --stacks tick"; }
grep -q "at every tick" live.err || fail "live says nothing about stacks"
[ -d $T/instances/lazytrace-$! ] && fail "live left its instance behind"
exit 0
