#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A run with "feed" (the TUI's and the KernelShark plugin's way in): the
# events the caller takes with lt_run_next_event() are the analysis'
# input, and lt_run_next() hands out the rows each one made right after
# it, then NULL without reading on. The rows of transitions, requests and
# switches are the same, in the same order, as a run that reads its input
# itself; the tables read after the end (summary, tasks, hogs, pending)
# are the same too; with a cut, the events outside it are taken but not
# fed. Asking for another stream table, or for one after the first event,
# is a usage error.
. "$(dirname "$0")/lib.sh"

python_module || :

"$PY" - "$DATA/lazy612-hogs.dat" "$DATA/vm/lazyvm-hogs-stacks.dat" <<'PY' || fail "feed"
import os, sys
from cffi import FFI

ffi = FFI()
ffi.cdef("""
struct lt_run; struct lt_table;
struct lt_run *lt_run_new(void);
int lt_run_set(struct lt_run *run, const char *option, const char *value);
int lt_run_open(struct lt_run *run);
const char *lt_run_error(const struct lt_run *run);
const void *lt_run_next_event(struct lt_run *run);
struct lt_table *lt_run_table(struct lt_run *run, const char *name);
struct lt_table *lt_run_next(struct lt_run *run);
void lt_run_free(struct lt_run *run);
const char *lt_table_name(const struct lt_table *t);
unsigned int lt_table_nr_columns(const struct lt_table *t);
int lt_table_column(const struct lt_table *t, const char *name);
int lt_table_next(struct lt_table *t);
size_t lt_table_cell_text(const struct lt_table *t, unsigned int col,
			  char *buf, size_t len);
""")
lib = ffi.dlopen(os.environ["LAZYTRACE_LIB"])
buf = ffi.new("char[]", 4096)
STREAMS = ("transitions", "requests", "switches")
WHOLE = ("summary", "tasks", "hogs", "pending", "meta")


def err(run):
    e = lib.lt_run_error(run)
    return ffi.string(e).decode() if e else None


def row(t):
    cells = []
    for c in range(lib.lt_table_nr_columns(t)):
        lib.lt_table_cell_text(t, c, buf, 4096)
        cells.append(ffi.string(buf).decode())
    return (ffi.string(lib.lt_table_name(t)).decode(), tuple(cells))


def new_run(path, opts):
    run = lib.lt_run_new()
    for k, v in [("input", path)] + opts:
        assert lib.lt_run_set(run, k.encode(), v.encode()) == 0, err(run)
    assert lib.lt_run_open(run) == 0, err(run)
    return run


def whole(run):
    out = {}
    for name in WHOLE:
        t = lib.lt_run_table(run, name.encode())
        assert t != ffi.NULL, err(run)
        rows = []
        while lib.lt_table_next(t) > 0:
            rows.append(row(t))
        out[name] = rows
    return out


def reading(path, opts):
    run = new_run(path, opts)
    for name in STREAMS:
        assert lib.lt_run_table(run, name.encode()) != ffi.NULL, err(run)
    rows = []
    while True:
        t = lib.lt_run_next(run)
        if t == ffi.NULL:
            break
        rows.append(row(t))
    assert err(run) is None, err(run)
    res = whole(run)
    lib.lt_run_free(run)
    return rows, res


def feeding(path, opts):
    run = new_run(path, opts + [("feed", "1")])
    tables = {}
    for name in STREAMS:
        tables[name] = lib.lt_run_table(run, name.encode())
        assert tables[name] != ffi.NULL, err(run)
    ts_col = lib.lt_table_column(tables["transitions"], b"ts_ns")
    rows, events, before_end = [], 0, 0
    while True:
        ev = lib.lt_run_next_event(run)
        if ev == ffi.NULL:
            break
        events += 1
        ts = ffi.cast("uint64_t *", ev)[0]
        while True:
            t = lib.lt_run_next(run)
            if t == ffi.NULL:
                break
            r = row(t)
            # the rows this event made: none is later than it
            if r[0] == "transitions":
                assert int(r[1][ts_col]) <= ts, (r, ts)
            rows.append(r)
        before_end = len(rows)
        # taken: NULL again, and nothing read
        assert lib.lt_run_next(run) == ffi.NULL
    assert err(run) is None, err(run)
    # the end's rows: what the finish truncated
    while True:
        t = lib.lt_run_next(run)
        if t == ffi.NULL:
            break
        rows.append(row(t))
    res = whole(run)
    lib.lt_run_free(run)
    return rows, res, events, before_end


def events_of(path):
    run = new_run(path, [])
    n = 0
    while lib.lt_run_next_event(run) != ffi.NULL:
        n += 1
    lib.lt_run_free(run)
    return n


def span(path):
    run = new_run(path, [])
    t = lib.lt_run_table(run, b"meta")
    assert lib.lt_table_next(t) > 0, err(run)
    r = dict()
    for name in ("first_ns", "last_ns"):
        lib.lt_table_cell_text(t, lib.lt_table_column(t, name.encode()),
                               buf, 4096)
        r[name] = int(ffi.string(buf).decode()) / 1e9
    lib.lt_run_free(run)
    third = (r["last_ns"] - r["first_ns"]) / 3
    return ("%.6f" % (r["first_ns"] + third),
            "%.6f" % (r["last_ns"] - third))


for path in sys.argv[1:]:
    total = events_of(path)
    a, b = span(path)
    for opts in ([], [("cpu", "1")], [("from", a), ("to", b)],
                 [("comm", "sh")]):
        want, want_res = reading(path, opts)
        got, got_res, events, before_end = feeding(path, opts)
        what = "%s %s" % (os.path.basename(path), opts)
        # every event is taken, those the cut leaves out too
        assert events == total, (what, events, total)
        assert len(want) > 100, (what, len(want))
        assert got == want, (what, len(got), len(want),
                             next((i, a, b) for i, (a, b) in
                                  enumerate(zip(got, want)) if a != b))
        assert got_res == want_res, what
        if not opts:
            # the end truncates what was open (the pending table's)
            assert len(got) - before_end == len(got_res["pending"]), what

# with "feed", only the stream tables of the shared pass
run = new_run(sys.argv[1], [("feed", "1")])
assert lib.lt_run_table(run, b"events") == ffi.NULL
assert "feed" in err(run), err(run)
lib.lt_run_free(run)
# and before the first event: no table joins the pass after it
run = new_run(sys.argv[1], [("feed", "1")])
assert lib.lt_run_table(run, b"transitions") != ffi.NULL, err(run)
assert lib.lt_run_next_event(run) != ffi.NULL, err(run)
assert lib.lt_run_table(run, b"requests") == ffi.NULL
assert "feed" in err(run), err(run)
lib.lt_run_free(run)
PY
