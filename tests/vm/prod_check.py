#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""prod_check.py OUTDIR LAZYTRACE TAG...

Checks, on the host, what stock-guest.sh's steps khist:TAG,
stopabove:TAG and startup:* did in the stock-kernel VM.

lazytrace hist (khist): its histograms were built in the kernel; each dd hog's
lazy count agrees with a lazytrace record of the same run (its requests
table: lazy requests ended by a switch) within 10 % + 5, its eager count
(eager requests, folds and upgraded lazy requests ended by a switch)
within 20 % + 5 and its mean lazy wait within 20 %; hist's CPU is at most
a tenth of live --json's on the same workload (trace-cmd record's of
live's events is measured beside them); tracefs is as clean after
it as before.

record --stop-above 2ms (stopabove): it named a lazy request of the
workload (a dd hog, the spinner, the script's own sleep: the first
request on its CPU to wait that long), and the file holds that request
(its requests table: that pid, the time it was seen, a wait of 2 ms or
more).

A hist killed with SIGKILL once its triggers are set leaves its
instance, synthetic events and probe; the next hist removes each and
says so (the tracefs-clean check above covers what is left).

live's start-up (startup): printed, from the command to its instance
tracing; under emulation, not checked against the 1 s of the host.

One line per expectation, PASS or FAIL; exit 1 if any failed.
"""
import re
import csv
import io
import json
import os
import subprocess
import sys

from expect import expect, finish

out, lazytrace, tags = sys.argv[1], sys.argv[2], sys.argv[3:]


def near(a, b, share, slack):
	return abs(a - b) <= share * b + slack


def record_counts(path):
	"""{pid: [comm, lazy, eager, lazy wait sum]} from record's requests."""
	p = subprocess.run([lazytrace, "table", "requests", "-i", path, "--csv"],
			   capture_output=True, text=True)
	if p.returncode:
		return None
	tasks = {}
	for r in csv.DictReader(io.StringIO(p.stdout)):
		if r["end"] not in ("preempted", "yielded", "blocked"):
			continue
		t = tasks.setdefault(int(r["pid"]), [r["comm"], 0, 0, 0])
		if r["comm"] == "dd":	# after exec: the hogs' rows name dd
			t[0] = "dd"
		if r["kind"] == "lazy":
			t[1] += 1
			t[3] += int(r["latency_ns"] or 0)
			if r["upgrade_source"]:
				t[2] += 1
		else:
			t[2] += 1
	return tasks


def check(tag):
	path = os.path.join(out, tag + "-hist.json")
	try:
		doc = json.load(open(path))
	except (OSError, ValueError) as e:
		expect(tag, "hist --json", False, str(e)[:100])
		return
	h = doc["hist"]
	expect(tag, "hist: built in the kernel", h["source"] == "kernel",
	       "source %s %s" % (h["source"], h["fallback_reason"] or ""))
	rec = record_counts(os.path.join(out, tag + "-hist-record.dat"))
	expect(tag, "hist: record of the same run read", rec is not None, "")
	if rec is None:
		return
	hist = {}
	for t in doc["hist_tasks"]:
		hist[(t["pid"], t["kind"])] = t
	dds = [p for p, t in rec.items() if t[0] == "dd" and t[1] >= 20]
	expect(tag, "hist: dd hogs in the record", len(dds) >= 3,
	       "dd pids %s" % dds)
	for p in sorted(dds):
		comm, lazy, eager, lsum = rec[p]
		hl = hist.get((p, "lazy"), {"count": 0, "avg_ns": 0})
		he = hist.get((p, "eager"), {"count": 0})
		expect(tag, "hist: dd %d lazy count" % p,
		       near(hl["count"], lazy, 0.1, 5),
		       "hist %d, record %d" % (hl["count"], lazy))
		expect(tag, "hist: dd %d eager count" % p,
		       near(he["count"], eager, 0.2, 5),
		       "hist %d, record %d" % (he["count"], eager))
		mean = lsum // lazy if lazy else 0
		expect(tag, "hist: dd %d mean lazy wait" % p,
		       near(hl["avg_ns"], mean, 0.2, 0),
		       "hist %.3f ms, record %.3f ms" % (hl["avg_ns"] / 1e6, mean / 1e6))
	cpu = {}
	try:
		for line in open(os.path.join(out, tag + "-hist-cpu")):
			f = line.split()
			cpu[f[0]] = (int(f[1]), f[3])
	except (OSError, ValueError, IndexError) as e:
		expect(tag, "hist: CPU figures", False, str(e)[:100])
		return
	ha, lv, tc = cpu.get("hist-alone"), cpu.get("live"), cpu.get("trace-cmd")
	ok = ha is not None and lv is not None and ha[1] == "0" and lv[1] == "0"
	expect(tag, "hist: CPU at most a tenth of live's", ok and ha[0] * 10 <= lv[0],
	       "hist %s ticks, live --json %s ticks (USER_HZ)" %
	       (ha and ha[0], lv and lv[0]))
	# side by side, not a goal: trace-cmd record of live's events
	expect(tag, "hist: trace-cmd record measured", tc is not None and tc[1] == "0",
	       "trace-cmd record %s ticks, hist %s" % (tc and tc[0], ha and ha[0]))
	with open(os.path.join(out, "guest.log"), errors="replace") as f:
		log = f.read()
	expect(tag, "hist: tracefs clean after it",
	       "%s tracefs clean after hist" % tag in log, "")


def check_stop(tag):
	try:
		log = open(os.path.join(out, tag + "-stop.log")).read()
	except OSError as e:
		expect(tag, "stop-above: its log", False, str(e)[:100])
		return
	m = re.search(r"a lazy request of (\d+) (\S+) on CPU \d+ waited ([0-9.]+) ms "
		      r"\(seen at ([0-9.]+),", log)
	expect(tag, "stop-above: a lazy request named", m is not None,
	       m.group(0)[:120] if m else log.strip()[-120:])
	if not m:
		return
	# the workload's: a hog, the spinner, the script itself or its own
	# sleep (an exec under emulation took 4 ms once: "exe", busybox's)
	first = re.search(r"script pid (\d+)", log)
	expect(tag, "stop-above: a task of the workload",
	       first is not None and int(m.group(1)) >= int(first.group(1)),
	       "%s %s (the workload from pid %s)" % (m.group(1), m.group(2),
						     first.group(1) if first else "?"))
	p = subprocess.run([lazytrace, "table", "requests", "-i",
			    os.path.join(out, tag + "-stop.dat"), "--csv"],
			   capture_output=True, text=True)
	seen = float(m.group(4))
	rows = [r for r in csv.DictReader(io.StringIO(p.stdout))
		if r["pid"] == m.group(1) and r["kind"] == "lazy" and r["latency_ns"]
		and int(r["latency_ns"]) >= 2000000
		and abs(int(r["seen_ns"]) / 1e9 - seen) < 2e-6]
	expect(tag, "stop-above: the file holds that request", len(rows) == 1,
	       "%d row(s) of pid %s seen at %.6f" % (len(rows), m.group(1), seen))


def check_stale(tag):
	"""A hist killed with SIGKILL left its objects; the next removed them."""
	try:
		killed = open(os.path.join(out, tag + "-hist-killed")).read().split("\n")
		err = open(os.path.join(out, tag + "-hist-stale.err")).read()
	except OSError as e:
		expect(tag, "hist killed: files", False, str(e)[:100])
		return
	pid = killed[0].strip()
	left = [l for l in killed[1:] if l.strip()]
	expect(tag, "hist killed: left instance, events, probe", len(left) >= 4,
	       "; ".join(l.strip()[:40] for l in left))
	want = ["removed stale instance lazytrace-%s " % pid,
		"removed stale synthetic event lazytrace_%s_lazy " % pid,
		"removed stale synthetic event lazytrace_%s_eager " % pid,
		"removed stale probe lazytrace_h%s/" % pid]
	missing = [w for w in want if w not in err]
	expect(tag, "hist after it: removed each", not missing,
	       "missing: %s" % missing if missing else "all four said")


def show_startup():
	with open(os.path.join(out, "guest.log"), errors="replace") as f:
		ms = [int(x) for x in re.findall(r"live start-up (\d+) ms", f.read())]
	expect("startup", "live's start-up measured", len(ms) == 3,
	       "%s ms of guest time" % ms)


for tag in tags:
	check(tag)
	check_stale(tag)
	check_stop(tag)
show_startup()
finish("prod_check")
