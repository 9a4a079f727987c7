#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The Python module's speed against `lazytrace stats` (bench/README.md).

    python/bench.py [TRACE...]     (default: the largest bundled recording)

Each command runs in a child process RUNS times (default 3, env
BENCH_RUNS); the median CPU (user + system, the child's own rusage, the
interpreter's start included), wall time and peak RSS are printed as a
Markdown table, with each one's CPU over stats'.
"""

import os
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LT = os.environ.get("LAZYTRACE", os.path.join(TOP, "lazytrace"))
PY = sys.executable
RUNS = int(os.environ.get("BENCH_RUNS", "3"))

PROLOGUE = "import sys; sys.path.insert(0, %r); import lazytrace\n" % \
    os.path.join(TOP, "python")
SCRIPTS = [
    ("import lazytrace (no trace)", "pass"),
    ("binding floor: lt_table_next only",
     "from lazytrace._lib import lib\n"
     "r = lazytrace._Run(sys.argv[1], []); t = r.table('transitions')\n"
     "while lib.lt_table_next(t) > 0: pass"),
    ("for tr in transitions(): whole rows",
     "n = 0\n"
     "for tr in lazytrace.open(sys.argv[1]).transitions(): n += 1"),
    ("transitions(columns=4 of 19)",
     "n = 0\n"
     "for tr in lazytrace.open(sys.argv[1]).transitions(\n"
     "        columns=('ts', 'pid', 'kind', 'latency_ns')): n += 1"),
    ("requests().to_pandas()",
     "df = lazytrace.open(sys.argv[1]).requests().to_pandas()"),
]


def measure(argv):
    """(CPU s, wall s, peak RSS MB) of one child."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    if status:
        raise SystemExit("%s: exit status %d" % (" ".join(argv), status))
    return ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss / 1024


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
        sys.path.insert(0, os.path.join(TOP, "python"))
        import lazytrace
        t = lazytrace.open(tr)
        events = t.meta.events
        ntr = sum(t.meta[k] for k in ("lazy", "eager", "upgrades",
                                      "tick_upgrades", "folds", "preempted",
                                      "yielded", "blocked", "cleared",
                                      "truncated"))
        nreq = len(t.requests(columns="kind"))
        stats = median([LT, "stats", "-i", tr])
        name = os.path.basename(tr)
        print("| %s | %d | %d | %d | lazytrace stats | %.3f | 1.00 | %.3f "
              "| %.1f |" % ((name, events, ntr, nreq) + stats))
        for label, body in SCRIPTS:
            cpu, wall, rss = median([PY, "-c", PROLOGUE + body, tr])
            print("| %s | | | | %s | %.3f | %.2f | %.3f | %.1f |" % (
                name, label, cpu, cpu / stats[0], wall, rss))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
