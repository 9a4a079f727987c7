#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The analysis does not depend on the reader: the trace.dat and the
# kernel's text output (default and latency format) of the same buffer
# give the same transitions (CPU, pid, kind, in order), the same switch
# table and the same hogs. Every command's exit status is checked before
# its output is compared, so two failures never compare as equal.
. "$(dirname "$0")/lib.sh"

# run OUT CMD...: CMD's stdout into OUT, its exit status into $st; 0 or
# 1 (nothing found) is fine, anything else fails the test. (Not to be
# called in $(...): fail must end the test, not a subshell.)
run() {
	out=$1
	shift
	lt "$@" > "$out" 2> "$TMPDIR/err"
	st=$?
	[ $st -le 1 ] || fail "'$*' exited $st: $(cat "$TMPDIR/err")"
}

switches() {	# stats --json: the summary's and each task's switch counts
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for r in [d["summary"]] + d["tasks"]:
    print(r["switches_preempted"], r["switches_yielded"], r["switches_blocked"])
' "$1" | sort
}

for rec in lazy612-hogs host618-hogs lazy612-msg-lazy; do
	run "$TMPDIR/dat.tl" timeline -i "$DATA/$rec.dat" --csv
	[ $st = 0 ] || fail "$rec: no transitions"
	cut -d, -f3,4,6 "$TMPDIR/dat.tl" > "$TMPDIR/dat.csv"
	[ "$(wc -l < "$TMPDIR/dat.csv")" -gt 1000 ] || fail "$rec: few transitions"
	run "$TMPDIR/hogs.dat" hogs -i "$DATA/$rec.dat" --csv
	hogs_dat=$st
	run "$TMPDIR/stats.dat" stats --json -i "$DATA/$rec.dat"
	for fmt in txt lat.txt; do
		[ -f "$DATA/$rec.$fmt.xz" ] || fail "$rec.$fmt.xz is missing"
		txt=$(kernel_text $rec.$fmt.xz)
		run "$TMPDIR/txt.tl" timeline -i "$txt" --csv
		cut -d, -f3,4,6 "$TMPDIR/txt.tl" > "$TMPDIR/txt.csv"
		cmp -s "$TMPDIR/dat.csv" "$TMPDIR/txt.csv" ||
			fail "$rec.$fmt: transitions differ from the trace.dat's"
		# the global and the per-task switch tables (in any order:
		# tasks are sorted by run time, which text rounds to us)
		switches "$TMPDIR/stats.dat" > "$TMPDIR/a"
		run "$TMPDIR/stats.txt" stats --json -i "$txt"
		switches "$TMPDIR/stats.txt" > "$TMPDIR/b"
		[ "$(wc -l < "$TMPDIR/a")" -gt 3 ] && cmp -s "$TMPDIR/a" "$TMPDIR/b" ||
			fail "$rec.$fmt: switch tables differ"
		run "$TMPDIR/hogs.txt" hogs -i "$txt" --csv
		[ $st = "$hogs_dat" ] ||
			fail "$rec.$fmt: hogs exits $st, trace.dat $hogs_dat"
		cut -d, -f2,3 "$TMPDIR/hogs.dat" > "$TMPDIR/a"
		cut -d, -f2,3 "$TMPDIR/hogs.txt" > "$TMPDIR/b"
		head -n 1 "$TMPDIR/a" | grep -q '^pid,comm$' || fail "$rec: hogs CSV header"
		cmp -s "$TMPDIR/a" "$TMPDIR/b" || fail "$rec.$fmt: hogs differ"
		echo "ok $rec.$fmt ($(($(wc -l < "$TMPDIR/a") - 1)) hogs)"
	done
done
# lazy612-hogs has its three hogs: the comparison above was not of nothing.
run "$TMPDIR/a" hogs -i "$DATA/lazy612-hogs.dat" --csv
[ "$(wc -l < "$TMPDIR/a")" = 4 ] || fail "lazy612-hogs: not three hogs"
exit 0
