# SPDX-License-Identifier: GPL-2.0
"""Shared fixtures: the tree, the CLI, the bundled recordings."""

import functools
import json
import os
import subprocess
import sys

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.environ.get("DATA") or os.path.join(TOP, "tests", "data")
LAZYTRACE = os.environ.get("LAZYTRACE") or os.path.join(TOP, "lazytrace")
PYTHON = sys.executable

sys.path.insert(0, os.path.join(TOP, "python"))
import lazytrace  # noqa: E402


def _find(pred):
    out = []
    for d, _, files in os.walk(DATA):
        out += [os.path.join(d, f) for f in files if pred(f)]
    return sorted(out)


# Every bundled recording: the trace.dat files and the kernel's texts
# (a trace-cmd report is not a trace: test_errors reads it as bad input;
# the function_graph tracer's own text is what t0135 compares report's
# graph with, not event lines).
DATS = _find(lambda f: f.endswith(".dat"))
TEXTS = _find(lambda f: f.endswith(".txt.xz") and ".report." not in f
              and "-fgraph-" not in f)
# LT_PY_QUICK=1 (t8000 under make asan, ~5x slower): a few recordings
# that cover the formats, ABIs and probe/flags; the plain build reads all.
QUICK = ("lazy612-hogs", "stock72-full", "bullseye510", "lazyvm-hogs.")
if os.environ.get("LT_PY_QUICK"):
    DATS = [p for p in DATS if any(q in p for q in QUICK)]
    TEXTS = [p for p in TEXTS if any(q in p for q in QUICK)]
RECORDINGS = DATS + TEXTS
NOT_A_TRACE = _find(lambda f: f.endswith(".report.txt.xz"))


def rel(path):
    return os.path.relpath(path, DATA)


def cli(*args, check=True):
    """Run the lazytrace binary: (exit status, stdout, stderr)."""
    p = subprocess.run([LAZYTRACE] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    out = p.stdout.decode("utf-8", "backslashreplace")
    err = p.stderr.decode("utf-8", "backslashreplace")
    if check and p.returncode != 0:
        raise AssertionError("lazytrace %s: exit %d: %s"
                             % (" ".join(args), p.returncode, err))
    return p.returncode, out, err


@functools.lru_cache(maxsize=None)
def cli_json(*args):
    return json.loads(cli(*args)[1])


def stats_json(path):
    return cli_json("stats", "-i", path, "--json")


def table_json(path, *names_and_opts):
    return cli_json("table", *names_and_opts, path, "--json")


@pytest.fixture(scope="session")
def hogs_dat():
    return os.path.join(DATA, "lazy612-hogs.dat")


def same_double(a, b):
    """JSON prints doubles as %.6g: equal to six significant digits."""
    if a is None or b is None:
        return a is b
    return abs(a - b) <= 1e-5 * max(abs(a), abs(b)) + 1e-12


def assert_rows_equal(mod_rows, json_rows, columns, what):
    """The module's rows (named tuples) equal the CLI's JSON rows."""
    assert len(mod_rows) == len(json_rows), \
        "%s: %d rows, the CLI %d" % (what, len(mod_rows), len(json_rows))
    for i, (m, j) in enumerate(zip(mod_rows, json_rows)):
        for c, v in zip(columns, m):
            w = j[c.name]
            if c.type == "double":
                ok = same_double(v, w)
            else:
                ok = v == w and type(v) is type(w) if v is not None \
                    else w is None
            assert ok, "%s row %d %s: module %r, CLI %r" % (
                what, i, c.name, v, w)
