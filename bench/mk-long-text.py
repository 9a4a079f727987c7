#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mk-long-text.py N < kernel-trace.txt > longer.txt

A kernel text trace N times as long: the header once, then the events N
times, each copy shifted by the trace's span (plus 1 s) so that every
CPU's timestamps keep increasing. Pids and names repeat, and a task that
exits in the trace (prev_state Z or X) only sleeps (S) in every copy but
the last, and is woken (sched_wakeup) rather than created
(sched_wakeup_new) in every copy but the first, so a longer trace has
more events but the same tasks: what the
memory benchmark needs (lazytrace would rightly count a pid that comes
back after its task died as a new task)."""
import re
import sys

n = int(sys.argv[1])
ts_re = re.compile(r"(\]\s+\S+\s+)(\d+)\.(\d{6}):")
dead_re = re.compile(r"prev_state=[ZX]\S* ")
header, body = [], []
for line in sys.stdin:
    (header if line.startswith("#") and not body else body).append(line)

stamps = [m for m in (ts_re.search(l) for l in body) if m]
if not stamps:
    sys.exit("no timestamps found")
first = int(stamps[0].group(2)) * 10**6 + int(stamps[0].group(3))
last = int(stamps[-1].group(2)) * 10**6 + int(stamps[-1].group(3))
span = last - first + 10**6

out = sys.stdout
out.writelines(header)
for k in range(n):
    shift = k * span

    def sub(m):
        us = int(m.group(2)) * 10**6 + int(m.group(3)) + shift
        return "%s%d.%06d:" % (m.group(1), us // 10**6, us % 10**6)

    last_copy = k == n - 1
    for line in body:
        if shift:
            line = ts_re.sub(sub, line, count=1)
        if not last_copy:
            line = dead_re.sub("prev_state=S ", line)
        if k:
            line = line.replace(" sched_wakeup_new: ", " sched_wakeup: ")
        out.write(line)
