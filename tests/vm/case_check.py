#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""case_check.py OUTDIR LAZYTRACE TAG...

Checks, on the host, the case study of docs/case-spinlock.md as
stock-guest.sh's step case:TAG ran it: three spinlock-fault threads on
one CPU whose lock holder faults fresh memory in, then with the memory
pre-faulted, recorded with a stack at every preemption. TAG names the
boot: none612 and voluntary612 (Debian's 6.12, preempt=none and
voluntary), full and lazy (7.2); none612p, lazy612p and full612p (the
series' 6.12, patches/vm/case.sh). The checks go by the tag's start.

What lazytrace must say of the threads (preempts: R+ switches; the
requests table: how each request to give up the CPU ended):
- full, fresh memory: preempted most often in a page fault, by an eager
  request (90 %), each placed by its stack (90 %) at a site in the fault
  path (never the entry code or the scheduler), another thread of the
  program running instead (90 %: it can only spin), and the program's
  spin time (wall clock, each waiter's) at least the holders' time off
  the CPU in those preemptions;
- lazy, fresh memory: preempted in a page fault at most once in ten
  switches out: the lazy requests (90 %) end at the return to user
  space, after the fault, as a switch that is not a preemption (R);
- none (6.12), fresh memory: never preempted in a page fault; the
  requests end at the return to user space (90 %);
- voluntary: figures only (a fault path's cond_resched() may switch);
- pre-faulted memory, every boot: at most 10 page-fault preemptions of
  the threads (their first touches of their stacks); the main thread's,
  which faults the memory in before they start, are not counted.

Prints a table of the figures (docs/case-spinlock.md quotes them) and
one line per expectation, PASS or FAIL; exits 1 if any failed.
"""
import csv
import io
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
	# exit 1: read, and no preemption (an empty table)
	if p.returncode not in (0, 1):
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
	# the threads' own: the main thread faults the memory in for -p
	main = re.search(r"^spinlock-fault: pid (\d+)", open(base + ".out",
		errors="replace").read(), re.M) if os.path.exists(base + ".out") else None
	f["at_return"] = sum(v for (k, e), v in requests(base + ".dat").items()
			     if e == "yielded")
	f["worker_fault"] = len([r for r in fault_rows(base + ".dat")
				 if not main or r["pid"] != int(main.group(1))])
	expect(tag, "case %s: the program's totals" % mem,
	       f["program"] is not None, f["program"])
	return f


def requests(path):
	"""{(kind, end): count} of the threads' requests."""
	p = subprocess.run([lazytrace, "table", "requests", "-i", path, "--comm",
			    COMM, "--csv"], capture_output=True, text=True)
	ends = {}
	for r in csv.DictReader(io.StringIO(p.stdout)) if not p.returncode else []:
		ends[(r["kind"], r["end"])] = ends.get((r["kind"], r["end"]), 0) + 1
	return ends


def fault_rows(path):
	p = subprocess.run([lazytrace, "preempts", "-i", path,
			    "--comm", COMM, "--json"], capture_output=True, text=True)
	return [r for r in json.loads(p.stdout)["preempts"]
		if r["place"] == "page_fault"] if p.returncode in (0, 1) else []


def share(n, d):
	return "%d of %d" % (n, d)


def check_full(tag, fresh):
	top = max(fresh["place"].items(), key=lambda kv: kv[1]["preemptions"],
		  default=(None, None))[0]
	expect(tag, "fresh: page_fault the threads' first place",
	       top == "page_fault", "%s; page_fault %s" %
	       (top, share(fresh["fault"], fresh["all"])))
	rows = fault_rows(os.path.join(out, tag + "-case-fresh.dat"))
	if not rows:
		return
	n = len(rows)
	kinds = {}
	for r in rows:
		kinds[r["cause"]] = kinds.get(r["cause"], 0) + 1
	eager = kinds.get("eager", 0) + kinds.get("ipi", 0)
	expect(tag, "fresh: page faults preempted by eager", eager >= 0.9 * n, kinds)
	stacked = sum(1 for r in rows if r["place_from"] == "stack")
	expect(tag, "fresh: page faults placed by stacks", stacked >= 0.9 * n,
	       share(stacked, n))
	sites = {}
	for r in rows:
		sites[r["site"]] = sites.get(r["site"], 0) + 1
	entry = [f for f in sites if f and re.match(
		r"(irqentry_|asm_|sysvec_|__schedule|preempt_schedule)", f)]
	expect(tag, "fresh: sites in the fault path", not entry,
	       "top %s" % sorted(sites.items(), key=lambda kv: -kv[1])[:3]
	       if not entry else "entry frames: %s" % entry)
	waiter = sum(1 for r in rows if r["instead_comm"] == COMM)
	expect(tag, "fresh: a waiter ran instead of the holder",
	       waiter >= 0.9 * n, share(waiter, n))
	prog = fresh["program"]
	if prog:
		# each waiter waits all the while the holder is away
		expect(tag, "fresh: waiters' spin covers holders' time off",
		       prog[1] >= fresh["fault_off_s"],
		       "spin %.3f s, holders off CPU in faults %.3f s" %
		       (prog[1], fresh["fault_off_s"]))


def check_at_return(tag, fresh, kind, most):
	ends = requests(os.path.join(out, tag + "-case-fresh.dat"))
	mine = sum(v for (k, e), v in ends.items() if k == kind)
	yielded = ends.get((kind, "yielded"), 0)
	expect(tag, "fresh: %s requests end at return to user" % kind,
	       mine and yielded >= 0.9 * mine, "%s (%s)" % (share(yielded, mine),
							  ends))
	switches = fresh["all"] + yielded
	expect(tag, "fresh: page-fault preemptions rare",
	       fresh["fault"] <= most * switches,
	       "%d, of %d switches out" % (fresh["fault"], switches))


def check(tag):
	fresh, pre = figures(tag, "fresh"), figures(tag, "prefault")
	for mem, f in (("fresh", fresh), ("prefault", pre)):
		if not f:
			continue
		prog = f["program"] or (0, 0.0, 0.0)
		print("FIG  %-12s %-8s preemptions %4d  page_fault %4d (off CPU %.3f s)  "
		      "at return to user %4d  "
		      "places %s  causes %s  holds %d spin %.3f s hold %.3f s" %
		      (tag, mem, f["all"], f["fault"], f["fault_off_s"], f["at_return"],
		       {k: v["preemptions"] for k, v in sorted(f["place"].items())},
		       dict(sorted(f["cause"].items())), *prog))
	if pre:
		expect(tag, "prefault: the threads' page-fault preemptions",
		       pre["worker_fault"] <= 10, "%d (the main thread's: %d)" %
		       (pre["worker_fault"], pre["fault"] - pre["worker_fault"]))
	if not fresh:
		return
	if tag.startswith("full"):
		check_full(tag, fresh)
	elif tag.startswith("lazy"):
		check_at_return(tag, fresh, "lazy", 0.1)
	elif tag.startswith("none"):
		check_at_return(tag, fresh, "eager", 0)


for tag in tags:
	check(tag)
finish("case_check")
