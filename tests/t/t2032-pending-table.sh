#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The pending table (what live shows per interval): the requests still
# open where the input ends. Cut with --to inside hog 142's lazy request
# and at the end of whole traces: its rows are the transitions the
# finish truncates at the end (one per CPU, its oldest request), their
# open_ns the input's last_ns minus since_ns, and a whole trace whose
# requests all ended has none.
. "$(dirname "$0")/lib.sh"

cd "$TMPDIR" || fail "no TMPDIR"
check() {	# check FILE [OPTIONS]: pending against the truncations at the end
	f=$1
	shift
	lt table pending "$@" --csv -i "$f" > pend.csv || fail "table pending $f"
	lt table transitions --kind truncated "$@" --csv -i "$f" > trunc.csv ||
		fail "table transitions $f"
	lt table meta "$@" --csv -i "$f" > meta.csv || fail "table meta $f"
	python3 - pend.csv trunc.csv meta.csv <<'PY' || fail "pending of $f $*"
import csv, sys
pend = list(csv.DictReader(open(sys.argv[1])))
meta = next(csv.DictReader(open(sys.argv[3])))
last = int(meta["last_ns"])
# the finish truncates each CPU's open requests at that CPU's last event;
# a truncation inside the trace (a missing switch) is followed by others
trunc = {}
for r in csv.DictReader(open(sys.argv[2])):
    trunc.setdefault(r["cpu"], []).append(r)
cpus = set()
for p in pend:
    assert p["cpu"] not in cpus, ("two rows for one CPU", p)
    cpus.add(p["cpu"])
    t = trunc[p["cpu"]][-1]
    for k in ("pid", "comm", "request", "since_ns"):
        assert p[k] == t[k], (k, p, t)
    assert int(p["open_ns"]) == last - int(p["since_ns"]), (p, last)
print(len(pend))
PY
}
n=$(check "$DATA/lazy612-hogs.dat" --to 7.613700) || exit 1
[ "$n" -ge 1 ] || fail "no request open at 7.613700: $n"
lt table pending --to 7.613700 --csv -i "$DATA/lazy612-hogs.dat" |
	grep -q '^142,sh,1,lazy,' || fail "hog 142's lazy request not pending at 7.613700"
n=$(check "$DATA/lazy612-hogs.dat") || exit 1
[ "$n" = 0 ] || fail "lazy612-hogs.dat ends with $n open requests, want none"
n=$(check "$DATA/stock/stock72-lazy-hrtick.dat") || exit 1
[ "$n" -ge 1 ] || fail "stock72-lazy-hrtick.dat: no open request at its end"
echo "ok: pending rows are the open requests at the end"
