#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Two kernels' traces side by side: the same load under two preemption
modes (or two releases). How often was each task switched out preempted
(R+) against yielding (R), and how long did requests wait?

    compare_kernels.py A.dat B.dat
"""

import sys

import lazytrace

ROWS = [("kernel", "kernel"), ("ABI", "abi"), ("lazy bit seen",
                                                "lazy_preemption"),
        ("events", "events"), ("lazy requests", "lazy"),
        ("eager requests", "eager"), ("tick upgrades", "tick_upgrades"),
        ("preempted (R+)", "preempted"), ("yielded (R)", "yielded")]


def switches(t):
    """Switches out by how, idle excluded (the kernel text's count)."""
    out = {"preempted": 0, "yielded": 0, "blocked": 0}
    for s in t.switches():
        if s.prev_pid != 0:
            out[s.how] += 1
    return out


def latency(t):
    return {r.kind: r for r in t.latency() if r.pid is None}


def main():
    a, b = lazytrace.open(sys.argv[1]), lazytrace.open(sys.argv[2])
    print("%-28s %20s %20s" % ("", a.path[-20:], b.path[-20:]))
    for label, key in ROWS:
        print("%-28s %20s %20s" % (label, a.meta[key], b.meta[key]))
    sa, sb = switches(a), switches(b)
    for how in ("preempted", "yielded", "blocked"):
        print("%-28s %20d %20d" % ("switches " + how + " (no idle)",
                                   sa[how], sb[how]))
    la, lb = latency(a), latency(b)
    for kind in ("lazy_served", "eager_served"):
        for q in ("p50_ns", "p99_ns", "max_ns"):
            va = getattr(la[kind], q) if kind in la else None
            vb = getattr(lb[kind], q) if kind in lb else None
            fmt = lambda v: "-" if v is None else "%.1f us" % (v / 1e3)
            print("%-28s %20s %20s" % ("%s %s" % (kind, q[:-3]), fmt(va),
                                       fmt(vb)))


if __name__ == "__main__":
    main()
