# SPDX-License-Identifier: GPL-2.0
"""The examples answer their questions on the bundled recordings, and
the answers are the recordings' known facts (tests/data/README.md)."""

import os
import re
import sqlite3
import subprocess

import pytest

from conftest import DATA, DATS, TOP, PYTHON, lazytrace

EXAMPLES = os.path.join(TOP, "python", "examples")


def run(name, *args):
    env = dict(os.environ, PYTHONPATH=os.path.join(TOP, "python"))
    p = subprocess.run([PYTHON, os.path.join(EXAMPLES, name)] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, timeout=300)
    assert p.returncode == 0, p.stderr.decode()[-2000:]
    return p.stdout.decode()


def test_tick_waiters():
    out = run("tick_waiters.py", os.path.join(DATA, "lazy612-hogs.dat"),
              "3").splitlines()
    # the three in-kernel hogs (pids 142-144, sh) wait for the tick:
    # about one tick of 4 ms (HZ=250) each time
    top = [l.split() for l in out[1:]]
    assert sorted(int(r[1]) for r in top) == [142, 143, 144]
    assert {r[0] for r in top} == {"sh"}
    for r in top:
        assert int(r[2]) > 50 and 3000 < float(r[3]) < 4100


def test_latency_histogram(tmp_path):
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    png = tmp_path / "lat.png"
    out = run("latency_histogram.py", os.path.join(DATA, "lazy612-hogs.dat"),
              str(png), "3")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000
    assert re.search(r"3 tasks, \d+ requests", out)


def test_compare_kernels():
    out = run("compare_kernels.py",
              os.path.join(DATA, "lazy612-msg-full.dat"),
              os.path.join(DATA, "lazy612-msg-lazy.dat"))
    rows = {l[:28].strip(): l[28:].split() for l in out.splitlines()}
    # counted from the kernel's text, idle excluded (tests/data/README.md):
    # full 6,745 preempted and 372 yielded, lazy 326 and 7,908
    assert rows["switches preempted (no idle)"] == ["6745", "326"]
    assert rows["switches yielded (no idle)"] == ["372", "7908"]
    assert rows["lazy bit seen"] == ["False", "True"]


def test_fleet_sqlite(tmp_path):
    db = tmp_path / "fleet.db"
    out = run("fleet_sqlite.py", str(db), *DATS)
    assert "%d traces" % len(DATS) in out
    conn = sqlite3.connect(str(db))
    assert conn.execute("SELECT count(*) FROM traces").fetchone()[0] == \
        len(DATS)
    # every trace's requests, and only its own
    got = dict(conn.execute("SELECT trace, count(*) FROM requests "
                            "GROUP BY trace"))
    for p in DATS[:4]:
        assert got.get(p, 0) == len(lazytrace.open(p).requests())
    n = conn.execute("SELECT sum(lazy) FROM traces").fetchone()[0]
    assert n == sum(lazytrace.open(p).meta.lazy for p in DATS)
    # the query's longest lazy latency is the fleet's
    top = out.splitlines()[2].split()
    longest = conn.execute("SELECT max(latency_ns) FROM requests "
                           "WHERE kind = 'lazy'").fetchone()[0]
    assert abs(float(top[-2]) - longest / 1e3) < 0.1
