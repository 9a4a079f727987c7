# SPDX-License-Identifier: GPL-2.0
"""Every table, every cell: the module's rows are the library's JSON
(`lazytrace table NAME --json`), with the same filters; the exports
(to_pandas, to_sql, to_numpy, to_records) keep every row and every
null."""

import io
import os
import sqlite3

import pytest

from conftest import (DATA, rel, table_json, cli_json, assert_rows_equal,
                      lazytrace, TOP)

SMALL = [os.path.join(DATA, p) for p in (
    "lazy612-hogs.dat",				# flags, lazy, hogs
    "lazy612-hogs.txt.xz",			# the kernel's text
    "stock/stock72-full.dat",			# requests known by a probe
    "stock/stock72-lazy-nohrtick-stacks.dat",	# hog sites and stacks
    "old/bullseye510-allevents-i686.dat",	# 5.10, legacy ABI, 32-bit
)]


def _opts_args(opts):
    args = []
    for k, v in opts.items():
        args += ["--" + k, v]
    return args


@pytest.mark.parametrize("path", SMALL, ids=rel)
@pytest.mark.parametrize("name", lazytrace.TABLES)
def test_table_equals_cli_json(path, name):
    t = lazytrace.open(path)
    table = t.table(name)
    rows = list(table)
    j = table_json(path, name)[name]
    if name in ("meta", "summary"):
        j = [j]
    assert_rows_equal(rows, j, table.columns, "%s %s" % (rel(path), name))
    # the columns are the library's: `table --list --json` says the same
    schema = cli_json("table", "--list", "--json")
    cols = schema["tables"][name]
    assert [(c.name, c.type, c.unit, c.doc) for c in table.columns] == \
        [(c["name"], c["type"], c["unit"], c["doc"]) for c in cols]


FILTERS = [
    # (open() keywords, the CLI's options)
    ({"pids": [142, 143]}, {"pid": "142,143"}),
    ({"pids": "142-143"}, {"pid": "142-143"}),
    ({"pids": 140}, {"pid": "140"}),
    ({"comms": "lazy*"}, {"comm": "lazy*"}),
    ({"comms": ["lazy*", "rcu*"]}, {"comm": "lazy*,rcu*"}),
    ({"cpus": [1]}, {"cpu": "1"}),
    ({"cpus": "0"}, {"cpu": "0"}),
    # int: ns; float: exact seconds; str: as the command line
    ({"start": 8000000000, "end": 9500000000},
     {"from": "8000000000ns", "to": "9500000000ns"}),
    ({"start": 8.0, "end": 9.5}, {"from": "8s", "to": "9.5s"}),
    ({"start": 7.613677}, {"from": "7613677000ns"}),
    ({"start": "7.613677"}, {"from": "7.613677"}),
    ({"start": "8s", "end": "9500ms"}, {"from": "8s", "to": "9500ms"}),
    ({"abi": "legacy"}, {"abi": "legacy"}),
    ({"kind": ["lazy", "served"]}, {"kind": "lazy,served"}),
    ({"hog_episodes": 2, "episode_ticks": 1.5},
     {"hog-episodes": "2", "episode-ticks": "1.5"}),
    ({"idle": True}, {"idle": None}),
]


def _filter_cases():
    for kw, opts in FILTERS:
        for name in ("requests", "transitions", "tasks", "switches",
                     "episodes", "meta"):
            # kind selects transitions, idle lists tasks: only there
            if ("kind" in kw and name != "transitions") or \
                    ("idle" in kw and name != "tasks"):
                continue
            yield pytest.param(kw, opts, name, id="%s-%r" % (name, kw))


@pytest.mark.parametrize("kw,opts,name", list(_filter_cases()))
def test_filters_equal_cli(kw, opts, name, hogs_dat):
    t = lazytrace.open(hogs_dat, **kw)
    table = t.table(name)
    args = []
    for k, v in opts.items():
        args += ["--" + k] + ([v] if v is not None else [])
    j = cli_json("table", name, hogs_dat, "--json", *args)[name]
    assert_rows_equal(list(table), [j] if name == "meta" else j,
                      table.columns, "%s %r" % (name, kw))


def test_float_and_str_times_differ(hogs_dat):
    """A str of six decimals takes its whole microsecond, as the command
    line does; a float is the instant it says."""
    t_float = lazytrace.open(hogs_dat, start=7.613677)
    t_str = lazytrace.open(hogs_dat, start="7.613677")
    t_ns = lazytrace.open(hogs_dat, start=7613676500)
    assert t_str.meta.first_ns <= 7613677000
    assert t_float.meta.first_ns >= 7613677000
    assert t_ns.meta.first_ns == t_str.meta.first_ns
    assert t_str.meta.events > t_float.meta.events


def test_exports_keep_rows(hogs_dat):
    """to_pandas, to_sql, to_records, to_numpy: as many rows as len(),
    every table."""
    pandas = pytest.importorskip("pandas")
    numpy = pytest.importorskip("numpy")
    t = lazytrace.open(os.path.join(DATA, "stock",
                                    "stock72-lazy-nohrtick-stacks.dat"))
    conn = sqlite3.connect(":memory:")
    for name in lazytrace.TABLES:
        table = t.table(name)
        n = len(table)
        # no events were lost, no request was open at the end
        assert n > 0 or name in ("lost", "pending"), name
        df = table.to_pandas()
        assert isinstance(df, pandas.DataFrame)
        assert len(df) == n and list(df.columns) == list(table.names)
        assert table.to_sql(conn, name) == n
        assert conn.execute('SELECT count(*) FROM "%s"' % name
                            ).fetchone()[0] == n
        recs = table.to_records()
        assert len(recs) == n
        assert not n or list(recs[0]) == list(table.names)
        arrays = table.to_numpy()
        assert all(len(a) == n for a in arrays.values())
        # a fresh table streams again: the same rows
        assert list(t.table(name)) == table.rows()
    # the pandas types follow the columns' types
    df = t.requests().to_pandas()
    assert str(df["served_ns"].dtype) == "int64"
    assert str(df["latency_ns"].dtype) in ("int64", "Int64")
    assert str(df["request_ns"].dtype) == "Int64"	# probe: some null
    assert df["comm"].dtype == object
    df = t.tasks().to_pandas()
    assert str(df["hog"].dtype) == "bool"
    assert str(df["trace_share"].dtype) == "float64"
    assert numpy.issubdtype(df["runtime_ns"].dtype, numpy.int64)


def test_sql_values(hogs_dat):
    """Values and nulls survive sqlite: a query gives what the rows say."""
    t = lazytrace.open(hogs_dat)
    req = t.requests()
    rows = req.rows()
    conn = sqlite3.connect(":memory:")
    req.to_sql(conn, "req")
    got = conn.execute("SELECT * FROM req").fetchall()
    assert got == [tuple(int(v) if isinstance(v, bool) else v for v in r)
                   for r in rows]
    types = {r[1]: r[2] for r in conn.execute("PRAGMA table_info(req)")}
    assert types["latency_ns"] == "INTEGER" and types["comm"] == "TEXT"
    # append, replace, fail
    assert req.to_sql(conn, "req", if_exists="append") == len(rows)
    assert conn.execute("SELECT count(*) FROM req").fetchone()[0] == \
        2 * len(rows)
    assert req.to_sql(conn, "req", if_exists="replace") == len(rows)
    with pytest.raises(sqlite3.OperationalError):
        req.to_sql(conn, "req")
    lazy = conn.execute("SELECT comm, count(*), max(latency_ns) FROM req "
                        "WHERE kind = 'lazy' GROUP BY comm ORDER BY 2 DESC"
                        ).fetchall()
    want = {}
    for r in rows:
        if r.kind == "lazy":
            n, m = want.get(r.comm, (0, 0))
            want[r.comm] = (n + 1, max(m, r.latency_ns or 0))
    assert {c: (n, m) for c, n, m in lazy} == want


def test_numpy_columns(hogs_dat):
    numpy = pytest.importorskip("numpy")
    t = lazytrace.open(hogs_dat)
    req = t.requests()
    rows = req.rows()
    lat = req.column("latency_ns")
    assert lat.dtype == numpy.int64 and len(lat) == len(rows)
    assert list(lat) == [r.latency_ns for r in rows]
    up = req.column("upgrade_ns")			# null where not upgraded
    assert isinstance(up, numpy.ma.MaskedArray)
    assert list(up.mask) == [r.upgrade_ns is None for r in rows]
    assert int(up.max()) == max(r.upgrade_ns for r in rows
                                if r.upgrade_ns is not None)
    share = t.tasks().column("trace_share")
    assert share.dtype == numpy.float64
    with pytest.raises(lazytrace.UsageError):
        req.column("no_such_column")


def test_len_materialises_once(hogs_dat):
    t = lazytrace.open(hogs_dat)
    tr = t.transitions()
    n = len(tr)
    assert tr.rows() is tr.rows()
    assert sum(1 for _ in tr) == n
    assert sum(1 for _ in t.transitions()) == n


def test_meta(hogs_dat):
    t = lazytrace.open(hogs_dat)
    m = t.meta
    assert m.kernel == "6.12.118-lazy" and m["abi"] == "mainline"
    assert m.lazy_preemption is True and m.nr_cpus == 2
    assert m.hogs == 3 and m.tasks == 24
    with pytest.raises(AttributeError):
        m.no_such_key
    # the data README: three in-kernel hogs, pids 142-144 (comm sh)
    assert sorted(h.pid for h in t.hogs()) == [142, 143, 144]
    assert {h.comm for h in t.hogs()} == {"sh"}


def test_file_objects(hogs_dat, tmp_path):
    want = lazytrace.open(hogs_dat).summary
    with open(hogs_dat, "rb") as f:			# a real file: its path
        t = lazytrace.open(f)
        assert t.path == hogs_dat and t.summary == want
    data = open(hogs_dat, "rb").read()
    t = lazytrace.open(io.BytesIO(data))		# no path: a copy
    tmp = t.path
    assert tmp != hogs_dat and os.path.exists(tmp)
    assert t.summary == want
    assert len(t.requests()) == len(lazytrace.open(hogs_dat).requests())
    t.close()
    assert not os.path.exists(tmp)
    import pathlib
    assert lazytrace.open(pathlib.Path(hogs_dat)).summary == want
    # the kernel's text through a text-mode file object
    import lzma
    txt = lzma.open(os.path.join(DATA, "lazy612-hogs.txt.xz"), "rt").read()
    t = lazytrace.open(io.StringIO(txt))
    assert t.meta.events == 16934


@pytest.mark.parametrize("path", [
    "lazy612-hogs.dat", "lazy612-hogs.txt.xz",
    "stock/stock72-lazy-nohrtick-stacks.dat"])
def test_episodes_are_the_hogs(path):
    """The episodes table has one row per episode the analysis counts:
    per task, as many as the tasks and hogs tables say; in every
    format, the same rows."""
    path = os.path.join(DATA, path)
    t = lazytrace.open(path)
    assert "episodes" in lazytrace.STREAM_TABLES
    rows = t.episodes().rows()
    per_task = {}
    for r in rows:
        per_task[r.task_id] = per_task.get(r.task_id, 0) + 1
        assert r.since_ns <= r.last_tick_ns
        assert r.ticks >= 1 and r.pending_ns > 0
        if r.served_ns is not None:
            assert r.latency_ns == r.served_ns - r.since_ns
    want = {x.task_id: x.episodes for x in t.tasks() if x.episodes}
    assert per_task == want
    assert sum(h.episodes for h in t.hogs()) <= len(rows)
    j = cli_json("table", "episodes", path, "--json")["episodes"]
    assert_rows_equal(rows, j, t.episodes().columns, path)
    fleet = lazytrace.open_many([path])
    assert [r[5:] for r in fleet.episodes().rows()] == rows


def test_open_many(tmp_path):
    paths = [os.path.join(DATA, p) for p in
             ("lazy612-msg-full.dat", "lazy612-msg-lazy.dat",
              "lazy612-hogs.txt.xz")]
    fleet = lazytrace.open_many(paths)
    req = fleet.requests()
    assert req.names[:5] == ("trace", "kernel", "abi", "preempt", "hz")
    assert req.names[5:] == lazytrace.open(paths[0]).requests().names
    rows = req.rows()
    singles = [lazytrace.open(p) for p in paths]
    assert len(rows) == sum(len(s.requests()) for s in singles)
    for p, s in zip(paths, singles):
        mine = [r[5:] for r in rows if r.trace == p]
        assert mine == s.requests().rows()
        assert {(r.kernel, r.abi) for r in rows if r.trace == p} == \
            {(s.meta.kernel, s.meta.abi)}
    meta = fleet.meta.rows()
    assert [m.trace for m in meta] == paths
    assert [m.events for m in meta] == [s.meta.events for s in singles]
    conn = sqlite3.connect(str(tmp_path / "fleet.db"))
    assert fleet.requests().to_sql(conn, "requests") == len(rows)
    got = dict(conn.execute("SELECT trace, count(*) FROM requests "
                            "GROUP BY trace"))
    assert got == {p: len(s.requests()) for p, s in zip(paths, singles)}
    pytest.importorskip("pandas")
    df = fleet.tasks().to_pandas()
    assert set(df["trace"]) == set(paths)
    assert len(df) == sum(len(s.tasks()) for s in singles)


def test_version():
    mk = open(os.path.join(TOP, "Makefile")).read()
    import re
    assert re.search(r"^VERSION\s*:=\s*(\S+)", mk, re.M).group(1) == \
        lazytrace.__version__


def test_finds_library(tmp_path):
    """From the tree: build/'s library, unless LAZYTRACE_LIB names one;
    a missing one is a clear ImportError."""
    import subprocess
    from conftest import PYTHON
    env = {k: v for k, v in os.environ.items() if k != "LAZYTRACE_LIB"}
    env["PYTHONPATH"] = os.path.join(TOP, "python")
    code = "import lazytrace; print(lazytrace._lib.path)"
    tree = os.path.join(TOP, "build", "liblazytrace.so.0")
    p = subprocess.run([PYTHON, "-c", code], env=env, cwd=str(tmp_path),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if os.path.exists(tree) and "LD_PRELOAD" not in env:
        assert p.stdout.decode().strip() == tree
    env["LAZYTRACE_LIB"] = str(tmp_path / "nowhere.so")
    p = subprocess.run([PYTHON, "-c", code], env=env, cwd=str(tmp_path),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    err = p.stderr.decode()
    assert p.returncode != 0 and "ImportError" in err and \
        "nowhere.so" in err and "LAZYTRACE_LIB" in err


def test_columns_selected(hogs_dat):
    """columns=: those columns, in that order, the same values."""
    t = lazytrace.open(hogs_dat)
    full = t.requests().rows()
    sel = t.requests(columns=["latency_ns", "comm", "upgrade_source"])
    assert sel.names == ("latency_ns", "comm", "upgrade_source")
    assert [c.name for c in sel.columns] == list(sel.names)
    assert sel.rows() == [(r.latency_ns, r.comm, r.upgrade_source)
                          for r in full]
    assert list(t.tasks(columns="pid")) == [(r.pid,) for r in t.tasks()]
    ev = next(iter(t.events(columns=("ts_ns", "name"))))
    assert ev._fields == ("ts_ns", "name")
    for bad in (["nope"], [], ["pid", "pid"]):
        with pytest.raises(lazytrace.UsageError):
            t.requests(columns=bad)
    fleet = lazytrace.open_many([hogs_dat])
    assert fleet.requests(columns=["kind"]).names[-1] == "kind"


def test_list_reads_once(hogs_dat):
    """list(table) asks len() after iter(): one read of the input."""
    t = lazytrace.open(hogs_dat)
    calls = []
    stream = t._stream
    t._stream = lambda *a: (calls.append(a), stream(*a))[1]
    rows = list(t.requests())
    assert len(calls) == 1 and len(rows) == 1012


STREAM_PEAK = """
import sys
sys.path.insert(0, sys.argv[1])
import lazytrace
t = lazytrace.open(sys.argv[2])
n = sum(1 for r in t.transitions()) + sum(1 for r in t.requests())
n += sum(1 for r in t.switches())
hwm = [l for l in open("/proc/self/status") if l.startswith("VmHWM")]
print(n, hwm[0].split()[1])
"""


def test_streams_in_bounded_memory(tmp_path):
    """A trace four times as long (the same tasks, more events) streams
    in the same memory: rows are not kept."""
    import lzma
    import subprocess
    from conftest import PYTHON
    base = lzma.open(os.path.join(DATA, "lazy612-msg-full.txt.xz")).read()
    # Under make asan, ASan's quarantine holds up to 256 MB of freed
    # blocks (the interpreter's too, preloaded), so the peak would measure
    # how much was freed, not what is kept.
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") +
                           ":quarantine_size_mb=0"
                           ":thread_local_quarantine_size_kb=0")
    out = {}
    for n in (1, 4):
        path = tmp_path / ("x%d.txt" % n)
        with open(path, "wb") as f:
            subprocess.run([PYTHON, os.path.join(TOP, "bench",
                                                 "mk-long-text.py"), str(n)],
                           input=base, stdout=f, check=True)
        p = subprocess.run([PYTHON, "-c", STREAM_PEAK,
                            os.path.join(TOP, "python"), str(path)],
                           stdout=subprocess.PIPE, env=env, check=True)
        rows, kb = map(int, p.stdout.split())
        out[n] = (rows, kb)
    assert out[4][0] > 3.9 * out[1][0]
    assert out[4][1] <= out[1][1] * 1.05 + 1024, out


def test_bytes_not_utf8(tmp_path):
    """A comm that is not UTF-8 (the kernel keeps bytes) reads as \\xNN
    escapes, in every table and in str(ev)."""
    import lzma
    text = lzma.open(os.path.join(DATA, "lazy612-hogs.txt.xz")).read()
    path = tmp_path / "latin1.txt"
    path.write_bytes(text.replace(b"lazyload", b"lazy\xe9load"))
    t = lazytrace.open(str(path))
    comms = {r.comm for r in t.requests()}
    assert "lazy\\xe9load" in comms and "lazyload" not in comms
    assert {r.comm for r in t.tasks()} >= {"lazy\\xe9load", "sh"}
    lines = [str(ev) for ev in t.events() if ev.pid == 140]
    assert lines and all("lazy\\xe9load-140" in l for l in lines)
    assert len(t.requests()) == len(lazytrace.open(
        os.path.join(DATA, "lazy612-hogs.txt.xz")).requests())


def test_without_pandas_or_numpy(hogs_dat, monkeypatch):
    """Where pandas or NumPy is missing, a clear ImportError saying
    which Debian package to install; the rest works."""
    import sys
    t = lazytrace.open(hogs_dat)
    monkeypatch.setitem(sys.modules, "pandas", None)
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(ImportError, match="python3-pandas"):
        t.requests().to_pandas()
    with pytest.raises(ImportError, match="python3-numpy"):
        t.requests().column("latency_ns")
    with pytest.raises(ImportError, match="python3-numpy"):
        t.tasks().to_numpy()
    assert len(t.requests().to_records()) == 1012


@pytest.mark.parametrize("name", ["transitions", "requests", "switches",
                                  "tasks", "latency"])
def test_small_batches(hogs_dat, monkeypatch, name):
    """Rows copied a few at a time, the text buffer too small for one
    row at first (lt_table_fill() keeps that row and the module grows
    the buffer): the same rows as the default batches."""
    want = list(lazytrace.open(hogs_dat).table(name))
    monkeypatch.setattr(lazytrace, "_BATCH", 3)
    monkeypatch.setattr(lazytrace, "_STRS", 4)
    got = list(lazytrace.open(hogs_dat).table(name))
    assert len(want) > 3 and got == want


def test_meta_file_version_and_byte_order():
    """The header's own bytes (version after the 10-byte magic, then the
    endianness byte), read here independently of the library."""
    for rel_path in ("lazy612-hogs.dat", "old/bullseye510-allevents-i686.dat",
                     "stock/stock72-allevents-s390x.dat",
                     "lazy612-hogs.txt.xz"):
        path = os.path.join(DATA, rel_path)
        m = lazytrace.open(path).meta
        with open(path, "rb") as f:
            head = f.read(13)
        if head[:10] == b"\x17\x08Dtracing":
            assert m.file_version == int(head[10:11])
            assert m.byte_order == ("big" if head[12] else "little")
        else:
            assert (m.file_version, m.byte_order) == (None, None)
    assert lazytrace.open(os.path.join(
        DATA, "stock/stock72-allevents-s390x.dat")).meta.byte_order == "big"


@pytest.mark.parametrize("path", [
    "lazy612-hogs.dat", "stock/stock72-full.dat",
    "stock/stock72-lazy-nohrtick-stacks.dat", "vm/lazyvm-tc-stacks.dat"])
def test_preempts(path):
    """One preempts row per R+ switch, the cost from the task's next
    switch-in; the groups add up to the rows; the CLI's JSON is the
    module's."""
    path = os.path.join(DATA, path)
    t = lazytrace.open(path)
    assert "preempts" in lazytrace.STREAM_TABLES
    rows = t.preempts().rows()
    rplus = [s for s in t.switches().rows() if s.prev_state == "R+"]
    assert len(rows) == len(rplus) == t.summary.switches_preempted
    for r in rows:
        assert (r.back_ns is None) == (r.off_cpu_ns is None)
        if r.back_ns is not None:
            assert r.off_cpu_ns == r.back_ns - r.ts_ns >= 0
    j = cli_json("table", "preempts", path, "--json")["preempts"]
    assert_rows_equal(rows, j, t.preempts().columns, path)
    for by in ("task", "place", "cause", "site", "stack"):
        g = lazytrace.open(path, by=by).preempt_groups().rows()
        assert {x.by for x in g} == {by}
        assert sum(x.preemptions for x in g) == len(rows)
    fleet = lazytrace.open_many([path])
    assert [r[5:] for r in fleet.preempts().rows()] == rows
