#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-s390.py VMOUT CONFIG LAZYTRACE|skip

The host's checks of vm-test-s390.sh on what vm/s390-init left in
VMOUT/share (and the console in VMOUT/console.log): the s390x kernel
booted in lazy mode, its tracer prints the lazy flag, and the user-space
busy loop's lazy requests were served at its return to user space.
Prints one PASS/FAIL line per check and the figures; exit 1 on a FAIL.
"""
import json
import os
import re
import statistics
import subprocess
import sys

vmout, config_path, lazytrace = sys.argv[1:4]
share = os.path.join(vmout, "share")
fails = 0


def check(ok, what):
    global fails
    print(("PASS" if ok else "FAIL") + ": " + what)
    if not ok:
        fails += 1
    return ok


def read(name, where=share):
    try:
        with open(os.path.join(where, name), errors="replace") as f:
            return f.read()
    except OSError:
        return None


console = read("console.log", vmout) or ""
if not check("s390-init: guest exit 0" in console,
             "the guest ran its script to the end (console: 's390-init: guest exit 0')"):
    print("  last console lines:")
    for line in console.splitlines()[-25:]:
        print("  | " + line)
    sys.exit(1)
bad = [l for l in console.splitlines()
       if re.search(r"BUG:|WARNING:|Oops|Kernel panic|Call Trace|rcu.*stall|"
                    r"soft lockup|hung_task|scheduling while atomic", l)]
check(not bad, "no BUG, WARNING, Oops, panic, stall or call trace on the console" +
      ("" if not bad else ": " + " / ".join(bad[:3])))

config = {}
with open(config_path) as f:
    for line in f:
        m = re.match(r"(CONFIG_\w+)=(.*)", line)
        if m:
            config[m.group(1)] = m.group(2)
hz = int(config.get("CONFIG_HZ", "0"))
tick_ns = 1e9 / hz if hz else None
dynamic = config.get("CONFIG_PREEMPT_DYNAMIC") == "y"
print(f"  kernel config: PREEMPT_LAZY={config.get('CONFIG_PREEMPT_LAZY', 'n')} "
      f"PREEMPT_DYNAMIC={config.get('CONFIG_PREEMPT_DYNAMIC', 'n')} HZ={hz}")

info = read("info.txt") or ""
for line in info.splitlines():
    print("  guest " + line)
m = re.search(r"^sched/preempt: (.*)$", info, re.M)
preempt = m.group(1) if m else ""
if dynamic:
    check("(lazy)" in preempt, f"sched/preempt says lazy ({preempt!r})")
else:
    check(preempt == "absent",
          "no PREEMPT_DYNAMIC: no sched/preempt file, lazy is the one model")

lat = read("trace-lat.txt") or ""
m = re.search(r"\(M:(\w+) VP:", lat)
check(m is not None and m.group(1) == "lazy",
      f"latency header: M:{m.group(1) if m else '?'} (want M:lazy)")

text = read("trace.txt") or ""
m = re.search(r"entries-in-buffer/entries-written: (\d+)/(\d+)", text)
check(m is not None and m.group(1) == m.group(2) and int(m.group(1)) > 0,
      "trace complete: entries-in-buffer/entries-written " +
      (f"{m.group(1)}/{m.group(2)}" if m else "missing"))

pids = read("pids.txt") or ""
m = re.search(r"^spin (\d+)", pids, re.M)
spin = int(m.group(1)) if m else -1
m = re.search(r"^sleep ([\d ]+)$", pids, re.M)
sleepers = [int(p) for p in m.group(1).split()] if m else []

ev_re = re.compile(r"^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+(\S{4,5})\s+(\d+\.\d+):\s+(\w+):\s*(.*)$")
events = []
for line in text.splitlines():
    if line.startswith("#"):
        continue
    m = ev_re.match(line)
    if m:
        comm, pid, cpu, flags, ts, name, rest = m.groups()
        events.append((int(pid), int(cpu), flags, float(ts), name, rest))
unparsed = sum(1 for l in text.splitlines() if l and not l.startswith("#")) - len(events)
check(len(events) > 0 and unparsed == 0, f"{len(events)} events parsed, {unparsed} not")

letters = {}
for pid, cpu, flags, ts, name, rest in events:
    if pid == spin:
        letters[flags[1]] = letters.get(flags[1], 0) + 1
lazy_letters = sum(letters.get(c, 0) for c in "lLbB")
print("  need-resched column on the busy loop's events: " +
      ", ".join(f"{c!r}: {n}" for c, n in sorted(letters.items())))
check(lazy_letters > 0,
      f"lazy letters (l L b B) on the busy loop's events: {lazy_letters}")
eager = sum(letters.get(c, 0) for c in "Nnp")
print(f"  eager letters (N n p) on the busy loop's events: {eager}")

switch_re = re.compile(r"prev_comm=.* prev_pid=(\d+) prev_prio=\d+ prev_state=(\S+) ==> "
                       r"next_comm=.* next_pid=(\d+)")
states = {}
for pid, cpu, flags, ts, name, rest in events:
    if name != "sched_switch":
        continue
    m = switch_re.search(rest)
    if m and int(m.group(1)) == spin:
        states[m.group(2)] = states.get(m.group(2), 0) + 1
r, rplus = states.get("R", 0), states.get("R+", 0)
print("  the busy loop's switches out by prev_state: " +
      ", ".join(f"{s}: {n}" for s, n in sorted(states.items())))
check(r >= 20 and r >= 10 * rplus,
      f"the busy loop's switches out: R {r} (served at return to user space) "
      f"vs R+ {rplus} (preempted in the kernel): R >= 20 and >= 10x R+")

# From the first event of the busy loop that shows a lazy request (l) to
# its switch out: the lazy request's wait.
waits = []
pending = None
for pid, cpu, flags, ts, name, rest in events:
    if cpu != 1:
        continue
    if name == "sched_switch":
        m = switch_re.search(rest)
        if m and int(m.group(1)) == spin and pending is not None:
            waits.append(ts - pending)
        if m and (int(m.group(1)) == spin or int(m.group(3)) == spin):
            pending = None
        continue
    if pid == spin and flags[1] in "lLbB" and pending is None:
        pending = ts
if waits:
    waits.sort()
    print(f"  busy loop, lazy request seen -> switch out: {len(waits)} episodes, "
          f"median {statistics.median(waits) * 1e6:.0f} us, max {waits[-1] * 1e6:.0f} us"
          + (f" (tick {tick_ns / 1e3:.0f} us)" if tick_ns else ""))
    over = sum(1 for w in waits if tick_ns and w * 1e9 > tick_ns)
    print(f"  of which waited more than a tick: {over}")
# Served at the return to user space (patch 2 on s390's generic entry),
# not left for the tick to upgrade: a request waits far less than a tick.
check(bool(waits) and tick_ns and statistics.median(waits) * 1e9 < tick_ns / 4,
      "the busy loop's lazy requests are served before the tick: median wait "
      + (f"{statistics.median(waits) * 1e6:.0f} us" if waits else "-")
      + (f" < tick/4 ({tick_ns / 4e3:.0f} us)" if tick_ns else ""))

ticks = sorted(ts for pid, cpu, flags, ts, name, rest in events
               if cpu == 1 and name == "hrtimer_expire_entry" and
               re.search(r"function=(tick_nohz_handler|tick_sched_timer)\b", rest))
if len(ticks) > 1:
    d = [b - a for a, b in zip(ticks, ticks[1:])]
    print(f"  ticks on CPU 1 (the tick's hrtimer): {len(ticks)}, median period "
          f"{statistics.median(d) * 1e6:.0f} us over {ticks[-1] - ticks[0]:.2f} s")
check(len(ticks) > 1, f"tick events on CPU 1: {len(ticks)}")
wakeups = sum(1 for pid, cpu, flags, ts, name, rest in events
              if name == "sched_waking" and any(f"pid={p} " in rest for p in sleepers))
print(f"  sleepers {sleepers}: {wakeups} wake-ups; busy loop pid {spin}")

if lazytrace != "skip":
    trace = os.path.join(share, "trace.txt")
    rep = subprocess.run([lazytrace, "report", "-i", trace, "--pid", str(spin), "--color=never"],
                         capture_output=True, text=True)
    rep_lazy = 0
    for line in rep.stdout.splitlines():
        m = ev_re.match(line)
        if m and m.group(4)[1] in "lLbB":
            rep_lazy += 1
    check(rep.returncode == 0 and rep_lazy == lazy_letters,
          f"lazytrace report reads trace.txt (rc {rep.returncode}): lazy letters on the "
          f"busy loop {rep_lazy}, the kernel's text {lazy_letters}")
    st = subprocess.run([lazytrace, "stats", "-i", trace], capture_output=True, text=True)
    with open(os.path.join(vmout, "lazytrace-stats.txt"), "w") as f:
        f.write(st.stdout + st.stderr)
    sj = subprocess.run([lazytrace, "stats", "-i", trace, "--json"], capture_output=True, text=True)
    with open(os.path.join(vmout, "lazytrace-stats.json"), "w") as f:
        f.write(sj.stdout + sj.stderr)
    task = summary = None
    try:
        j = json.loads(sj.stdout)
        summary = j.get("summary")
        task = next((t for t in j.get("tasks", []) if t.get("pid") == spin), None)
    except ValueError:
        pass
    if summary:
        print("  lazytrace stats, trace: " + ", ".join(
            f"{k} {summary.get(k)}" for k in ("lazy", "eager", "upgrades", "tick_upgrades",
                                               "preempted", "yielded", "ticks")))
    if task:
        print("  lazytrace stats, busy loop: " + ", ".join(
            f"{k} {task.get(k)}" for k in ("lazy", "eager", "upgrades", "preempted", "yielded",
                                           "lazy_p50_ns", "lazy_max_ns", "trace_share")))
    check(st.returncode == 0 and sj.returncode == 0 and task is not None and task.get("lazy", 0) > 0,
          f"lazytrace stats reads trace.txt and reports lazy requests of the busy loop: "
          f"{task.get('lazy') if task else '?'}")
    if task:
        check(task.get("yielded") == r and task.get("preempted") == rplus,
              f"lazytrace's switches of the busy loop match the kernel's text: yielded "
              f"{task.get('yielded')} = R {r}, preempted {task.get('preempted')} = R+ {rplus}")

print(f"{'PASS' if fails == 0 else 'FAIL'}: vm-test-s390 checks ({fails} failed)")
sys.exit(1 if fails else 0)
