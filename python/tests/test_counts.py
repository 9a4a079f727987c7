# SPDX-License-Identifier: GPL-2.0
"""On every bundled recording, the module's counts and percentiles equal
the CLI's: `lazytrace stats --json` (version 3: the meta, summary, tasks,
latency and lost tables) and `lazytrace table summary tasks --json` (the
library's JSON writer). The stream tables
(transitions, requests, switches), counted here row by row, must add up
to the same totals."""

import collections

import pytest

from conftest import (RECORDINGS, DATS, rel, stats_json, table_json,
                      assert_rows_equal, lazytrace)

KINDS = ("lazy", "eager", "upgrade", "tick-upgrade", "fold", "preempted",
         "yielded", "blocked", "cleared", "truncated")
COUNTS = ("lazy", "eager", "upgrades", "tick_upgrades", "folds", "preempted",
          "yielded", "blocked", "cleared", "truncated")
LATENCY_KINDS = ("lazy_served", "eager_served", "lazy_upgrade", "fold_served")
SOURCES = ("tick", "hrtick", "timer", "irq", "direct")
HOW = ("preempted", "yielded", "blocked")


def latency(s, kind, task_id=None):
    """A latency row of stats --json (None: all tasks'), or None when it
    has no sample."""
    r = [x for x in s["latency"]
         if x["task_id"] == task_id and x["kind"] == kind]
    return r[0] if r else None


@pytest.fixture(scope="module", params=RECORDINGS, ids=rel)
def rec(request):
    path = request.param
    t = lazytrace.open(path)
    yield path, t, stats_json(path)
    t.close()


def test_meta(rec):
    path, t, s = rec
    m = t.meta
    sm = s["meta"]
    for k in ("abi", "abi_reason", "lazy_preemption", "events", "first_ns",
              "last_ns", "nr_cpus", "lost_events", "tick_source",
              "requests", "preempt", "hz", "sched_features", "kernel",
              "lost_unknown_times"):
        assert m[k] == sm[k], k
    assert m.tick_ns == sm["tick_ns"]
    assert m.file == sm["file"] == path


def test_summary(rec):
    path, t, s = rec
    m = t.meta
    summ = s["summary"]
    for k in COUNTS:
        assert m[k] == summ[k], k
    for how in HOW:
        assert m["switches_" + how] == summ["switches_" + how], how
    for src in SOURCES:
        assert m["upgrades_" + src] == summ["upgrades_" + src], src
    assert m.tasks >= len(s["tasks"])
    # the library's JSON writer gives the same one row
    j = table_json(path, "summary")["summary"]
    assert dict(t.summary) == j == summ


def test_latency_table(rec):
    """The latency table's all-tasks rows are stats' latency rows."""
    path, t, s = rec
    rows = [r for r in t.latency() if r.pid is None]
    got = {r.kind: r for r in rows}
    for kind in LATENCY_KINDS:
        want = latency(s, kind)
        if want is None:
            assert kind not in got, kind
            continue
        r = got[kind]
        assert (r.count, r.p50_ns, r.p90_ns, r.p99_ns, r.max_ns) == (
            want["count"], want["p50_ns"], want["p90_ns"], want["p99_ns"],
            want["max_ns"]), kind


def test_tasks(rec):
    """Per task: counts, run time, shares and percentiles equal stats'
    tasks, and every cell the library's own JSON."""
    path, t, s = rec
    tasks = t.tasks()
    rows = list(tasks)
    by_id = {r.task_id: r for r in rows}
    assert sorted(by_id) == sorted(x["task_id"] for x in s["tasks"])
    for x in s["tasks"]:
        r = by_id[x["task_id"]]
        assert (r.pid, r.comm, r.cpus, r.first_ns, r.last_ns,
                r.runtime_ns) == (x["pid"], x["comm"], x["cpus"],
                                  x["first_ns"], x["last_ns"],
                                  x["runtime_ns"])
        for k in COUNTS:
            assert getattr(r, k) == x[k], (x["task_id"], k)
        for how in HOW:
            assert getattr(r, "switches_" + how) == x["switches_" + how]
        for src in SOURCES:
            assert getattr(r, "upgrades_" + src) == x["upgrades_" + src]
        for pre, kind in (("lazy", "lazy_served"), ("eager", "eager_served"),
                          ("upgrade", "lazy_upgrade")):
            lat = latency(s, kind, x["task_id"])
            got = tuple(getattr(r, "%s_%s_ns" % (pre, q))
                        for q in ("p50", "p90", "p99", "max"))
            want = (lat["p50_ns"], lat["p90_ns"], lat["p99_ns"],
                    lat["max_ns"]) if lat else (None,) * 4
            assert got == want, (x["task_id"], pre)
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
    summ = s["summary"]
    want = {"lazy": summ["lazy"], "eager": summ["eager"],
            "upgrade": summ["upgrades"] - summ["tick_upgrades"],
            "tick-upgrade": summ["tick_upgrades"], "fold": summ["folds"]}
    for k in ("preempted", "yielded", "blocked", "cleared", "truncated"):
        want[k] = summ[k]
    assert {k: kinds[k] for k in KINDS} == want
    assert set(kinds) <= set(KINDS)
    assert {k: sources[k] for k in SOURCES} == \
        {k: summ["upgrades_" + k] for k in SOURCES}


def test_requests_add_up(rec, request):
    """Served requests, row by row, are the latency samples: their count
    and their longest equal stats' (the percentiles come from a
    histogram; the count and max are exact)."""
    path, t, s = rec
    lat = collections.defaultdict(list)
    upgraded = collections.Counter()
    for r in t.requests():
        if r.end != "truncated":
            assert r.latency_ns is not None
            assert r.latency_ns <= r.latency_max_ns
            lat[r.kind].append(r.latency_ns)
        else:
            assert r.latency_ns is None
        if r.upgrade_ns is not None:
            assert r.kind == "lazy" and r.upgrade_source in SOURCES
            upgraded[r.upgrade_source] += 1
    for kind, lk in (("lazy", "lazy_served"), ("eager", "eager_served")):
        want = latency(s, lk) or {"count": 0}
        assert len(lat[kind]) == want["count"], kind
        if want["count"]:
            assert max(lat[kind]) == want["max_ns"], kind
    # a request is upgraded once at most: its first upgrade
    for src in SOURCES:
        assert upgraded[src] <= s["summary"]["upgrades_" + src]


def test_switches_add_up(rec):
    path, t, s = rec
    how = collections.Counter(sw.how for sw in t.switches())
    assert {k: how[k] for k in HOW} == \
        {k: s["summary"]["switches_" + k] for k in HOW}


@pytest.mark.parametrize("path", DATS, ids=rel)
def test_events_count(path):
    """Every event the analysis saw comes out of events()."""
    t = lazytrace.open(path)
    n = sum(1 for _ in t.events())
    assert n == t.meta.events == stats_json(path)["meta"]["events"]
