# SPDX-License-Identifier: GPL-2.0
"""On every bundled recording, the module's counts and percentiles equal
the CLI's: `lazytrace stats --json` (version 2: its own code path, the
analysis summary written by cli/output-json.c) and `lazytrace table
summary tasks --json` (the library's JSON writer). The stream tables
(transitions, requests, switches), counted here row by row, must add up
to the same totals."""

import collections

import pytest

from conftest import (RECORDINGS, DATS, rel, stats_json, table_json,
                      assert_rows_equal, lazytrace)

KINDS = ("lazy", "eager", "upgrade", "tick-upgrade", "fold", "preempted",
         "yielded", "blocked", "cleared", "truncated")
LATENCY_KEYS = {"lazy_served": "lazy_latency_ns",
                "eager_served": "eager_latency_ns",
                "lazy_upgrade": "lazy_upgrade_ns",
                "fold_served": "fold_latency_ns"}
SOURCES = ("tick", "hrtick", "timer", "irq", "direct")


def v2_counts(d):
    """A v2 count object: the tables use the same words and meanings
    (upgrades include the tick's)."""
    return {k: d[k] for k in ("lazy", "eager", "upgrades", "tick_upgrades",
                              "folds", "preempted", "yielded", "blocked",
                              "cleared", "truncated")}


@pytest.fixture(scope="module", params=RECORDINGS, ids=rel)
def rec(request):
    path = request.param
    t = lazytrace.open(path)
    yield path, t, stats_json(path)
    t.close()


def test_meta(rec):
    path, t, s = rec
    m = t.meta
    for k in ("abi", "abi_reason", "lazy_preemption", "events", "first_ns",
              "last_ns", "nr_cpus", "lost_events", "tick_source",
              "requests"):
        assert m[k] == s[k], k
    assert m.tick_ns == (s["tick_ns"] or None)
    assert bool(m.lost_unknown) == s["lost_events_unknown"]
    setup = s["setup"]
    for k, mk in (("preempt", "preempt"), ("hz", "hz"),
                  ("sched_features", "sched_features")):
        assert m[mk] == setup.get(k), k
    if "release" in setup:
        assert m.kernel == setup["release"]
    assert m.file == path


def test_summary(rec):
    path, t, s = rec
    m = t.meta
    for k, v in v2_counts(s["transitions"]).items():
        assert m[k] == v, k
    for how, v in s["switches"].items():
        assert m["switches_" + how] == v, how
    for src, v in s["upgrades_by_source"].items():
        assert m["upgrades_" + src] == v, src
    assert m.tasks >= len(s["tasks"])
    # the library's JSON writer gives the same one row
    j = table_json(path, "summary")["summary"]
    assert dict(t.summary) == j


def test_latency_table(rec):
    """The latency table's all-tasks rows are stats' latency objects."""
    path, t, s = rec
    rows = [r for r in t.latency() if r.pid is None]
    got = {r.kind: r for r in rows}
    for kind, key in LATENCY_KEYS.items():
        want = s["latency"][key]
        if want["count"] == 0:
            assert kind not in got, kind
            continue
        r = got[kind]
        assert (r.count, r.p50_ns, r.p90_ns, r.p99_ns, r.max_ns) == (
            want["count"], want["p50"], want["p90"], want["p99"],
            want["max"]), kind


def test_tasks(rec):
    """Per task: counts, run time, shares and percentiles equal stats'
    tasks, and every cell the library's own JSON."""
    path, t, s = rec
    tasks = t.tasks()
    rows = list(tasks)
    by_id = {r.task_id: r for r in rows}
    assert sorted(by_id) == sorted(x["id"] for x in s["tasks"])
    for x in s["tasks"]:
        r = by_id[x["id"]]
        assert (r.pid, r.comm, r.cpus, r.first_ns, r.last_ns,
                r.runtime_ns) == (x["pid"], x["comm"], x["cpus"],
                                  x["first_ns"], x["last_ns"],
                                  x["runtime_ns"])
        for k, v in v2_counts(x).items():
            assert getattr(r, k) == v, (x["id"], k)
        for how, v in x["switches"].items():
            assert getattr(r, "switches_" + how) == v
        for src, v in x["upgrades_by_source"].items():
            assert getattr(r, "upgrades_" + src) == v
        for pre, key in (("lazy", "lazy_latency_ns"),
                         ("eager", "eager_latency_ns"),
                         ("upgrade", "lazy_upgrade_ns")):
            lat = x[key]
            got = tuple(getattr(r, "%s_%s_ns" % (pre, q))
                        for q in ("p50", "p90", "p99", "max"))
            want = (lat["p50"], lat["p90"], lat["p99"], lat["max"]) \
                if lat["count"] else (None,) * 4
            assert got == want, (x["id"], pre)
        assert (r.requested, r.hog) == (x["requested"], x["hog"])
        assert abs(r.trace_share - x["trace_share"]) <= \
            1e-5 * max(x["trace_share"], 1e-9)
    j = table_json(path, "tasks")["tasks"]
    assert_rows_equal(rows, j, tasks.columns, "tasks")


def test_transitions_add_up(rec):
    """Counted row by row, the transitions are stats' counts."""
    path, t, s = rec
    kinds = collections.Counter()
    sources = collections.Counter()
    for tr in t.transitions():
        kinds[tr.kind] += 1
        if tr.source is not None:
            sources[tr.source] += 1
    v2 = s["transitions"]
    want = {"lazy": v2["lazy"], "eager": v2["eager"],
            "upgrade": v2["upgrades"] - v2["tick_upgrades"],
            "tick-upgrade": v2["tick_upgrades"], "fold": v2["folds"]}
    for k in ("preempted", "yielded", "blocked", "cleared", "truncated"):
        want[k] = v2[k]
    assert {k: kinds[k] for k in KINDS} == want
    assert set(kinds) <= set(KINDS)
    assert {k: sources[k] for k in SOURCES} == s["upgrades_by_source"]


def test_requests_add_up(rec, request):
    """Served requests, row by row, are the latency samples: their count
    and their longest equal stats' (the percentiles come from a
    histogram; the count and max are exact)."""
    path, t, s = rec
    lat = collections.defaultdict(list)
    upgraded = collections.Counter()
    for r in t.requests():
        if r.served != "truncated":
            assert r.latency_ns is not None
            assert r.latency_ns <= r.latency_max_ns
            lat[r.kind].append(r.latency_ns)
        else:
            assert r.latency_ns is None
        if r.upgrade_ns is not None:
            assert r.kind == "lazy" and r.upgrade_source in SOURCES
            upgraded[r.upgrade_source] += 1
    for kind, key in (("lazy", "lazy_latency_ns"),
                      ("eager", "eager_latency_ns")):
        want = s["latency"][key]
        assert len(lat[kind]) == want["count"], kind
        if want["count"]:
            assert max(lat[kind]) == want["max"], kind
    # a request is upgraded once at most: its first upgrade
    for src in SOURCES:
        assert upgraded[src] <= s["upgrades_by_source"][src]


def test_switches_add_up(rec):
    path, t, s = rec
    how = collections.Counter(sw.how for sw in t.switches())
    assert dict((k, how[k]) for k in s["switches"]) == s["switches"]


@pytest.mark.parametrize("path", DATS, ids=rel)
def test_events_count(path):
    """Every event the analysis saw comes out of events()."""
    t = lazytrace.open(path)
    n = sum(1 for _ in t.events())
    assert n == t.meta.events == stats_json(path)["events"]
