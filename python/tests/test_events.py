# SPDX-License-Identifier: GPL-2.0
"""Per-event scripting: str(ev) is the kernel's line (as `lazytrace
report` prints it, and as the kernel printed it for the same buffer),
ev["field"] reads the event's own fields, the need-resched booleans
follow the flags."""

import os
import subprocess

import pytest

from conftest import DATA, DATS, TOP, PYTHON, cli, rel, lazytrace

# the kernel's text of the same ring buffer (tests/data/README.md)
WITH_KERNEL_TEXT = ["lazy612-hogs", "host618-hogs", "lazy612-msg-lazy",
                    "lazy612-msg-full"]


def report_text(path):
    out = cli("report", "-i", path)[1]
    # lost-event markers are the reader's lines, not events
    return "".join(l for l in out.splitlines(True)
                   if not l.startswith("CPU:"))


@pytest.mark.parametrize("path", [p for p in DATS if "host618-allevents"
                                  not in p], ids=rel)
def test_str_is_report_line(path):
    want = report_text(path).splitlines(True)
    # an event's info may end in a newline or hold several lines (stacks)
    got = "".join(str(ev) + "\n" for ev in lazytrace.open(path).events()
                  ).splitlines(True)
    # report prints a function_graph call with nothing inside as one
    # line, "func();" (the run's graph-leaves option); events() has its entry
    # and its return, each its own row
    leaves = sum(1 for w in want if w.endswith("();\n"))
    assert len(got) == len(want) + leaves
    if leaves:
        rest = iter(got)
        missing = [w for w in want if not w.endswith("();\n")
                   and not any(g == w for g in rest)]
        assert not missing, "not in order in events(): %r" % missing[:3]
        return
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
    assert not bad, "%d lines differ, first: %r" % (len(bad), bad[:3])


@pytest.mark.parametrize("name", WITH_KERNEL_TEXT)
def test_str_is_kernel_line(name, tmp_path):
    """Against the kernel's own text, compared as t0001 compares report:
    every flag field, every whole line (tests/tools/compare-report.py)."""
    import lzma
    kernel = tmp_path / (name + ".txt")
    kernel.write_bytes(lzma.open(os.path.join(DATA, name + ".txt.xz"))
                       .read())
    mine = tmp_path / (name + ".py.out")
    with open(mine, "w") as f:
        for ev in lazytrace.open(os.path.join(DATA, name + ".dat")).events():
            f.write(str(ev) + "\n")
    p = subprocess.run([PYTHON, os.path.join(TOP, "tests", "tools",
                                             "compare-report.py"),
                        "--min", "100", str(kernel), str(mine)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert p.returncode == 0, p.stdout.decode()[-2000:]


BITS = {"B": (True, True, True), "N": (True, False, True),
        "L": (False, True, True), "b": (True, True, False),
        "n": (True, False, False), "p": (False, False, True),
        "l": (False, True, False), ".": (False, False, False)}


def test_fields_and_bits(hogs_dat):
    """ev["prev_pid"] of each sched_switch is the switches table's
    prev_pid; the booleans follow the kernel's letters."""
    t = lazytrace.open(hogs_dat)
    switches = [(s.ts_ns, s.cpu, s.prev_pid, s.next_pid)
                for s in t.switches()]
    seen = []
    letters = set()
    for ev in t.events():
        if ev.name == "sched_switch":
            seen.append((ev.ts, ev.cpu, ev["prev_pid"], ev["next_pid"]))
            assert ev.ts == ev.ts_ns
            assert ev.get("no_such_field") is None
            with pytest.raises(KeyError):
                ev["no_such_field"]
        letter = ev.flags[1]
        letters.add(letter)
        # docs/model.md §3: the letter from the eager, lazy, fold bits
        assert (ev.need_resched, ev.need_resched_lazy,
                ev.preempt_resched) == BITS[letter], letter
        assert ev.letter == letter
        assert ev[0] == ev.ts_ns and ev[-1] == ev.info
    assert seen == switches
    assert {"l", "b", "B", "N", "n", "."} <= letters
    with pytest.raises(lazytrace.Error):
        ev["prev_pid"]		# the iteration is over: the event is gone


def test_fields_of_text(hogs_dat):
    """The kernel's text has fields too: the same values as the .dat."""
    text = os.path.join(DATA, "lazy612-hogs.txt.xz")
    a = [ev["next_pid"] for ev in lazytrace.open(text).events()
         if ev.name == "sched_switch"]
    b = [ev["next_pid"] for ev in lazytrace.open(hogs_dat).events()
         if ev.name == "sched_switch"]
    assert a == b and len(a) > 1000


def test_kept_events_print(hogs_dat):
    """Events kept after the iteration still print the kernel's line."""
    t = lazytrace.open(hogs_dat)
    evs = list(t.events())
    assert "".join(str(e) + "\n" for e in evs[:50]) == \
        "".join(report_text(hogs_dat).splitlines(True)[:50])
