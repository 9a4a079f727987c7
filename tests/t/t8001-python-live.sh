#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lazytrace.live() (the module over lt_run_interval()): the intervals
# asked for, in time order and not overlapping, each a trace whose
# tables the CLI reads the same from its saved file; a CPU-bound loop is
# in every interval and pids= keeps only it; the tracefs instance goes
# with the generator; bad options and no privilege are clear errors.
. "$(dirname "$0")/lib.sh"

need_tracefs
python_module || :
export PYTHONPATH=$TOP/python

cd "$TMPDIR" || fail "no TMPDIR"
sh -c 'while :; do :; done' &
loop=$!
trap 'kill $loop 2>/dev/null' EXIT
ls /sys/kernel/tracing/instances > before.txt

"$PY" - "$loop" "$TMPDIR/saved" > live.out 2> live.err <<'PY' || { cat live.err; fail "live() with save"; }
import sys, lazytrace
loop, save = int(sys.argv[1]), sys.argv[2]
prev_last = None
n = 0
for iv in lazytrace.live(interval=0.3, duration="1200ms", save=save):
    n += 1
    m = iv.meta
    assert iv.path == "%s/interval-%d.dat" % (save, n), iv.path
    assert m.events > 0, "interval %d: no events" % n
    if prev_last is not None:
        assert m.first_ns > prev_last, "interval %d overlaps the one before" % n
    prev_last = m.last_ns
    pids = {r.pid for r in iv.tasks()}
    assert loop in pids, "interval %d: no loop (pid %d)" % (n, loop)
    print(n, len(iv.requests()), len(iv.tasks()), m.events)
assert n == 4, "%d intervals for 1200ms in steps of 300ms" % n
PY
cat live.out
[ "$(wc -l < live.out)" = 4 ] || fail "want 4 intervals"
# What the module said of each interval is what the CLI reads in its file.
while read -r n req tasks events; do
	f=saved/interval-$n.dat
	[ -f "$f" ] || fail "$f not kept"
	r=$(lt table requests "$f" --csv | tail -n +2 | wc -l)
	t=$(lt table tasks "$f" --csv | tail -n +2 | wc -l)
	e=$(lt table meta "$f" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["meta"]["events"])')
	[ "$r $t $e" = "$req $tasks $events" ] ||
		fail "interval $n: module $req requests, $tasks tasks, $events events; CLI $r, $t, $e"
done < live.out

# pids=: only the loop's rows; a temporary file goes with its interval.
"$PY" - "$loop" > pid.out 2> pid.err <<'PY' || { cat pid.err; fail "live() with pids"; }
import os, sys, gc, lazytrace
loop = int(sys.argv[1])
gen = lazytrace.live(interval="200ms", pids=[loop])
iv = next(gen)
rows = iv.tasks().rows()
assert [r.pid for r in rows] == [loop], rows
path = iv.path
assert os.path.exists(path)
del iv, rows
gc.collect()
assert not os.path.exists(path), "%s outlived its interval" % path
gen.close()
print("ok")
PY
[ "$(cat pid.out)" = ok ] || fail "pids: $(cat pid.out pid.err)"
ls /sys/kernel/tracing/instances > after.txt
cmp -s before.txt after.txt || fail "instances left behind: $(diff before.txt after.txt)"

# Usage errors before anything is traced.
"$PY" -c '
import lazytrace
for kw in ({"interval": 0.001}, {"interval": "soon"}, {"cpus": "x"}):
    try:
        next(lazytrace.live(**kw))
    except lazytrace.UsageError as e:
        print("usage:", e)
    else:
        raise SystemExit("no UsageError for %r" % kw)
' > usage.out || fail "usage: $(cat usage.out)"
[ "$(grep -c '^usage: ' usage.out)" = 3 ] || fail "usage: $(cat usage.out)"

# Without privilege: one InputError that says what to do.
command -v setpriv > /dev/null || fail "no setpriv (util-linux)"
setpriv --reuid=65534 --regid=65534 --clear-groups "$PY" -c '
import lazytrace
try:
    next(lazytrace.live(interval=0.2))
except lazytrace.InputError as e:
    print("input:", e)
' > nobody.out 2>&1
grep -q '^input: .*root' nobody.out || fail "as nobody: $(cat nobody.out)"
cat nobody.out
echo "ok: $(wc -l < live.out) intervals, CLI agrees on each"
