# SPDX-License-Identifier: LGPL-2.1
"""lazytrace: lazy-preemption traces from Python.

    import lazytrace
    t = lazytrace.open("trace.dat")
    print(t.meta.kernel, t.meta.abi, t.meta.lazy)
    for r in t.requests():
        print(r.comm, r.pid, r.kind, r.latency_ns, r.upgrade_source)
    df = t.requests().to_pandas()

The tables are liblazytrace's (the same columns as `lazytrace table`, JSON
and CSV: docs/json.md); docs/python.md describes this module.
"""

import decimal
import errno
import functools
import gc
import itertools
import math
import numbers
import os
import re
import shutil
import sys
import tempfile
import weakref
from collections import namedtuple

from . import _lib
from ._lib import ffi, lib

__version__ = "0.1.0"

__all__ = [
    "open", "open_many", "live", "Trace", "Fleet", "Table", "Column", "Meta",
    "Error", "UsageError", "InputError", "OutOfMemoryError", "TABLES",
    "STREAM_TABLES",
]

_builtin_open = open


# ---- errors ----

class Error(Exception):
    """Every error of this module."""


class UsageError(Error, ValueError):
    """A bad option name or value (lt_run_status() LT_RUN_USAGE)."""


class InputError(Error):
    """The input cannot be read or is corrupt (LT_RUN_BAD_INPUT).

    .path is the input's path, .offset the byte offset of the corrupt
    data when the library names one (else None); the message says both.
    """

    def __init__(self, message, path=None, offset=None):
        super().__init__(message)
        self.path = path
        self.offset = offset


class OutOfMemoryError(Error, MemoryError):
    """The library ran out of memory (LT_RUN_NOMEM)."""


_OFFSET = re.compile(r"offset (\d+)")


def _text(p):
    return ffi.string(p).decode("utf-8", "backslashreplace") \
        if p != ffi.NULL else None


def _run_error(ptr, path):
    st = lib.lt_run_status(ptr)
    msg = _text(lib.lt_run_error(ptr)) or "lazytrace: unknown error"
    if st == _lib.RUN_USAGE:
        return UsageError(msg)
    if st == _lib.RUN_NOMEM:
        return OutOfMemoryError(msg)
    if st == _lib.RUN_BAD_INPUT:
        m = _OFFSET.search(msg)
        return InputError(msg, path, int(m.group(1)) if m else None)
    return Error(msg)


# ---- schema ----

Column = namedtuple("Column", "name type unit doc")
Column.__doc__ = """A table's column: name, type ("int", "uint", "double",
"string", "bool", "timestamp", "duration"), unit ("ns", "events",
"share" or "") and one line on its meaning."""

def _table_names():
    v, out = lib.lt_run_table_names(), []
    while v[len(out)] != ffi.NULL:
        out.append(_text(v[len(out)]))
    return tuple(out)


TABLES = _table_names()
# the tables whose rows are made as the input is read: one per run
STREAM_TABLES = ("events", "transitions", "requests", "switches", "episodes",
                 "preempts", "preempt_groups")
_ONE_ROW = ("meta", "summary")


class _Schema:
    """A table's columns (all, or those selected), their types, and the
    code that reads a row."""

    def __init__(self, name, select=None):
        run = lib.lt_run_new()
        if run == ffi.NULL:
            raise OutOfMemoryError("out of memory")
        try:
            t = lib.lt_run_table(run, name.encode())
            if t == ffi.NULL:
                raise UsageError("no table '%s' (tables: %s)"
                                 % (name, ", ".join(TABLES)))
            n = lib.lt_table_nr_columns(t)
            types = [lib.lt_table_column_type(t, i) for i in range(n)]
            columns = tuple(Column(
                _text(lib.lt_table_column_name(t, i)),
                _text(lib.lt_col_type_name(types[i])),
                _text(lib.lt_table_column_unit(t, i)),
                _text(lib.lt_table_column_doc(t, i))) for i in range(n))
        finally:
            lib.lt_run_free(run)
        names = [c.name for c in columns]
        if select is None:
            self.index = tuple(range(n))
        else:
            if isinstance(select, str):
                select = [select]
            bad = [c for c in select if c not in names]
            if bad or not select or len(set(select)) != len(select):
                raise UsageError("columns %r: table %s has %s" % (
                    list(select), name, ", ".join(names)))
            self.index = tuple(names.index(c) for c in select)
        self.name = name
        self.types = [types[i] for i in self.index]
        self.columns = tuple(columns[i] for i in self.index)
        self.names = tuple(c.name for c in self.columns)
        base = namedtuple(name.capitalize() + "Row", self.names)
        # ev["field"] and str(ev) are the whole events row's
        self.events = name == "events" and select is None
        self.row = _event_row(base) if self.events else base
        self.fetch = self._make_fetch(False)
        self.fetch_any = self._make_fetch(True)

    def _make_fetch(self, tolerant):
        """A function that reads the current row into a tuple: one
        getter call per cell, straight-line, and a null check only
        where the getter gave 0 or "" (what it gives for null). Text
        is UTF-8; the tolerant one keeps other bytes as \\xNN. For
        the events table, whose rows also read the event's fields."""
        get = {_lib.COL_INT: "I", _lib.COL_BOOL: "I", _lib.COL_UINT: "U",
               _lib.COL_TIMESTAMP: "U", _lib.COL_DURATION: "U",
               _lib.COL_DOUBLE: "D", _lib.COL_STRING: "S"}
        dec = "decode('utf-8', 'backslashreplace')" if tolerant \
            else "decode()"
        src = ["def fetch(t, _new=tuple.__new__, Row=Row, I=I, U=U, D=D, "
               "S=S, N=N, s=s):"]
        vs = []
        for ty, i in zip(self.types, self.index):
            v = "v%d" % i
            vs.append(v)
            if ty == _lib.COL_STRING:
                src.append(" %s = s(S(t, %d)).%s" % (v, i, dec))
            elif ty == _lib.COL_BOOL:
                src.append(" %s = I(t, %d) != 0" % (v, i))
            else:
                src.append(" %s = %s(t, %d)" % (v, get[ty], i))
            src.append(" if not %s and N(t, %d): %s = None" % (v, i, v))
        src.append(" return _new(Row, (%s,))" % ", ".join(vs))
        env = {"Row": self.row, "I": lib.lt_table_int,
               "U": lib.lt_table_uint, "D": lib.lt_table_double,
               "S": lib.lt_table_string, "N": lib.lt_table_null,
               "s": ffi.string}
        exec("\n".join(src), env)
        return env["fetch"]

    def batches(self, t):
        """Every row left in table t, BATCH rows per library call
        (lt_table_fill()): each column of a batch becomes a list in C
        (memoryview.tolist(), one decode and split for all its text),
        and a row is one tuple of them; a batch is a list of rows. A
        call per cell, as fetch() does, costs several times more
        (bench/README.md). Returns lt_table_fill()'s last value."""
        n = len(self.index)
        size = _BATCH
        cols = ffi.new("unsigned int[]", self.index)
        cells = ffi.new("uint64_t[]", size * n)
        nulls = ffi.new("unsigned char[]", size * n)
        used = ffi.new("size_t *")
        slen = _STRS
        strs = ffi.new("char[]", slen)
        raw = memoryview(ffi.buffer(cells))
        views = {"q": raw.cast("q"), "Q": raw.cast("Q"), "d": raw.cast("d")}
        nbuf = ffi.buffer(nulls)
        kinds = [_BATCH_KIND[ty] for ty in self.types]
        nstr = kinds.count("s")
        make = functools.partial(tuple.__new__, self.row)
        while True:
            r = lib.lt_table_fill(t, cols, n, size, cells, nulls, strs, slen,
                                  used)
            if r <= 0:
                if r < 0 and ffi.errno == errno.ENOSPC and slen < 1 << 30:
                    slen *= 4	# one row's text is longer than the buffer
                    strs = ffi.new("char[]", slen)
                    continue
                return r
            text = ffi.buffer(strs, used[0])[:].decode(
                "utf-8", "backslashreplace").split("\0") if nstr else ()
            out, j = [], 0
            for k, kind in enumerate(kinds):
                at = k * size
                if kind == "s":
                    v = text[j:r * nstr:nstr]
                    j += 1
                elif kind == "b":
                    v = list(map(bool, views["q"][at:at + r].tolist()))
                else:
                    v = views[kind][at:at + r].tolist()
                nl = nbuf[at:at + r]
                nn = nl.count(1)
                if nn == r:
                    v = [None] * r
                elif nn * 8 < r:
                    for m in _ONE.finditer(nl):
                        v[m.start()] = None
                elif nn:
                    v = [None if z else x for x, z in zip(v, nl)]
                out.append(v)
            # a collection every 700 new tuples would visit each batch
            # several times: one pass per batch, when it is made
            was = gc.isenabled()
            gc.disable()
            try:
                rows = list(map(make, zip(*out)))
            finally:
                if was:
                    gc.enable()
            yield rows


# rows per lt_table_fill() call, its first text buffer (it grows when a
# row's text alone needs more), and how each column type is read
_BATCH = 1024
_STRS = 1 << 16
_ONE = re.compile(b"\x01")
_BATCH_KIND = {_lib.COL_INT: "q", _lib.COL_BOOL: "b", _lib.COL_UINT: "Q",
               _lib.COL_TIMESTAMP: "Q", _lib.COL_DURATION: "Q",
               _lib.COL_DOUBLE: "d", _lib.COL_STRING: "s"}


_schemas = {}


def _schema(name, select=None):
    key = (name, None if select is None else tuple(
        [select] if isinstance(select, str) else select))
    s = _schemas.get(key)
    if s is None:
        s = _schemas[key] = _Schema(name, select)
    return s


# ---- events: ev["field"] and the kernel's line ----

class _Cursor:
    """An events iteration: the table while it is read, and what
    str(ev) needs of the trace."""
    __slots__ = ("t", "row", "four", "run")


def _named(system, name):
    """Whether the kernel prints "name: " before the info: as
    lt_event_named() decides it, from the columns the table gives."""
    if system == "syscalls" or name == "user_stack":
        return False
    return not (system == "ftrace" and name in ("function", "print",
                                                 "kernel_stack"))


def _four_columns(release):
    """Kernels before 5.13 print four flag columns (no migrate-disable
    count), as `lazytrace report` prints them."""
    m = re.match(r"(\d+)\.(\d+)", release or "")
    if not m:
        return False
    major, minor = int(m.group(1)), int(m.group(2))
    return major < 5 or (major == 5 and minor < 13)


def _event_row(base):
    def __getitem__(self, key):
        if key.__class__ is not str:
            return tuple.__getitem__(self, key)
        cur = self.__dict__.get("_cur")
        if cur is None or cur.row is not self:
            raise Error("ev[%r]: the event is gone: read its fields while "
                        "it is the current row of the iteration" % key)
        val = ffi.new("long long *")
        if lib.lt_table_event_field(cur.t, key.encode(), val):
            raise KeyError(key)
        return val[0]

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __str__(self):
        cur = self.__dict__.get("_cur")
        flags = self.flags[:4] if cur is not None and cur.four \
            else self.flags
        us = (self.ts_ns + 500) // 1000	# the kernel rounds: ns2usecs()
        line = "%16s-%-7d [%03d] %s %5d.%06d: " % (
            self.comm or "<...>", self.pid, self.cpu, flags,
            us // 1000000, us % 1000000)
        if _named(self.system, self.name):
            line += self.name + ": "
        return line + (self.info or "")

    # a dict per row, for _cur: tuples take no other attribute
    return type(base.__name__, (base,), {
        "__getitem__": __getitem__, "get": get, "__str__": __str__,
        # perf script's name for it
        "ts": property(lambda self: self.ts_ns, doc="ts_ns, as perf "
                       "script names it"),
        "__doc__": base.__doc__ + "; ev['field'] reads a numeric field "
        "of the current event; str(ev) is the kernel's line; ev.ts is "
        "ev.ts_ns"})


# ---- options ----

def _time_opt(name, v):
    """A time: int ns, float seconds (exact, rounded to the ns), or
    str as the command line takes it."""
    if v is None:
        return None
    if isinstance(v, bool):
        raise UsageError("%s: a time is int ns, float seconds or str, "
                         "not %r" % (name, v))
    if isinstance(v, numbers.Integral):
        if v < 0:
            raise UsageError("%s: %d ns is before the trace's clock "
                             "begins" % (name, v))
        return "%dns" % v
    if isinstance(v, float):
        if not math.isfinite(v) or v < 0:
            raise UsageError("%s: bad time %r" % (name, v))
        ns = (decimal.Decimal(repr(v)) * 1000000000).to_integral_value(
            decimal.ROUND_HALF_EVEN)
        return "%dns" % ns
    if isinstance(v, str):
        return v
    raise UsageError("%s: a time is int ns, float seconds or str, not %s"
                     % (name, type(v).__name__))


def _list_opt(name, v):
    """A list of CPUs or pids: int, iterable of int, or "0,2-3"."""
    if v is None:
        return None
    if isinstance(v, str):
        if not v:
            raise UsageError("%s: an empty list selects nothing" % name)
        return v
    if isinstance(v, bool):
        raise UsageError("%s: not a list: %r" % (name, v))
    if isinstance(v, numbers.Integral):
        return str(int(v))
    try:
        items = [int(x) if isinstance(x, numbers.Integral) and
                 not isinstance(x, bool) else None for x in v]
    except TypeError:
        raise UsageError("%s: int, list of int or str, not %s"
                         % (name, type(v).__name__)) from None
    if None in items:
        raise UsageError("%s: not a list of int: %r" % (name, v))
    if not items:
        raise UsageError("%s: an empty list selects nothing" % name)
    return ",".join(map(str, items))


def _comm_opt(v):
    if v is None:
        return None
    if isinstance(v, str):
        return v
    v = list(v)
    for g in v:
        if not isinstance(g, str) or "," in g or not g:
            raise UsageError("comms: a list of globs without commas, "
                             "not %r" % (g,))
    if not v:
        raise UsageError("comms: an empty list selects nothing")
    return ",".join(v)


def _value_opt(name, v):
    if v is None:
        return None
    if isinstance(v, bool):
        return "1" if v else "0"
    if name == "tick":
        return _time_opt(name, v)
    if isinstance(v, (numbers.Integral, float)):
        return repr(v) if isinstance(v, float) else str(int(v))
    if isinstance(v, str):
        return v
    if name == "kind":
        return _comm_opt(v)
    raise UsageError("%s: bad value %r" % (name, v))


def _options(abi, cpus, pids, comms, start, end, analysis):
    opts = [("abi", abi if abi is None or isinstance(abi, str) else
             str(abi)),
            ("cpu", _list_opt("cpus", cpus)),
            ("pid", _list_opt("pids", pids)),
            ("comm", _comm_opt(comms)),
            ("from", _time_opt("start", start)),
            ("to", _time_opt("end", end))]
    for k, v in analysis.items():
        name = k.replace("_", "-")
        if name == "input":
            raise UsageError("input: give the path as open()'s first "
                             "argument")
        opts.append((name, _value_opt(k, v)))
    return [(k.encode(), v.encode()) for k, v in opts if v is not None]


# ---- runs ----

class _Run:
    """One lt_run: freed when the last reference goes."""
    __slots__ = ("ptr", "path", "__weakref__")

    def __init__(self, path, opts):
        p = lib.lt_run_new()
        if p == ffi.NULL:
            raise OutOfMemoryError("lazytrace: out of memory")
        self.ptr = ffi.gc(p, lib.lt_run_free)
        self.path = path
        if lib.lt_run_set(p, b"input", os.fsencode(path)):
            raise self.error()
        for k, v in opts:
            if lib.lt_run_set(p, k, v):
                raise self.error()
        if lib.lt_run_open(p):
            raise self.error()

    def error(self):
        return _run_error(self.ptr, self.path)

    def table(self, name):
        t = lib.lt_run_table(self.ptr, name.encode())
        # an aggregate table whose reading failed comes back empty
        if t == ffi.NULL or lib.lt_run_status(self.ptr) != _lib.RUN_OK:
            raise self.error()
        return t

    def free(self):
        ffi.release(self.ptr)


def _rows(run, name, select=None):
    """Stream a table of a run: an iterator of tuples, one per row. An
    events row is made when it is reached (ev["field"] reads the
    library's current event); other rows come a batch at a time."""
    sch = _schema(name, select)
    t = run.table(name)
    if sch.events:
        return _event_rows(run, t, sch)
    return itertools.chain.from_iterable(_batches(run, t, sch))


def _batches(run, t, sch):
    if (yield from sch.batches(t)) < 0:
        raise run.error()


def _event_rows(run, t, sch):
    nxt = lib.lt_table_next
    fetch, fetch_any = sch.fetch, sch.fetch_any
    cur = _Cursor()
    cur.t = t
    cur.row = None
    kernel = lib.lt_reader_kernel(lib.lt_run_reader(run.ptr))
    cur.four = _four_columns(_text(kernel))
    try:
        while True:
            r = nxt(t)
            if r <= 0:
                break
            try:
                row = fetch(t)
            except UnicodeDecodeError:
                row = fetch_any(t)
            row._cur = cur
            cur.row = row
            yield row
        if r < 0:
            raise run.error()
    finally:
        # the rows outlive the run: str(ev) needs only cur.four
        cur.row = cur.t = None


# ---- Trace ----

class Meta(dict):
    """The meta and summary tables' one row: a dict whose keys are also
    attributes (t.meta.kernel, t.meta["kernel"])."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self):
        return list(self) + dir(dict)


def _input(src):
    """(path, temporary file or None) for open()'s first argument."""
    if isinstance(src, (str, bytes, os.PathLike)):
        path = os.fsdecode(src)
        if path != "-":
            return path, None
        src = sys.stdin.buffer
    elif not hasattr(src, "read"):
        raise UsageError("open(): a path or a file object, not %s"
                         % type(src).__name__)
    name = getattr(src, "name", None)
    if isinstance(name, (str, bytes)) and os.path.isfile(name):
        return os.fsdecode(name), None
    # a pipe or an in-memory file: every table reads the input again,
    # so it is kept in a temporary file for the Trace's life
    fd, tmp = tempfile.mkstemp(prefix="lazytrace-", suffix=".trace")
    with _builtin_open(fd, "wb") as out:
        while True:
            chunk = src.read(1 << 20)
            if not chunk:
                break
            out.write(chunk.encode() if isinstance(chunk, str) else chunk)
    return tmp, tmp


class Trace:
    """One trace file with its options; see lazytrace.open()."""

    def __init__(self, src, opts):
        self.path, tmp = _input(src)
        self._tmp = weakref.finalize(self, os.unlink, tmp) if tmp else None
        self._opts = opts
        self._meta = None
        self._agg_error = None
        self._agg = None
        # opened now, so that a missing or corrupt header raises here;
        # kept for the first table asked for (one reader at a time)
        try:
            self._spare = _Run(self.path, opts)
        except BaseException:
            self.close()
            raise

    def __repr__(self):
        return "<lazytrace.Trace %r>" % self.path

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Free the aggregate run and any temporary copy of the input.
        Tables already made keep what they need."""
        self._agg = self._spare = None
        if self._tmp is not None:
            self._tmp()

    def _run(self):
        run, self._spare = getattr(self, "_spare", None), None
        return run if run is not None else _Run(self.path, self._opts)

    def _aggregate(self, name, select=None):
        """Rows of a table that describes the whole input, from the one
        run every such table shares (read once)."""
        if self._agg_error is not None:
            raise self._agg_error
        if self._agg is None:
            self._agg = self._run()
        try:
            return list(_rows(self._agg, name, select))
        except Error as e:
            self._agg_error = e
            raise

    @property
    def meta(self):
        """The meta and summary tables' row: release, preemption model,
        HZ, ABI and why, tick, request source, CPUs, first/last time,
        lost events, and the summary's counts."""
        if self._meta is None:
            m = Meta(zip(_schema("meta").names, self._aggregate("meta")[0]))
            for k, v in zip(_schema("summary").names,
                            self._aggregate("summary")[0]):
                m.setdefault(k, v)
            self._meta = m
        return self._meta

    @property
    def summary(self):
        """The summary table's row alone, as a Meta."""
        return Meta(zip(_schema("summary").names,
                        self._aggregate("summary")[0]))

    def table(self, name, columns=None):
        """Any of the library's tables by name (TABLES); columns: only
        these, in this order (fewer columns read faster)."""
        return Table(self, name, columns)

    def events(self, columns=None):
        """Every event (within cpus, start, end; comms and pids select
        rows): ts, cpu, pid, comm, name, flags, need_resched... ev["field"]
        reads a field of the current event, str(ev) is the kernel's line."""
        return Table(self, "events", columns)

    def transitions(self, columns=None):
        """Every change of the need-resched state, with its kind."""
        return Table(self, "transitions", columns)

    def requests(self, columns=None):
        """One row per request: who, when, how long, what upgraded it,
        how it ended."""
        return Table(self, "requests", columns)

    def switches(self, columns=None):
        """Every sched_switch."""
        return Table(self, "switches", columns)

    def tasks(self, columns=None):
        """One row per task, busiest first."""
        return Table(self, "tasks", columns)

    def hogs(self, columns=None):
        """The tasks named hogs, worst first."""
        return Table(self, "hogs", columns)

    def episodes(self, columns=None):
        """One row per hog episode, as hogs counts them: the task, the
        request's time, the last tick that found it pending, its pending
        time, upgrade and end, the call site where the trace has stacks."""
        return Table(self, "episodes", columns)

    def sites(self, columns=None):
        """The hogs' call sites (kernel stacks at ticks)."""
        return Table(self, "sites", columns)

    def stacks(self, columns=None):
        """The hogs' stacks."""
        return Table(self, "stacks", columns)

    def latency(self, columns=None):
        """Every latency distribution, all tasks and each."""
        return Table(self, "latency", columns)

    def lost(self, columns=None):
        """Lost events per CPU."""
        return Table(self, "lost", columns)

    def preempts(self, columns=None):
        """One row per involuntary preemption (R+ switch): where the task
        was, what forced it, how long the request waited, the site where
        the trace has a stack, and how long the task stayed off its CPU
        (None when it did not run again within the trace)."""
        return Table(self, "preempts", columns)

    def preempt_groups(self, columns=None):
        """The preemptions counted by task, place, cause, site and stack
        (the column by says which; open(..., by="place") keeps one)."""
        return Table(self, "preempt_groups", columns)

    def _stream(self, name, select=None):
        if name in STREAM_TABLES:
            return _rows(self._run(), name, select)
        return iter(self._aggregate(name, select))


def open(path_or_file, abi=None, cpus=None, pids=None, comms=None,
         start=None, end=None, **analysis_opts):
    """Open a trace: a trace.dat, the kernel's text (plain or gz, xz,
    zstd), a path-like, or a file object (its path if it has one, else
    its content, copied to a temporary file).

    abi: "auto" (None), "legacy", "mainline", "poc2023", "rt-lazy".
    cpus, pids: an int, an iterable of ints, or a list as text ("0,2-3").
        cpus cuts the input (as if only they were recorded); pids and
        comms select the rows of the tables with a task column.
    comms: a glob, "a*,b*", or a list of globs.
    start, end: the window, cut before the analysis: int = ns of the
        trace's clock, float = seconds (exact, rounded to the ns), str =
        as the command line's --from/--to ("7.25", "7250ms", "20us";
        six decimals, as printed, take their whole microsecond).
    analysis_opts: buffer (a trace.dat instance), hz, tick (as start),
        episode_ticks, hog_episodes, hog_pending_ticks, idle (bool),
        kind (transitions: a list of kinds, "served"), by (preempt_groups:
        task, place, cause, site or stack).

    Raises UsageError on a bad option, InputError when the input cannot
    be opened (its header is corrupt or missing).
    """
    return Trace(path_or_file, _options(abi, cpus, pids, comms, start,
                                        end, analysis_opts))


# ---- live ----

def _span(name, v):
    """A length of time for live(): seconds (int or float), or str as the
    command line takes it ("500ms", "2s", "1.5")."""
    if isinstance(v, bool) or not isinstance(v, (numbers.Real, str)):
        raise UsageError("%s: a length of time is seconds or str, not %r"
                         % (name, v))
    if isinstance(v, str):
        ns = ffi.new("uint64_t *")
        if lib.lt_time_parse(v.encode(), ns):
            raise UsageError("%s: bad time %r" % (name, v))
        return ns[0]
    if not math.isfinite(v) or v < 0:
        raise UsageError("%s: bad time %r" % (name, v))
    return int(decimal.Decimal(repr(float(v))) * 1000000000)


class _LiveDir:
    """The temporary directory of live()'s intervals: removed when the
    last interval read from it is gone."""

    def __init__(self):
        self.path = tempfile.mkdtemp(prefix="lazytrace-live-")
        self._rm = weakref.finalize(self, shutil.rmtree, self.path, True)


def _interval(path, opts, tmp):
    trace = Trace(path, opts)
    if tmp:
        trace._tmp = weakref.finalize(trace, os.unlink, path)
        trace._dir = tmp
    return trace


def live(interval=1.0, duration=None, abi=None, cpus=None, pids=None,
         comms=None, save=None, **analysis_opts):
    """Trace this machine and yield each interval as a Trace: its meta
    and every table, as open() gives them for a file (root and tracefs,
    as `lazytrace live`; the session records what the analysis needs).

    interval, duration: seconds, or str as the command line takes them
        ("500ms"); interval at least 10 ms; duration None: until the
        loop stops (break, or Ctrl-C: KeyboardInterrupt). Tracing stops
        when the generator is closed or garbage collected.
    save: a directory that keeps each interval as interval-N.dat; without
        it each interval's file is temporary and goes with its Trace.
    The other options are open()'s (start and end excepted). A request
    pending at an interval's end is truncated there, as live shows it.

    Raises UsageError on a bad option, InputError when tracing cannot
    start (not root, no tracefs: the message says what to do).
    """
    step = _span("interval", interval)
    if step < 10000000:
        raise UsageError("interval: at least 10ms, not %r" % (interval,))
    end = None if duration is None else _span("duration", duration)
    opts = _options(abi, cpus, pids, comms, None, None, analysis_opts)
    tmp = _LiveDir() if save is None else None
    where = tmp.path if tmp else os.fspath(save)
    if tmp is None:
        os.makedirs(where, exist_ok=True)
    p = lib.lt_run_new()
    if p == ffi.NULL:
        raise OutOfMemoryError("lazytrace: out of memory")
    run = ffi.gc(p, lib.lt_run_free)
    try:
        for k, v in opts + [(b"live", b"1"), (b"save", os.fsencode(where))]:
            if lib.lt_run_set(run, k, v):
                raise _run_error(run, "live")
        if lib.lt_run_open(run):
            raise _run_error(run, "live")
        n, spent = 0, 0
        while end is None or spent < end:
            ns = step if end is None else min(step, end - spent)
            r = lib.lt_run_interval(run, ns)
            if r < 0:
                raise _run_error(run, "live")
            spent += ns
            n += 1
            # not kept in this frame: a temporary file goes with its Trace
            yield _interval(os.path.join(where, "interval-%d.dat" % n),
                            opts, tmp)
            if r > 0:
                break	# a signal ended the wait: the caller's to handle
    finally:
        # stops tracing and removes the instance
        ffi.release(run)


# ---- Table ----

_NUMPY_HINT = ("lazytrace: %s needs NumPy (Debian: apt-get install "
               "python3-numpy)")
_PANDAS_HINT = ("lazytrace: to_pandas() needs pandas (Debian: apt-get "
                "install python3-pandas)")


class Table:
    """A table of a trace (or of many: open_many()).

    Iterating streams its rows (a fresh read of the input each time, until
    len() has kept them); each row is a named tuple of the columns.
    """

    def __init__(self, source, name, columns=None):
        self.name = name
        self._source = source
        self._select = columns
        self._schema = _schema(name, columns)
        self._rows = None

    @property
    def columns(self):
        """The columns: Column(name, type, unit, doc)."""
        return self._schema.columns

    @property
    def names(self):
        """The column names, in order."""
        return self._schema.names

    @property
    def Row(self):
        """The row class (a named tuple)."""
        return self._schema.row

    def __repr__(self):
        return "<lazytrace.Table %s of %r>" % (self.name, self._source)

    def __iter__(self):
        if self._rows is not None:
            return iter(self._rows)
        return itertools.chain.from_iterable(self._fresh())

    def _fresh(self):
        # list() asks len() after iter(): the rows len() kept are these
        yield self._rows if self._rows is not None else \
            self._source._stream(self.name, self._select)

    def __len__(self):
        return len(self.rows())

    def rows(self):
        """Every row in a list, read once and kept."""
        if self._rows is None:
            self._rows = list(self._source._stream(self.name,
                                                  self._select))
        return self._rows

    def _all(self):
        """Every row, kept only if len() kept them already."""
        return self._rows if self._rows is not None else \
            list(self._source._stream(self.name, self._select))

    def to_records(self):
        """A list of dicts, one per row."""
        names = self.names
        return [dict(zip(names, r)) for r in self._all()]

    def _columns(self, rows):
        n = len(self.names)
        return list(zip(*rows)) if rows else [()] * n

    def to_numpy(self):
        """A dict of NumPy arrays, one per column: int64 for integers,
        timestamps and durations (ns), float64, bool, object for text;
        a column with nulls is a numpy.ma masked array (NaN for float)."""
        try:
            import numpy
        except ImportError:
            raise ImportError(_NUMPY_HINT % "to_numpy()") from None
        cols = self._columns(self._all())
        return {c.name: _np_column(numpy, c.type, v)
                for c, v in zip(self.columns, cols)}

    def column(self, name):
        """One column as a NumPy array (see to_numpy())."""
        try:
            import numpy
        except ImportError:
            raise ImportError(_NUMPY_HINT % "column()") from None
        try:
            i = self.names.index(name)
        except ValueError:
            raise UsageError("table %s has no column %r" % (self.name, name)) \
                from None
        return _np_column(numpy, self.columns[i].type,
                          [r[i] for r in self._all()])

    def to_pandas(self):
        """A pandas DataFrame: int64 for integers, timestamps and
        durations (ns), nullable Int64 / boolean where a column has
        nulls, float64, bool, object for text."""
        try:
            import pandas
        except ImportError:
            raise ImportError(_PANDAS_HINT) from None
        import numpy
        rows = self._all()
        data = {}
        for c, v in zip(self.columns, self._columns(rows)):
            data[c.name] = _pd_column(pandas, numpy, c.type, v)
        return pandas.DataFrame(data, columns=list(self.names))

    def to_sql(self, conn, name=None, if_exists="fail"):
        """Write the rows into an sqlite3 connection's table NAME (the
        table's own name by default), in one transaction. if_exists:
        "fail", "replace" or "append". Returns the number of rows."""
        name = name or self.name
        q = '"%s"' % name.replace('"', '""')
        cols = ", ".join('"%s" %s' % (c.name, _SQL_TYPES[c.type])
                         for c in self.columns)
        marks = ", ".join("?" * len(self.names))
        count = [0]

        def counted():
            for r in self:
                count[0] += 1
                yield r

        if if_exists not in ("fail", "replace", "append"):
            raise UsageError("if_exists: fail, replace or append")
        try:
            if conn.isolation_level is None:
                conn.execute("BEGIN")
            if if_exists == "replace":
                conn.execute("DROP TABLE IF EXISTS %s" % q)
            conn.execute("CREATE TABLE %s%s (%s)" % (
                "IF NOT EXISTS " if if_exists == "append" else "", q, cols))
            conn.executemany("INSERT INTO %s VALUES (%s)" % (q, marks),
                             counted())
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        return count[0]


_SQL_TYPES = {"int": "INTEGER", "uint": "INTEGER", "bool": "INTEGER",
              "timestamp": "INTEGER", "duration": "INTEGER",
              "double": "REAL", "string": "TEXT"}
_INTEGER = ("int", "uint", "timestamp", "duration")


def _np_column(np, ty, v):
    if ty == "string":
        a = np.empty(len(v), dtype=object)
        a[:] = v
        return a
    nulls = None in v
    if ty == "double":
        return np.array([math.nan if x is None else x for x in v]
                        if nulls else v, dtype=np.float64)
    dt = np.bool_ if ty == "bool" else np.int64
    if not nulls:
        return np.array(v, dtype=dt)
    mask = np.fromiter((x is None for x in v), dtype=np.bool_, count=len(v))
    data = np.array([0 if x is None else x for x in v], dtype=dt)
    return np.ma.masked_array(data, mask=mask)


def _pd_column(pd, np, ty, v):
    if ty == "string":
        a = np.empty(len(v), dtype=object)
        a[:] = v
        return a
    if ty == "double":
        return np.array([math.nan if x is None else x for x in v],
                        dtype=np.float64)
    nulls = None in v
    if ty == "bool":
        return pd.array(v, dtype="boolean") if nulls else \
            np.array(v, dtype=np.bool_)
    if not nulls:
        return np.array(v, dtype=np.int64)
    return pd.array(v, dtype="Int64")


# ---- many traces ----

FLEET_META = ("kernel", "abi", "preempt", "hz")


class Fleet:
    """Many traces with the same options; see open_many()."""

    def __init__(self, traces):
        self.traces = traces

    def __repr__(self):
        return "<lazytrace.Fleet of %d traces>" % len(self.traces)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        for t in self.traces:
            t.close()

    @property
    def meta(self):
        """One row per trace: trace (its path), the meta columns and the
        summary's."""
        return _MetaTable(self)

    def table(self, name, columns=None):
        return _FleetTable(self, name, columns)

    def events(self, columns=None):
        return _FleetTable(self, "events", columns)

    def transitions(self, columns=None):
        return _FleetTable(self, "transitions", columns)

    def requests(self, columns=None):
        return _FleetTable(self, "requests", columns)

    def switches(self, columns=None):
        return _FleetTable(self, "switches", columns)

    def tasks(self, columns=None):
        return _FleetTable(self, "tasks", columns)

    def hogs(self, columns=None):
        return _FleetTable(self, "hogs", columns)

    def episodes(self, columns=None):
        return _FleetTable(self, "episodes", columns)

    def sites(self, columns=None):
        return _FleetTable(self, "sites", columns)

    def stacks(self, columns=None):
        return _FleetTable(self, "stacks", columns)

    def latency(self, columns=None):
        return _FleetTable(self, "latency", columns)

    def lost(self, columns=None):
        return _FleetTable(self, "lost", columns)

    def preempts(self, columns=None):
        return _FleetTable(self, "preempts", columns)

    def preempt_groups(self, columns=None):
        return _FleetTable(self, "preempt_groups", columns)


class _FleetSchema:
    def __init__(self, name, prefix, select=None):
        inner = _schema(name, select)
        meta = {c.name: c for c in _schema("meta").columns}
        head = [Column("trace", "string", "", "the trace's path")]
        head += [meta[k] for k in prefix]
        self.columns = tuple(head) + inner.columns
        self.names = tuple(c.name for c in self.columns)
        self.row = namedtuple(name.capitalize() + "FleetRow", self.names)


class _FleetTable(Table):
    """A table of every trace of a Fleet, with the trace's path and meta
    columns (kernel, abi, preempt, hz) first."""

    def __init__(self, fleet, name, columns=None):
        self.name = name
        self._source = fleet
        self._select = columns
        self._schema = _FleetSchema(name, FLEET_META, columns)
        self._rows = None

    def _fresh(self):
        yield self._rows if self._rows is not None else self._stream()

    def rows(self):
        if self._rows is None:
            self._rows = list(self._stream())
        return self._rows

    def _all(self):
        return self._rows if self._rows is not None else list(self._stream())

    def _stream(self):
        new, Row = tuple.__new__, self._schema.row
        for t in self._source.traces:
            m = t.meta
            head = (t.path,) + tuple(m[k] for k in FLEET_META)
            for r in t._stream(self.name, self._select):
                yield new(Row, head + r)


class _MetaTable(_FleetTable):
    def __init__(self, fleet):
        self.name = "meta"
        self._source = fleet
        cols = (Column("trace", "string", "", "the trace's path"),) + \
            _schema("meta").columns + _schema("summary").columns
        s = _FleetSchema.__new__(_FleetSchema)
        s.columns = cols
        s.names = tuple(c.name for c in cols)
        s.row = namedtuple("TraceRow", s.names)
        self._schema = s
        self._rows = None

    def _stream(self):
        for t in self._source.traces:
            m = t.meta
            yield self._schema.row(t.path, *(m[k] for k in
                                             self._schema.names[1:]))


def open_many(paths, abi=None, cpus=None, pids=None, comms=None, start=None,
              end=None, **analysis_opts):
    """Open many traces with the same options (those of open()): their
    tables are one table with the trace's path and its kernel, abi,
    preempt and hz first (open_many(paths).requests().to_pandas())."""
    opts = _options(abi, cpus, pids, comms, start, end, analysis_opts)
    traces = []
    try:
        for p in paths:
            traces.append(Trace(p, opts))
    except BaseException:
        for t in traces:
            t.close()
        raise
    return Fleet(traces)
