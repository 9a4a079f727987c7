#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# live --stop-above LAT: the run stops after the first interval in which a
# request waited LAT or longer, keeps that interval (and only it and the
# kernel's symbols beside it, kallsyms, without --save) and names the request; the kept file holds that very request in
# the library's requests table. Eager requests here: this host has no
# lazy preemption; with CPU-bound loops on every CPU, a wakeup's eager
# request waits for the tick. None waits an hour: exit 1, a note, no file.
. "$(dirname "$0")/lib.sh"

need_tracefs
cd "$TMPDIR" || fail "no TMPDIR"
cpu_loops
mkdir kept
cd kept || fail "cd kept"
lt live --interval 500ms -d 20 --rows 1 --stop-above 500us --stop-kind eager \
	> out.txt 2> err.txt
st=$?
[ $st = 0 ] || { cat err.txt; fail "live --stop-above exited $st"; }
line=$(grep '^lazytrace live: interval [0-9]*: an eager request of ' err.txt) ||
	fail "no request named: $(cat err.txt)"
echo "$line"
n=$(echo "$line" | sed 's/^lazytrace live: interval \([0-9]*\):.*/\1/')
pid=$(echo "$line" | sed 's/.* request of \([0-9]*\) .*/\1/')
[ "$(ls)" = "$(printf 'err.txt\ninterval-%s.dat\nkallsyms\nout.txt' "$n")" ] ||
	fail "kept files: $(ls | tr '\n' ' ') (want interval-$n.dat and its kallsyms alone)"
echo "$line" | grep -q "kept in ./interval-$n.dat$" || fail "file not named: $line"
[ "$(grep -c '^lazytrace live  interval' out.txt)" = "$n" ] ||
	fail "live went on after interval $n"
lt table requests -i "interval-$n.dat" --csv > req.csv || fail "the kept interval is unreadable"
python3 - req.csv "$pid" <<'PY' || fail "the kept interval lacks the request"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if r["pid"] == sys.argv[2] and r["kind"] == "eager" and r["latency_ns"]
        and int(r["latency_ns"]) >= 500000]
assert rows, "no eager request of %s waiting 500us or more" % sys.argv[2]
PY
cd .. || fail "cd .."

mkdir none
cd none || fail "cd none"
lt live --interval 500ms -d 1 --rows 1 --stop-above 3600s --stop-kind any > /dev/null 2> err.txt
st=$?
[ $st = 1 ] || fail "no request over an hour: exit $st, want 1"
grep -q "^lazytrace live: note: no request (any) waited 3600000.000 ms or longer" err.txt ||
	fail "no note: $(cat err.txt)"
[ -z "$(ls | grep -v err.txt)" ] || fail "files left: $(ls)"
cd .. || fail "cd .."
lt live --stop-kind lazy -d 1 2> err.txt && fail "--stop-kind without --stop-above accepted"
grep -q "stop-kind is for --stop-above" err.txt || fail "$(cat err.txt)"
echo "ok: stopped at interval $n on pid $pid's request"
