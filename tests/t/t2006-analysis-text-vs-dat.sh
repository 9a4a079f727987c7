#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The analysis does not depend on the reader: the trace.dat and the
# kernel's text output (default and latency format) of the same buffer
# give the same transitions (CPU, pid, kind, in order), the same switch
# table and the same hogs.
. "$(dirname "$0")/lib.sh"

for rec in lazy612-hogs host618-hogs lazy612-msg-lazy; do
	lt timeline -i "$DATA/$rec.dat" --csv | cut -d, -f3,4,6 > "$TMPDIR/dat.csv"
	[ "$(wc -l < "$TMPDIR/dat.csv")" -gt 1000 ] || fail "$rec: few transitions"
	for fmt in txt lat.txt; do
		[ -f "$DATA/$rec.$fmt.xz" ] || continue
		txt=$(kernel_text $rec.$fmt.xz)
		lt timeline -i "$txt" --csv | cut -d, -f3,4,6 > "$TMPDIR/txt.csv"
		cmp -s "$TMPDIR/dat.csv" "$TMPDIR/txt.csv" ||
			fail "$rec.$fmt: transitions differ from the trace.dat's"
		# the global and the per-task switch tables (in any order:
		# tasks are sorted by run time, which text rounds to us)
		lt stats --json -i "$DATA/$rec.dat" |
			grep -o '"switches":{[^}]*}' | sort > "$TMPDIR/a"
		lt stats --json -i "$txt" |
			grep -o '"switches":{[^}]*}' | sort > "$TMPDIR/b"
		[ -s "$TMPDIR/a" ] && cmp -s "$TMPDIR/a" "$TMPDIR/b" ||
			fail "$rec.$fmt: switch tables differ"
		lt hogs -i "$DATA/$rec.dat" --csv | cut -d, -f2,3 > "$TMPDIR/a"
		lt hogs -i "$txt" --csv | cut -d, -f2,3 > "$TMPDIR/b"
		cmp -s "$TMPDIR/a" "$TMPDIR/b" || fail "$rec.$fmt: hogs differ"
		echo "ok $rec.$fmt"
	done
done
exit 0
