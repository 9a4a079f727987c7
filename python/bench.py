#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Python module's speed against `lazytrace stats` (bench/README.md).

    python/bench.py [TRACE...]     (default: the largest bundled recording)

Then the memory of a stream: iterating a kernel text and the same ten
times as long (bench/mk-long-text.py) must take about the same RSS.

Each command runs in a child process RUNS times (default 3, env
BENCH_RUNS) under GNU time; the median CPU (user + system, the
interpreter's start included), wall time and peak RSS are printed as a
Markdown table, with each one's CPU over stats'.
"""

import json
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LT = os.environ.get("LAZYTRACE", os.path.join(TOP, "lazytrace"))
PY = sys.executable
RUNS = int(os.environ.get("BENCH_RUNS", "3"))

PROLOGUE = "import sys; sys.path.insert(0, %r); import lazytrace\n" % \
    os.path.join(TOP, "python")
SCRIPTS = [
    ("import lazytrace (no trace)", "pass"),
    ("a call per row: lt_table_next only (the per-cell path's floor)",
     "from lazytrace._lib import lib\n"
     "r = lazytrace._Run(sys.argv[1], []); t = r.table('transitions')\n"
     "while lib.lt_table_next(t) > 0: pass"),
    ("for tr in transitions(): whole rows",
     "n = 0\n"
     "for tr in lazytrace.open(sys.argv[1]).transitions(): n += 1"),
    ("transitions(columns=4 of 19)",
     "n = 0\n"
     "for tr in lazytrace.open(sys.argv[1]).transitions(\n"
     "        columns=('ts_ns', 'pid', 'kind', 'latency_ns')): n += 1"),
    ("requests().to_pandas()",
     "df = lazytrace.open(sys.argv[1]).requests().to_pandas()"),
]


def measure(argv):
    """(CPU s, wall s, peak RSS MB) of one child, by GNU time: a child of
    this process would start with its RSS (fork copies it)."""
    p = subprocess.run(["/usr/bin/time", "-f", "@@ %U %S %e %M"] + argv,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if p.returncode:
        raise SystemExit("%s: exit status %d: %s" % (
            " ".join(argv), p.returncode, p.stderr.decode()[-500:]))
    line = [l for l in p.stderr.decode().splitlines() if l.startswith("@@")]
    u, s, wall, rss = map(float, line[-1].split()[1:])
    return u + s, wall, rss / 1024


def median(argv):
    runs = sorted(measure(argv) for _ in range(RUNS))
    return runs[len(runs) // 2]


def main():
    traces = sys.argv[1:] or [os.path.join(TOP, "tests", "data",
                                           "lazy612-msg-full.dat")]
    print("| trace | events | transitions | requests | command | CPU s | "
          "x stats | wall s | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for tr in traces:
        # counts from the CLI: this process stays small, and a child's
        # peak RSS starts from its parent's at fork
        j = json.loads(subprocess.run(
            [LT, "table", "meta", "summary", tr, "--json"],
            stdout=subprocess.PIPE, check=True).stdout)
        events = j["meta"]["events"]
        ntr = sum(j["summary"][k] for k in (
            "lazy", "eager", "upgrades", "tick_upgrades", "folds",
            "preempted", "yielded", "blocked", "cleared", "truncated"))
        nreq = subprocess.run([LT, "table", "requests", tr, "--csv"],
                              stdout=subprocess.PIPE, check=True
                              ).stdout.count(b"\n") - 1
        stats = median([LT, "stats", "-i", tr])
        name = os.path.basename(tr)
        print("| %s | %d | %d | %d | lazytrace stats | %.3f | 1.00 | %.3f "
              "| %.1f |" % ((name, events, ntr, nreq) + stats))
        for label, body in SCRIPTS:
            cpu, wall, rss = median([PY, "-c", PROLOGUE + body, tr])
            print("| %s | | | | %s | %.3f | %.2f | %.3f | %.1f |" % (
                name, label, cpu, cpu / stats[0], wall, rss))
        sys.stdout.flush()
    memory(os.path.join(TOP, "tests", "data", "lazy612-msg-full.txt.xz"))


def memory(text_xz, factors=(1, 10)):
    """Peak RSS of iterating every transition and request of a kernel
    text and of the same text N times as long (bench/mk-long-text.py:
    more events, the same tasks)."""
    import lzma
    import tempfile
    base = lzma.open(text_xz).read()
    print()
    print("| text trace | events | command | CPU s | peak RSS MB |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for n in factors:
            path = os.path.join(tmp, "x%d.txt" % n)
            with open(path, "wb") as out:
                subprocess.run([PY, os.path.join(TOP, "bench",
                                                 "mk-long-text.py"), str(n)],
                               input=base, stdout=out, check=True)
            j = json.loads(subprocess.run(
                [LT, "table", "meta", path, "--json"],
                stdout=subprocess.PIPE, check=True).stdout)
            for label, body in (
                    ("transitions()", "for r in lazytrace.open(sys.argv[1])"
                     ".transitions(): pass"),
                    ("requests()", "for r in lazytrace.open(sys.argv[1])"
                     ".requests(): pass")):
                cpu, _, rss = median([PY, "-c", PROLOGUE + body, path])
                print("| %s (%dx) | %d | %s | %.3f | %.1f |" % (
                    os.path.basename(text_xz), n, j["meta"]["events"], label,
                    cpu, rss))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
