#!/bin/sh
# `lazytrace report` on each trace.dat prints what the kernel printed for
# the same buffer: the flag field on every event, whole lines on >= 99%.
. "$(dirname "$0")/lib.sh"

for n in $RECORDINGS; do
	k=$(kernel_text $n.txt.xz)
	lt report -i "$DATA/$n.dat" > "$TMPDIR/$n.out" || fail "report $n"
	python3 "$TOOLS/compare-report.py" --min 100 "$k" "$TMPDIR/$n.out" ||
		fail "$n: default format differs from the kernel"
	k=$(kernel_text $n.lat.txt.xz)
	lt report -l -i "$DATA/$n.dat" > "$TMPDIR/$n.lat.out" || fail "report -l $n"
	python3 "$TOOLS/compare-report.py" --latency --min 100 "$k" "$TMPDIR/$n.lat.out" ||
		fail "$n: latency format differs from the kernel"
done
# The lazy letters really are there (the test would be vacuous otherwise).
grep -q '^.\{32\}[BLbl]' "$TMPDIR/lazy612-hogs.out" || fail "no lazy letters in lazy612-hogs"
