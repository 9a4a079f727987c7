#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Which tasks waited longest for the tick?

A lazy request is served at the task's next return to user space or
sleep; a task that does neither (a loop in the kernel) keeps its CPU until
the scheduler tick upgrades the request to an eager one. This lists the
tasks whose lazy requests the tick upgraded, longest wait first.

    tick_waiters.py TRACE [N]
"""

import collections
import sys

import lazytrace


def tick_waiters(path):
    """{(pid, comm): [latencies of its tick-upgraded lazy requests]}"""
    waits = collections.defaultdict(list)
    for r in lazytrace.open(path).requests():
        if r.kind == "lazy" and r.upgrade_source == "tick" and \
                r.latency_ns is not None:
            waits[(r.pid, r.comm)].append(r.latency_ns)
    return waits


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    waits = tick_waiters(path)
    rows = sorted(waits.items(), key=lambda kv: max(kv[1]), reverse=True)
    print("%-16s %7s %8s %12s %12s" % ("COMM", "PID", "UPGRADED",
                                       "MEDIAN us", "LONGEST us"))
    for (pid, comm), lat in rows[:top]:
        lat.sort()
        print("%-16s %7d %8d %12.1f %12.1f" % (
            comm, pid, len(lat), lat[len(lat) // 2] / 1e3, lat[-1] / 1e3))
    if not rows:
        print("no lazy request was upgraded by the tick")


if __name__ == "__main__":
    main()
