#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ltjson.py: values out of lazytrace's version-3 JSON documents (docs/json.md).

As a command:
  ltjson.py FILE TABLE.COLUMN [COL=VALUE...]   the column of each matching
                                               row, one per line
  ltjson.py FILE TABLE [COL=VALUE...]          the number of matching rows
FILE '-' is standard input; a one-row table (meta, summary) is its row.

As a module (sys.path.insert(0, TOOLS)):
  rows(doc, "tasks", pid=140)   the matching rows
  row(doc, "meta")              the one matching row (AssertionError if not one)
  task(doc, 140)                the tasks row of pid 140 (the first)
  latency(doc, "lazy_served", pid=None)   a latency row, or one of zeros
  lost(doc)                     {cpu: lost_events} of the CPUs that lost some
  hogs_with_sites(doc)          the hogs rows, each with its "sites" rows
"""
import json
import sys


def load(path):
    return json.load(sys.stdin if path == "-" else open(path))


def rows(doc, table, **where):
    v = doc.get(table)
    if v is None:
        return []
    if isinstance(v, dict):
        v = [v]
    return [r for r in v if all(r.get(k) == w for k, w in where.items())]


def row(doc, table, **where):
    r = rows(doc, table, **where)
    assert len(r) == 1, (table, where, len(r))
    return r[0]


def task(doc, pid, table="tasks"):
    return rows(doc, table, pid=pid)[0]


def latency(doc, kind, pid=None):
    r = rows(doc, "latency", pid=pid, kind=kind)
    if r:
        return r[0]
    return {"pid": pid, "kind": kind, "count": 0, "p50_ns": 0, "p90_ns": 0,
            "p99_ns": 0, "max_ns": 0}


def lost(doc):
    return {r["cpu"]: r["lost_events"] for r in rows(doc, "lost")}


def hogs_with_sites(doc, table="sites"):
    """The hogs rows, each with "sites": its sites (or stacks) rows, the
    stack a list of frames and "truncated" its stack_truncated."""
    by = {}
    for s in rows(doc, table):
        s = dict(s, stack=s["stack"].split(";") if s["stack"] else [],
                 truncated=s["stack_truncated"])
        by.setdefault(s["task_id"], []).append(s)
    return [dict(h, sites=by.get(h["task_id"], [])) for h in rows(doc, "hogs")]


def _value(s):
    if s in ("null", "None"):
        return None
    if s in ("true", "false"):
        return s == "true"
    try:
        return int(s)
    except ValueError:
        return s


def main(argv):
    doc = load(argv[1])
    table, _, col = argv[2].partition(".")
    where = {}
    for w in argv[3:]:
        k, _, v = w.partition("=")
        where[k] = _value(v)
    r = rows(doc, table, **where)
    if not col:
        print(len(r))
        return 0
    for x in r:
        v = x[col]
        print(json.dumps(v) if not isinstance(v, str) else v)
    return 0 if r else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
