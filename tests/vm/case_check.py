#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""case_check.py OUTDIR LAZYTRACE TAG...

Checks, on the host, the case study of docs/case-spinlock.md as
stock-guest.sh's step case:TAG ran it: three spinlock-fault threads on
one CPU whose lock holder faults fresh memory in, then with the memory
pre-faulted, recorded with a stack at every preemption. TAG names the
boot: none612 and voluntary612 (Debian's 6.12, preempt=none and
voluntary), full and lazy (7.2).

What lazytrace preempts must say of the threads:
- fresh memory, full and lazy: they were preempted, most often in a page
  fault (a stack at the switch through the fault handler), the holder
  of the lock; under lazy, by an upgraded lazy request (the tick or the
  hrtick), under full by an eager one;
- fresh memory, none: never in a page fault (the kernel is not
  preempted; the threads were preempted in user space);
- fresh memory, voluntary: figures only (a fault path's cond_resched()
  may switch);
- pre-faulted memory, every boot: no preemption in a page fault;
- the waiters paid for it: in 90 % of those page-fault preemptions
  another thread of the program ran instead (one CPU: it can only
  spin), and the program's spin time (wall clock, each waiter's) is at
  least the holders' time off the CPU in those preemptions.

Prints a table of the figures (docs/case-spinlock.md quotes them) and
one line per expectation, PASS or FAIL; exits 1 if any failed.
"""
import json
import os
import re
import subprocess
import sys

from expect import expect, finish

out, lazytrace, tags = sys.argv[1], sys.argv[2], sys.argv[3:]
COMM = "spinlock-fault"


def preempts(path, by):
	p = subprocess.run([lazytrace, "preempts", "-i", path, "--comm", COMM,
			    "--by", by, "--json"], capture_output=True, text=True)
	if p.returncode:
		return None, p.stderr.strip()[:100]
	return json.loads(p.stdout)["preempt_groups"], ""


def program(path):
	"""(holds, spin s, hold s) from spinlock-fault's total line."""
	try:
		text = open(path, errors="replace").read()
	except OSError:
		return None
	m = re.search(r"^total: holds (\d+) spin ([\d.]+) s hold ([\d.]+) s",
		      text, re.M)
	return (int(m.group(1)), float(m.group(2)), float(m.group(3))) if m else None


def figures(tag, mem):
	base = os.path.join(out, "%s-case-%s" % (tag, mem))
	log = open(base + ".log", errors="replace").read() \
		if os.path.exists(base + ".log") else ""
	ok = os.path.exists(base + ".dat") and "record exit 0" in log
	expect(tag, "case %s: recorded" % mem, ok,
	       log.strip().splitlines()[-1][:100] if log.strip() else "no log")
	if not ok:
		return None
	places, err = preempts(base + ".dat", "place")
	causes, err2 = preempts(base + ".dat", "cause")
	expect(tag, "case %s: preempts reads it" % mem,
	       places is not None and causes is not None, err or err2 or "ok")
	if places is None or causes is None:
		return None
	f = {
		"all": sum(g["preemptions"] for g in places),
		"place": {g["place"]: g for g in places},
		"cause": {g["cause"]: g["preemptions"] for g in causes},
		"program": program(base + ".out"),
	}
	pf = f["place"].get("page_fault")
	f["fault"] = pf["preemptions"] if pf else 0
	f["fault_off_s"] = pf["off_cpu_ns"] / 1e9 if pf else 0.0
	expect(tag, "case %s: the program's totals" % mem,
	       f["program"] is not None, f["program"])
	return f


def check(tag):
	fresh, pre = figures(tag, "fresh"), figures(tag, "prefault")
	for mem, f in (("fresh", fresh), ("prefault", pre)):
		if not f:
			continue
		prog = f["program"] or (0, 0.0, 0.0)
		print("FIG  %-9s %-8s preemptions %4d  page_fault %4d (off CPU %.3f s)  "
		      "places %s  causes %s  holds %d spin %.3f s hold %.3f s" %
		      (tag, mem, f["all"], f["fault"], f["fault_off_s"],
		       {k: v["preemptions"] for k, v in sorted(f["place"].items())},
		       dict(sorted(f["cause"].items())), *prog))
	if pre:
		expect(tag, "prefault: no preemption in a page fault",
		       pre["fault"] == 0, "%d of %d" % (pre["fault"], pre["all"]))
	if not fresh:
		return
	if tag.startswith("voluntary"):
		return
	if tag.startswith("none"):
		expect(tag, "fresh: never preempted in a page fault",
		       fresh["fault"] == 0, "%d of %d" % (fresh["fault"], fresh["all"]))
		return
	top = max(fresh["place"].items(), key=lambda kv: kv[1]["preemptions"],
		  default=(None, None))[0]
	expect(tag, "fresh: page_fault the threads' first place",
	       top == "page_fault", "%s; page_fault %d of %d" %
	       (top, fresh["fault"], fresh["all"]))
	pf = fresh["place"].get("page_fault")
	if pf:
		# causes of the page-fault preemptions alone
		p = subprocess.run([lazytrace, "preempts", "-i",
				    os.path.join(out, tag + "-case-fresh.dat"),
				    "--comm", COMM, "--json"], capture_output=True,
				   text=True)
		rows = [r for r in json.loads(p.stdout)["preempts"]
			if r["place"] == "page_fault"] if not p.returncode else []
		kinds = {}
		for r in rows:
			kinds[r["cause"]] = kinds.get(r["cause"], 0) + 1
		want = ("tick", "hrtick") if tag.startswith("lazy") else ("eager", "ipi")
		n = sum(kinds.get(k, 0) for k in want)
		expect(tag, "fresh: page faults preempted by %s" % "/".join(want),
		       rows and n >= 0.9 * len(rows), kinds)
		stacked = sum(1 for r in rows if r["place_from"] == "stack")
		expect(tag, "fresh: page faults placed by stacks",
		       rows and stacked >= 0.9 * len(rows),
		       "%d of %d" % (stacked, len(rows)))
		# the holder's CPU went to the waiters, who could only spin
		waiter = sum(1 for r in rows if r["instead_comm"] == COMM)
		expect(tag, "fresh: a waiter ran instead of the holder",
		       rows and waiter >= 0.9 * len(rows),
		       "%d of %d" % (waiter, len(rows)))
	prog = fresh["program"]
	if prog and fresh["fault_off_s"] > 0:
		# each waiter waits all the while the holder is away
		expect(tag, "fresh: waiters' spin covers holders' time off",
		       prog[1] >= fresh["fault_off_s"],
		       "spin %.3f s, holders off CPU in faults %.3f s" %
		       (prog[1], fresh["fault_off_s"]))


for tag in tags:
	check(tag)
finish("case_check")
