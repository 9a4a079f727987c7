#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# record --stop-above LAT: the recording stops a second after the first
# request that waited LAT or longer, long before -d, and names it; the
# file holds that very request (its requests table: the pid, the time it
# was seen, a wait of LAT or more). Eager requests here: this host has
# no lazy preemption; with CPU-bound loops on every CPU, a wakeup's eager
# request waits for the tick. None waits an hour: exit 1 and a note.
. "$(dirname "$0")/lib.sh"

need_tracefs
cd "$TMPDIR" || fail "no TMPDIR"
cpu_loops
start=$(date +%s)
lt record -o r.dat -d 30 --stop-above 500us --stop-kind eager 2> err.txt
st=$?
took=$(( $(date +%s) - start ))
[ $st = 0 ] || fail "record --stop-above exited $st: $(cat err.txt)"
[ $took -lt 20 ] || fail "record ran ${took}s: not stopped"
line=$(grep '^lazytrace record: an eager request of ' err.txt) ||
	fail "no request named: $(cat err.txt)"
echo "$line"
echo "$line" | grep -q "; kept in r.dat$" || fail "file not named: $line"
pid=$(echo "$line" | sed 's/.* request of \([0-9]*\) .*/\1/')
seen=$(echo "$line" | sed 's/.*(seen at \([0-9.]*\),.*/\1/')
lt table requests -i r.dat --csv > req.csv || fail "r.dat is unreadable"
python3 - req.csv "$pid" "$seen" <<'PY' || fail "r.dat lacks the request"
import csv, sys
pid, seen = sys.argv[2], float(sys.argv[3])
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["pid"] == pid and r["kind"] == "eager" and r["latency_ns"]
        and int(r["latency_ns"]) >= 500000
        and abs(int(r["seen_ns"]) / 1e9 - seen) < 2e-6]
assert rows, "no eager request of %s seen at %.6f waiting 500us or more" % (pid, seen)
PY
kill $loops 2> /dev/null
lt record -o none.dat -d 1 --stop-above 3600s --stop-kind any 2> err.txt
st=$?
[ $st = 1 ] || fail "no request over an hour: exit $st, want 1"
grep -q "^lazytrace record: note: no request (any) waited 3600000.000 ms or longer" err.txt ||
	fail "no note: $(cat err.txt)"
[ -s none.dat ] || fail "the recording was not kept"
lt record --stop-kind lazy -d 1 2> err.txt && fail "--stop-kind without --stop-above accepted"
grep -q "stop-kind is for --stop-above" err.txt || fail "$(cat err.txt)"
echo "ok: stopped after ${took}s on pid $pid's request"
