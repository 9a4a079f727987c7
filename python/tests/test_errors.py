# SPDX-License-Identifier: GPL-2.0
"""Bad input raises InputError naming the file and the offset, bad
options UsageError; a corrupt file (the fuzzers' kept inputs, cuts and
bit flips of a real recording, damaged kernel text) never crashes the
interpreter, and the module refuses exactly what the CLI refuses, with
the CLI's message."""

import lzma
import os
import random
import subprocess

import pytest

from conftest import DATA, TOP, PYTHON, NOT_A_TRACE, cli, lazytrace

REGRESS = os.path.join(TOP, "tests", "fuzz", "regress")
WORKER = os.path.join(os.path.dirname(__file__), "corrupt_worker.py")


def corpus(w):
    """Cut, flipped and damaged copies of lazy612-hogs (as t7001 makes
    them, fewer), and the fuzzers' kept inputs."""
    rng = random.Random(8000)
    src = open(os.path.join(DATA, "lazy612-hogs.dat"), "rb").read()
    out = []

    def write(name, data):
        p = os.path.join(w, name)
        with open(p, "wb") as f:
            f.write(data)
        out.append(p)

    for n in list(range(4096, len(src), 4096 * 6)) + [1, 16, 4095, 4097]:
        write("cut%d.dat" % n, src[:n])
    v6 = os.path.join(w, "v6.dat")
    r = subprocess.run(["trace-cmd", "convert", "-i",
                        os.path.join(DATA, "lazy612-hogs.dat"),
                        "--file-version", "6", "-o", v6],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    srcs = [("v7", src)]
    if r.returncode == 0:
        srcs.append(("v6", open(v6, "rb").read()))
    else:
        print("trace-cmd convert failed: flips of the v7 file only")
    for tag, data in srcs:
        for i in range(24):
            pos = rng.randrange(min(len(data), 131072)) if i % 2 else \
                len(data) - 1 - rng.randrange(min(len(data), 262144))
            b = bytearray(data)
            b[pos] ^= 1 << rng.randrange(8)
            write("%s-flip%d-%d.dat" % (tag, i, pos), bytes(b))
    lines = lzma.open(os.path.join(DATA, "lazy612-hogs.txt.xz")
                      ).read().split(b"\n")
    body = [i for i, l in enumerate(lines) if l and not l.startswith(b"#")]
    for j in range(6):
        i = rng.choice(body)
        write("txt-cut%d" % j, b"\n".join(
            lines[:i] + [lines[i][:rng.randrange(len(lines[i]))]]))
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
        l = lines[:]
        l.insert(i, junk)
        write("txt-junk%d" % j, b"\n".join(l))
    write("garbage", bytes(rng.randrange(256) for _ in range(100000)))
    write("empty", b"")
    for d in ("dat", "text"):
        out += sorted(os.path.join(REGRESS, d, f)
                      for f in os.listdir(os.path.join(REGRESS, d)))
    return out


def test_corrupt_corpus(tmp_path):
    cases = corpus(str(tmp_path))
    p = subprocess.run([PYTHON, WORKER] + cases, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    assert p.returncode == 0, "the interpreter died (%d): %s" % (
        p.returncode, p.stderr.decode()[-2000:])
    results = p.stdout.decode("utf-8", "backslashreplace").splitlines()
    assert len(results) == len(cases)
    refused = 0
    for path, res in zip(cases, results):
        kind, _, rest = res.partition(" ")
        assert kind in ("ok", "input"), "%s: %s" % (path, res)
        # the CLI agrees, in the same words (stats: `table meta` exits 0
        # on a refused input, a CLI bug reported to the lead)
        rc, _, err = cli("stats", "-i", path, "--json", check=False)
        if kind == "input":
            refused += 1
            offset, _, msg = rest.partition(" ")
            assert rc == 2 and err.strip() == "lazytrace stats: " + msg, \
                "%s: module %r, CLI %d %r" % (path, msg, rc, err)
            assert path in msg
            # every refusal says where, but of an empty file
            assert offset != "-" or "empty input" in msg, msg
        else:
            assert rc == 0, "%s: the CLI refused it: %s" % (path, err)
    # the corpus does exercise refusal (and acceptance)
    assert 10 < refused < len(cases)


def test_input_errors(tmp_path):
    missing = str(tmp_path / "missing.dat")
    with pytest.raises(lazytrace.InputError) as e:
        lazytrace.open(missing)
    assert e.value.path == missing and missing in str(e.value)
    assert isinstance(e.value, lazytrace.Error)
    for path in NOT_A_TRACE:
        with pytest.raises(lazytrace.InputError) as e:
            lazytrace.open(path).meta	# compressed: known once read
        assert e.value.path == path and e.value.offset == 0
    src = open(os.path.join(DATA, "lazy612-hogs.dat"), "rb").read()
    cut = tmp_path / "cut.dat"
    cut.write_bytes(src[:20000])
    with pytest.raises(lazytrace.InputError) as e:
        lazytrace.open(str(cut))
    assert e.value.path == str(cut) and e.value.offset > 0
    # a refused input keeps refusing: no table comes back empty
    bad = os.path.join(REGRESS, "text", "hogs-tick-overflow")
    t = lazytrace.open(bad)		# bad on line 138: found reading
    for _ in range(2):
        with pytest.raises(lazytrace.InputError) as e:
            t.tasks().rows()
        assert e.value.offset == 7331 and "line 138" in str(e.value)
    with pytest.raises(lazytrace.InputError):
        list(t.requests())


def test_truncated_data_is_read(tmp_path):
    """A version 6 file cut short in its CPU data is read up to the cut,
    and meta says where (as lazytrace stats does)."""
    v6 = tmp_path / "v6.dat"
    subprocess.run(["trace-cmd", "convert", "-i",
                    os.path.join(DATA, "lazy612-hogs.dat"), "--file-version",
                    "6", "-o", str(v6)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    data = v6.read_bytes()
    cut = tmp_path / "cut.dat"
    cut.write_bytes(data[:len(data) - 5000])
    t = lazytrace.open(str(cut))
    assert 0 < t.meta.truncated_at < len(data) - 5000
    assert 0 < t.meta.events < 16934
    assert len(t.events()) == t.meta.events


@pytest.mark.parametrize("kw", [
    {"abi": "nonsense"}, {"cpus": 99}, {"cpus": "x"}, {"cpus": []},
    {"pids": [1, "2"]}, {"pids": True}, {"start": "yesterday"},
    {"start": -1}, {"start": float("nan")}, {"start": 9, "end": 8},
    {"comms": ["a,b"]}, {"no_such_option": 1}, {"hz": 0},
    {"hog_episodes": 0.5}, {"kind": "sideways"}, {"input": "x"},
])
def test_usage_errors(kw, hogs_dat):
    with pytest.raises(lazytrace.UsageError) as e:
        lazytrace.open(hogs_dat, **kw)
    assert isinstance(e.value, ValueError) and str(e.value)


def test_no_such_table(hogs_dat):
    with pytest.raises(lazytrace.UsageError):
        lazytrace.open(hogs_dat).table("nonsense")
