#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The tick from its expiry grid: where a trace has timer:hrtimer_start of
# the tick's handler (all-events recordings; record and live enable it),
# tick_ns is the kernel's TICK_NSEC exactly, tick_source timer_grid, from
# the trace.dat and from the kernel's text alike; also on the recordings
# whose CPUs idled so much that the spacing of the tick's runs says 15.6
# ms (5.10 i686) or 6.0 ms (7.2 s390x) for a 4 ms tick. A trace without
# hrtimer_start keeps timer_function.
. "$(dirname "$0")/lib.sh"

cd "$TMPDIR" || fail "cd"
# all these kernels run at HZ=250 (their READMEs, setup lines)
for n in allevents/host618-allevents vm/lazy612vm-allevents \
	 stock/stock72-allevents-x86 stock/stock72-allevents-arm64 \
	 stock/stock72-allevents-s390x old/bullseye510-allevents-i686; do
	xz -dc "$DATA/$n.txt.xz" > text.txt || fail "xz $n"
	for f in "$DATA/$n.dat" text.txt; do
		lt table meta -i "$f" --csv > meta.csv || fail "table meta $f"
		python3 - meta.csv "$n" <<'PY' || fail "$n ($f)"
import csv, sys
m = next(csv.DictReader(open(sys.argv[1])))
assert m["tick_source"] == "timer_grid", m["tick_source"]
assert m["tick_ns"] == "4000000", m["tick_ns"]
PY
	done
	echo "$n: 4000000 ns from the grid"
done
lt table meta -i "$DATA/lazy612-hogs.dat" --csv > meta.csv || fail "table meta"
grep -q ',timer_function,' meta.csv || fail "lazy612-hogs (no hrtimer_start): $(cat meta.csv)"
echo "ok"
