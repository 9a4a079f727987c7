#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check hogs --json sites against hogs --folded output of the same trace.

usage: check-sites.py HOGS.json FOLDED-EPISODES FOLDED-PENDING [--path FN]
       [--comm NAME] [--share X]

Parses the folded files back as flamegraph.pl does ("frame;...;frame N",
duplicates summed) and checks, per hog: the folded weights add up to the
sum of its sites' episodes (resp. pending_ns); every site is not an entry
frame while the frames before it in its stack are (the site rule); with
--path, the hogs named --comm have at least a share X of their episodes in
stacks that contain FN. Prints one line per hog.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ltjson  # noqa: E402

ENTRY = ("trace_", "__trace_", "ftrace_", "__ftrace_", "perf_trace_",
         "asm_sysvec_", "sysvec_", "__sysvec_", "irq_", "__irq_",
         "handle_softirqs", "__do_softirq", "hrtimer_", "__hrtimer_",
         "tick_", "update_process_times", "sched_tick")


def folded(path):
    sums = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            stack, _, w = line.rstrip("\n").rpartition(" ")
            if not stack or not w.isdigit():
                sys.exit(f"{path}:{n}: not a folded line: {line!r}")
            frames = stack.split(";")
            if len(frames) < 2 or any(not fr for fr in frames):
                sys.exit(f"{path}:{n}: empty frame: {line!r}")
            sums[frames[0]] = sums.get(frames[0], 0) + int(w)
    return sums


def main():
    args = sys.argv[1:]
    opts = {}
    while len(args) > 3:
        opts[args[-2]] = args[-1]
        args = args[:-2]
    doc = json.load(open(args[0]))
    by_ep, by_pend = folded(args[1]), folded(args[2])
    bad = 0
    for h in ltjson.hogs_with_sites(doc):
        key = f"{h['comm'].replace(' ', '_').replace(';', '_')}-{h['pid']}"
        ep = sum(s["episodes"] for s in h["sites"])
        pend = sum(s["pending_ns"] for s in h["sites"])
        on_path = sum(s["episodes"] for s in h["sites"]
                      if opts.get("--path") in s["stack"])
        print(f"{key}: {h['episodes']} episodes, sites {ep} "
              f"({len(h['sites'])} sites), folded {by_ep.get(key, 0)}, "
              f"pending {pend} / folded {by_pend.get(key, 0)}, "
              f"through {opts.get('--path')}: {on_path}")
        if by_ep.get(key, 0) != ep or by_pend.get(key, 0) != pend:
            print(f"  folded weights differ from the JSON's")
            bad = 1
        if ep > h["episodes"]:
            print("  more site episodes than the hog has")
            bad = 1
        for s in h["sites"]:
            st, fn = s["stack"], s["function"]
            if fn.startswith("["):
                continue
            if fn not in st or fn.startswith(ENTRY):
                print(f"  site {fn} is an entry frame or not in its stack")
                bad = 1
                continue
            if any(not f.startswith(ENTRY) and not f.endswith("_trigger")
                   for f in st[:st.index(fn)]):
                print(f"  site {fn}: a non-entry frame comes before it")
                bad = 1
        if "--path" in opts and h["comm"] == opts.get("--comm"):
            if not ep or on_path < float(opts["--share"]) * ep:
                print(f"  fewer than {opts['--share']} of the episodes "
                      f"go through {opts['--path']}")
                bad = 1
    sys.exit(bad)


main()
