#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1
"""Many traces into one SQLite file, and one query over them all.

A fleet's recordings (the same regression on many machines): every
trace's requests and tasks in one database, with the trace and its
kernel on each row; then which kernels' tasks waited longest for their
lazy requests.

    fleet_sqlite.py OUT.db TRACE...
"""

import sqlite3
import sys

import lazytrace

QUERY = """
SELECT kernel, abi, comm, count(*) AS lazy, max(latency_ns) AS longest,
       count(DISTINCT trace) AS traces
FROM requests
WHERE kind = 'lazy' AND latency_ns IS NOT NULL
GROUP BY kernel, abi, comm
ORDER BY longest DESC
LIMIT 10
"""


def main():
    out, paths = sys.argv[1], sys.argv[2:]
    conn = sqlite3.connect(out)
    fleet = lazytrace.open_many(paths)
    n = fleet.requests().to_sql(conn, "requests", if_exists="replace")
    fleet.tasks().to_sql(conn, "tasks", if_exists="replace")
    fleet.meta.to_sql(conn, "traces", if_exists="replace")
    conn.execute("CREATE INDEX IF NOT EXISTS requests_kind ON "
                 "requests (kind, comm)")
    conn.commit()
    print("%s: %d traces, %d requests" % (out, len(paths), n))
    print("%-24s %-9s %-16s %6s %12s %6s" % ("KERNEL", "ABI", "COMM",
                                             "LAZY", "LONGEST us",
                                             "TRACES"))
    for kernel, abi, comm, lazy, longest, traces in conn.execute(QUERY):
        print("%-24s %-9s %-16s %6d %12.1f %6d" % (
            kernel, abi, comm, lazy, longest / 1e3, traces))


if __name__ == "__main__":
    main()
