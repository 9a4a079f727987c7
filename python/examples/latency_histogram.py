#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""A per-task latency histogram as a PNG.

How long each busy task's requests waited, lazy and eager apart: one
panel per task (the N with the most requests), log-scaled latency.

    latency_histogram.py TRACE OUT.png [N]
"""

import sys

import matplotlib
matplotlib.use("Agg")			# no display needed
import matplotlib.pyplot as plt		# noqa: E402
import numpy as np			# noqa: E402

import lazytrace			# noqa: E402


def main():
    path, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    df = lazytrace.open(path).requests().to_pandas()
    # served requests of real tasks (the idle task's are wake-ups)
    df = df[df["latency_ns"].notna() & (df["pid"] != 0)]
    busiest = df.groupby(["pid", "comm"]).size().nlargest(n).index
    fig, axes = plt.subplots(len(busiest), 1, squeeze=False,
                             figsize=(7, 2.2 * len(busiest)),
                             sharex=True)
    lat_us = df["latency_ns"].astype("float64") / 1e3
    bins = np.logspace(0, np.log10(max(lat_us.max(), 10.0)) + 0.1, 40)
    for ax, (pid, comm) in zip(axes[:, 0], busiest):
        mine = df[(df["pid"] == pid) & (df["comm"] == comm)]
        for kind in ("lazy", "eager"):
            v = mine[mine["kind"] == kind]["latency_ns"].astype(
                "float64") / 1e3
            if len(v):
                ax.hist(v, bins=bins, alpha=0.6,
                        label="%s (%d)" % (kind, len(v)))
        ax.set_xscale("log")
        ax.set_title("%s-%d" % (comm, pid), fontsize=9)
        ax.legend(fontsize=8)
        ax.set_ylabel("requests")
    axes[-1, 0].set_xlabel("latency (us, request to switch)")
    fig.tight_layout()
    fig.savefig(out, dpi=80)
    print("%s: %d tasks, %d requests" % (out, len(busiest), len(df)))


if __name__ == "__main__":
    main()
