#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Lost events, really lost on this host: a recording with an 8 KiB ring
# buffer under fork load. report marks each loss where the kernel would,
# "CPU:N [LOST M EVENTS]" before that CPU's next event, at the places and
# with the counts trace-cmd report gives ("CPU:N [M EVENTS DROPPED]";
# unknown counts "CPU:N [EVENTS DROPPED]" in both); per CPU the marks add
# up to what stats says, and record said at its end how many each CPU
# lost (the kernel's own count) and how to avoid it. The kernel's own text (trace_pipe of an
# overwritten buffer) carries LOST lines: report prints them back as they
# were and stats counts them.
. "$(dirname "$0")/lib.sh"

need_tracefs
command -v trace-cmd > /dev/null || skip "trace-cmd not installed (make deps)"
cd "$TMPDIR" || fail "no TMPDIR"

load() {
	i=0
	while [ $i -lt 3000 ]; do
		/bin/true
		i=$((i + 1))
	done
}

# The recorder is stopped while the load runs, so the ring buffer fills
# and the kernel drops what follows; it reads what is left on SIGCONT.
${LAZYTRACE_WRAP:-} "$LAZYTRACE" record --buffer-size 8 -d 3 -o lost.dat \
	2> rec.err &
rec=$!
wait_instance $rec
# tracing, with sched_switch on, before the reader stops (slow under ASan)
i=0
until [ "$(cat $T/instances/lazytrace-$rec/tracing_on 2>/dev/null)" = 1 ] &&
      [ "$(cat $T/instances/lazytrace-$rec/events/sched/sched_switch/enable 2>/dev/null)" = 1 ]; do
	i=$((i + 1))
	[ $i -lt 200 ] || { kill $rec; fail "record's instance never traced"; }
	sleep 0.05
done
sleep 0.5
kill -STOP $rec
load
kill -CONT $rec
wait $rec || { cat rec.err; fail "record exited $?"; }
lt stats --json -i lost.dat > st.json || fail "stats"
python3 -c 'import json,sys; d=json.load(open("st.json")); sys.exit(not (d["meta"]["lost_events"] or d["meta"]["lost_unknown_times"]))' ||
	fail "no event lost with an 8 KiB buffer and a stopped reader"
lt report -i lost.dat > report.txt || fail "report"
# record said so itself, per CPU, with the fix; the kernel's counts cover
# at least every loss the file marks with a count.
python3 - rec.err report.txt <<'PY' || fail "record's lost-events line: $(cat rec.err)"
import re, sys
err = open(sys.argv[1]).read()
m = re.search(r"^lazytrace record: lost (\d+) events \(([^)]*)\): .*--buffer-size", err, re.M)
assert m, "no lost-events line"
per = {int(c): int(n) for c, n in re.findall(r"CPU (\d+): (\d+)", m.group(2))}
assert sum(per.values()) == int(m.group(1)), (per, m.group(1))
marks = {}
for c, n in re.findall(r"^CPU:(\d+) \[LOST (\d+) EVENTS\]$", open(sys.argv[2]).read(), re.M):
    marks[int(c)] = marks.get(int(c), 0) + int(n)
for c, n in marks.items():
    assert per.get(c, 0) >= n, f"CPU {c}: record said {per.get(c, 0)}, the file marks {n}"
PY
trace-cmd report lost.dat > tc.txt 2> /dev/null || fail "trace-cmd report"

# The same losses, in the same order, as trace-cmd report gives them.
grep '^CPU:[0-9]* \[' report.txt > lt.marks
sed -n -e 's/^CPU:\([0-9]*\) \[\([0-9]*\) EVENTS DROPPED\]$/CPU:\1 [LOST \2 EVENTS]/p' \
	-e '/^CPU:[0-9]* \[EVENTS DROPPED\]$/p' tc.txt > tc.marks
[ -s tc.marks ] || fail "trace-cmd report shows no loss"
cmp lt.marks tc.marks || { diff lt.marks tc.marks | head; fail "lost-event marks differ from trace-cmd's"; }

python3 - report.txt st.json <<'PY' || fail "marks and stats disagree"
import json, re, sys
lines = open(sys.argv[1]).read().split("\n")
d = json.load(open(sys.argv[2]))
lost, unknown = {}, set()
for i, l in enumerate(lines):
	m = re.match(r"CPU:(\d+) \[(?:LOST (\d+) EVENTS|EVENTS DROPPED)\]$", l)
	if not m:
		continue
	cpu = int(m.group(1))
	if m.group(2):
		lost[cpu] = lost.get(cpu, 0) + int(m.group(2))
	else:
		unknown.add(cpu)
	# the next line is an event of that CPU
	nxt = lines[i + 1]
	assert re.search(r"\[%03d\] " % cpu, nxt), (l, nxt)
# the lost table lists the CPUs that lost events, and only those
assert {c["cpu"] for c in d["lost"]} == {c for c in lost if lost[c]} | unknown, (d["lost"], lost, unknown)
for c in d["lost"]:
	assert c["lost_events"] == lost.get(c["cpu"], 0), (c, lost)
	assert c["lost_unknown"] == (c["cpu"] in unknown), (c, unknown)
assert d["meta"]["lost_events"] == sum(lost.values()), (d["meta"]["lost_events"], lost)
print("lost per CPU:", lost, "unknown on:", sorted(unknown))
PY
# --cpu keeps that CPU's marks only.
cpu=$(sed -n '1s/^CPU:\([0-9]*\).*/\1/p' lt.marks)
lt report -i lost.dat --cpu "$cpu" | grep '^CPU:[0-9]* \[' > cpu.marks
grep "^CPU:$cpu " lt.marks | cmp - cpu.marks || fail "--cpu $cpu: marks differ"

# The kernel's text: an instance whose buffer was overwritten, read
# through trace_pipe, begins each CPU with the count of what it lost.
I=$T/instances/lt-t0132-$$
mkdir $I || fail "cannot make instance $I"
trap 'echo 0 > $I/tracing_on 2>/dev/null; rmdir $I 2>/dev/null' EXIT
echo 8 > $I/buffer_size_kb
echo 1 > $I/events/sched/sched_switch/enable || fail "enable sched_switch"
echo 1 > $I/events/sched/sched_waking/enable
load
echo 0 > $I/tracing_on
timeout 2 cat $I/trace_pipe > pipe.txt
grep -q '^CPU:[0-9]* \[LOST [0-9]* EVENTS\]$' pipe.txt ||
	fail "the kernel's text shows no LOST line"
lt report -i pipe.txt | cmp pipe.txt - || fail "LOST lines do not round-trip"
lt stats --json -i pipe.txt > pipe.json || fail "stats of the kernel's text"
python3 - pipe.txt pipe.json <<'PY' || fail "stats does not count the kernel's LOST lines"
import json, re, sys
lost = {}
for l in open(sys.argv[1]):
	m = re.match(r"CPU:(\d+) \[LOST (\d+) EVENTS\]$", l)
	if m:
		lost[int(m.group(1))] = lost.get(int(m.group(1)), 0) + int(m.group(2))
d = json.load(open(sys.argv[2]))
got = {c["cpu"]: c["lost_events"] for c in d["lost"] if c["lost_events"]}
assert got == lost, (got, lost)
print("kernel text: lost per CPU", lost)
PY
exit 0
