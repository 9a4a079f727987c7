#!/bin/sh
# The kernel's text, read back through the text reader, prints exactly as
# the kernel printed it, and agrees with the trace.dat of the same buffer;
# text on stdin works too.
. "$(dirname "$0")/lib.sh"

for n in $RECORDINGS; do
	k=$(kernel_text $n.txt.xz)
	lt report -i "$k" > "$TMPDIR/$n.txt.out" || fail "report on text $n"
	grep -v '^#' "$k" > "$k.body"
	cmp "$k.body" "$TMPDIR/$n.txt.out" || fail "$n: text round trip differs"
	lt report -i "$DATA/$n.dat" > "$TMPDIR/$n.dat.out" || fail "report $n"
	python3 "$TOOLS/compare-report.py" "$TMPDIR/$n.txt.out" "$TMPDIR/$n.dat.out" ||
		fail "$n: text reader and trace.dat reader disagree"
done
xz -dc "$DATA/lazy612-hogs.txt.xz" | lt report -i - > "$TMPDIR/stdin.out" ||
	fail "report on stdin"
cmp "$TMPDIR/stdin.out" "$TMPDIR/lazy612-hogs.txt.out" || fail "stdin differs"
# Latency-format text: the flag columns survive the round trip.
k=$(kernel_text lazy612-hogs.lat.txt.xz)
lt report -l -i "$k" | cut -c1-25 > "$TMPDIR/lat.cols" || fail "report -l on text"
grep -v '^#' "$k" | cut -c1-25 | cmp - "$TMPDIR/lat.cols" || fail "latency columns differ"
