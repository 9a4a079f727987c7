#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check.py OUTDIR LAZYTRACE TAG...

Checks, on the host, what lazytrace recorded inside the stock-kernel VM
(stock-guest.sh step lt:TAG) against what the kernel did. TAG names the
setup: lazy-hrtick, lazy-nohrtick or full. Every expectation prints one
line, PASS or FAIL with what was found; exit 1 when any failed.
The JSON keys are those of CONTRACT.md.
"""
import json
import os
import re
import subprocess
import sys

from expect import expect, finish

TICK_NS = 4000000	# HZ=250
TICK_TOL = 0.05
FOOTPRINT = 0.01
SOURCES = ("tick", "hrtick", "timer", "irq", "direct")

out, lazytrace, tags = sys.argv[1], sys.argv[2], sys.argv[3:]


def run_json(*args):
	"""lazytrace ARGS --json: (exit status, parsed document or None, error)."""
	p = subprocess.run([lazytrace] + list(args) + ["--json"],
			   capture_output=True, text=True)
	try:
		return p.returncode, json.loads(p.stdout), p.stderr.strip()
	except ValueError:
		return p.returncode, None, (p.stderr.strip() or "no JSON")[:200]


def guest_log(tag):
	"""The guest.log lines of step lt:TAG."""
	lines, inside = [], False
	with open(os.path.join(out, "guest.log"), errors="replace") as f:
		for line in f:
			if line.startswith("=== ") and " lt %s " % tag in line:
				inside = True
			elif line.startswith("=== "):
				inside = inside and " lt " in line and tag in line
			if inside:
				lines.append(line.rstrip("\n"))
	return lines


def tick_ok(ns):
	return isinstance(ns, int) and abs(ns - TICK_NS) <= TICK_NS * TICK_TOL


def check_sources(tag, where, summary):
	"""A summary row (stats --json, or a live interval's): its
	upgrades_SOURCE columns add up to its upgrades."""
	summary = summary or {}
	ubs = {k: summary.get("upgrades_" + k) for k in SOURCES}
	if any(not isinstance(v, int) for v in ubs.values()):
		expect(tag, where + ": upgrades_SOURCE columns", False,
		       "upgrades by source=%s" % json.dumps(ubs))
		return None
	total = summary.get("upgrades")
	expect(tag, where + ": upgrades_by_source adds up", sum(ubs[k] for k in SOURCES) == total,
	       "%s, upgrades %s" % (json.dumps(ubs), total))
	return ubs


def own_events(path):
	"""(events of comm lazytrace, all events) per trace-cmd report."""
	p = subprocess.run(["trace-cmd", "report", "-i", path], capture_output=True, text=True)
	own = total = 0
	ev = re.compile(r"^\s*(\S.*?)-(\d+)\s+\[\d+\]")
	for line in p.stdout.splitlines():
		m = ev.match(line)
		if not m:
			continue
		total += 1
		if m.group(1).strip().endswith("lazytrace") or m.group(1).strip() == "lazytrace":
			own += 1
	return own, total


def hog_pids(tag):
	"""The dd pids the hog script printed during record."""
	pids = set()
	path = os.path.join(out, tag + "-record.log")
	if os.path.isfile(path):
		for line in open(path, errors="replace"):
			m = re.match(r"hog pid (\d+)", line)
			if m:
				pids.add(int(m.group(1)))
	return pids


def check_sites(tag, name, hogs, sites):
	"""Issue 11's proof on a stock kernel: the stacks the tick trigger took
	while a dd hog ignored its lazy request run through /dev/zero's read
	path (read_zero, or the page faults on dd's buffer below it). @sites:
	hogs --json's sites rows (stack: frames joined by ';')."""
	for h in hogs:
		eps = h.get("episodes") or 0
		own = [s for s in sites if s.get("task_id") == h.get("task_id")]
		h = dict(h, sites=own)
		via = sum(s.get("episodes", 0) for s in own
			  if "read_zero" in [s.get("function")] +
			  (s.get("stack") or "").split(";"))
		expect(tag, name + ": dd-%s sites via read_zero" % h.get("pid"),
		       eps > 0 and 10 * via >= 9 * eps,
		       "%d of %d episodes; top site %s" % (via, eps,
		       ((h.get("sites") or [{}])[0]).get("function")))


def check_record(tag, name, hog_load):
	path = os.path.join(out, "%s-%s.dat" % (tag, name))
	if not os.path.isfile(path) or os.path.getsize(path) == 0:
		expect(tag, name + ": record wrote a trace", False, "no " + path)
		return
	rc, st, err = run_json("stats", "-i", path)
	if st is None:
		expect(tag, name + ": stats --json", False, "exit %d: %s" % (rc, err))
		return
	meta = st.get("meta") or {}
	expect(tag, name + ": tick_ns 4 ms +-5%", tick_ok(meta.get("tick_ns")),
	       "tick_ns=%s" % meta.get("tick_ns"))
	# record enables hrtimer_start: the tick from its expiry grid, exact
	expect(tag, name + ": tick_source timer_grid, 4 ms exactly",
	       meta.get("tick_source") == "timer_grid" and meta.get("tick_ns") == 4000000,
	       "tick_source=%s tick_ns=%s" % (meta.get("tick_source"), meta.get("tick_ns")))
	expect(tag, name + ": requests from the probe", meta.get("requests") == "probe",
	       "requests=%s" % meta.get("requests"))
	setup = {k: meta.get(k) for k in ("kernel", "preempt", "hz", "sched_features")}
	want_preempt = "full" if tag == "full" else "lazy"
	feats = "," + str(setup.get("sched_features") or "") + ","
	want_feat = ",NO_HRTICK," if tag == "lazy-nohrtick" else ",HRTICK,"
	expect(tag, name + ": setup line", setup.get("preempt") == want_preempt and
	       str(setup.get("kernel") or "").startswith("7.") and setup.get("hz") == 250 and
	       want_feat in feats, "setup=%s" % json.dumps(setup)[:120])
	ubs = check_sources(tag, name, st.get("summary"))
	if hog_load and ubs is not None:
		if tag == "lazy-hrtick":
			expect(tag, name + ": upgrades mostly by hrtick",
			       ubs["hrtick"] > 0 and ubs["hrtick"] > ubs["tick"], json.dumps(ubs))
		elif tag == "lazy-nohrtick":
			expect(tag, name + ": upgrades by the tick, no hrtick",
			       ubs["tick"] > 0 and ubs["hrtick"] == 0, json.dumps(ubs))
	if hog_load:
		rc, hg, err = run_json("hogs", "-i", path)
		hogs = (hg or {}).get("hogs")
		if hogs is None:
			expect(tag, name + ": hogs --json", False, "exit %d: %s" % (rc, err))
		else:
			names = ["%s-%s" % (h.get("comm"), h.get("pid")) for h in hogs]
			want = hog_pids(tag)
			found = want & set(h.get("pid") for h in hogs)
			if tag == "lazy-nohrtick":
				expect(tag, name + ": the 3 dd hogs found", len(want) == 3 and found == want,
				       "dd pids %s; hogs: %s" % (sorted(want), " ".join(names) or "none"))
				check_sites(tag, name, [h for h in hogs if h.get("pid") in want],
					    hg.get("sites") or [])
			else:
				expect(tag, name + ": no hog", not hogs,
				       "hogs: %s" % (" ".join(names) or "none"))
	own, total = own_events(path)
	expect(tag, name + ": own events <= 1% of the trace",
	       total > 0 and own <= total * FOOTPRINT,
	       "%d of %d (%.2f%%)" % (own, total, 100.0 * own / max(total, 1)))


def check_live(tag):
	path = os.path.join(out, tag + "-live.json")
	docs, bad = [], 0
	if os.path.isfile(path):
		for line in open(path, errors="replace"):
			if line.strip():
				try:
					docs.append(json.loads(line))
				except ValueError:
					bad += 1
	expect(tag, "live: JSON intervals", docs and not bad,
	       "%d intervals, %d unparsable lines" % (len(docs), bad))
	if not docs:
		return
	ivs = [d.get("interval") or {} for d in docs]
	ticks = [iv.get("tick_ns") for iv in ivs]
	expect(tag, "live: every interval's tick_ns 4 ms +-5%",
	       all(tick_ok(t) for t in ticks), "tick_ns per interval: %s" % ticks)
	expect(tag, "live: requests from the probe",
	       all(iv.get("requests") == "probe" for iv in ivs),
	       "requests: %s" % sorted(set(str(iv.get("requests")) for iv in ivs)))
	for d, iv in zip(docs, ivs):
		if check_sources(tag, "live interval %s" % iv.get("interval"),
				 d.get("summary")) is None:
			break
	hogs = set()
	for d in docs:
		for h in d.get("live_tasks") or []:
			if h.get("hog"):
				hogs.add("%s-%s" % (h.get("comm"), h.get("pid")))
	dd = [h for h in hogs if h.startswith("dd-")]
	if tag == "lazy-nohrtick":
		expect(tag, "live: the 3 dd hogs found", len(dd) >= 3, "hogs: %s" % sorted(hogs))
	else:
		expect(tag, "live: no hog", not hogs, "hogs: %s" % sorted(hogs))


def check_guest(tag):
	log = guest_log(tag)
	for what, pat in (("record exit 0", "record exit 0"),
			  ("record hackbench exit 0", "record hackbench exit 0"),
			  ("live exit 0", "live exit 0"),
			  ("tui ran in tmux and quit on q", "tui quit on q: exit 0"),
			  ("tracefs clean after lazytrace", "tracefs clean after lazytrace")):
		key = pat.split(" exit")[0].split(" quit")[0].split(" clean")[0]
		expect(tag, "guest: " + what, any(pat in l for l in log),
		       "; ".join(l for l in log if key in l and not l.startswith("==="))[:120])
	text = ""
	for scr in (tag + "-tui.txt", tag + "-tui-end.txt"):
		scr = os.path.join(out, scr)
		text += open(scr, errors="replace").read() if os.path.isfile(scr) else ""
	expect(tag, "tui: screen shows the kernel setup", "7.2." in text,
	       "%d non-empty lines" % sum(1 for l in text.splitlines() if l.strip()))
	end = os.path.join(out, tag + "-tui-end.txt")
	end = open(end, errors="replace").read() if os.path.isfile(end) else ""
	m = re.search(r"(\d+)%\s+(\d+) events", end)
	expect(tag, "tui: timeline filled after the load", bool(end.strip()) and
	       "Reading the input" not in end,
	       "stuck at 'Reading the input %s%% %s events'" % m.groups() if m and
	       "Reading the input" in end else "%d non-empty lines" %
	       sum(1 for l in end.splitlines() if l.strip()))


# both boots quieted CPU 0's memory housekeeping (stock-guest.sh)
with open(os.path.join(out, "guest.log"), errors="replace") as f:
	quiet = [l for l in f if l.startswith("housekeeping:")]
expect("boots", "khugepaged and compaction idle", len(quiet) == 2 and
       all("sleeps 3600000 ms, compaction_proactiveness 0" in l for l in quiet),
       "; ".join(l.strip() for l in quiet)[:120] or "no housekeeping line")

for tag in tags:
	check_guest(tag)
	check_record(tag, "record", True)
	check_record(tag, "msg", False)
	check_live(tag)

print()
finish("vm-test-stock")
