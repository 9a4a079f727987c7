#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs every unit test binary given as argument and every tests/t/t*.sh
# shell test against the real binary. Prints one line per test and a
# closing "N passed, N failed, N skipped" line; exits 1 on any failure.
#
# Environment: LAZYTRACE (binary), BUILD (build dir), LAZYTRACE_WRAP (a
# command to run the binary under, e.g. valgrind), T (a glob of shell tests).

top=$(cd "$(dirname "$0")/.." && pwd)
: "${LAZYTRACE:=$top/lazytrace}"
DATA=$top/tests/data
export LAZYTRACE DATA BUILD LAZYTRACE_WRAP
pass=0 fail=0 skip=0 failed=""
out=$top/tests/out
mkdir -p "$out"
# Tests may leave tables for the summary here (what still differs).
LT_TABLES=$out/tables
rm -rf "$LT_TABLES"
mkdir -p "$LT_TABLES"
export LT_TABLES

record() {	# name status seconds
	case $2 in
	0) pass=$((pass + 1)); echo "ok      $1 ($3 s)" ;;
	77) skip=$((skip + 1)); echo "skip    $1 ($(tail -n 1 "$out/$1.log"))" ;;
	*) fail=$((fail + 1)); failed="$failed $1"; echo "FAIL    $1 (see tests/out/$1.log)" ;;
	esac
}

for t in "$@"; do
	name=$(basename "$t")
	t0=$(date +%s)
	${LAZYTRACE_WRAP:-} "$t" >"$out/$name.log" 2>&1
	record "$name" $? $(($(date +%s) - t0))
done

# T: one or more globs ('t0*.sh t2*.sh'), each under tests/t/
for t in $(for g in ${T:-t*.sh}; do echo "$top/tests/t/"$g; done); do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	tmp=$(mktemp -d)
	t0=$(date +%s)
	TMPDIR=$tmp sh "$t" >"$out/$name.log" 2>&1
	st=$?
	# what a test leaves in its own directory is gone with it
	rm -rf "$tmp"
	record "$name" $st $(($(date +%s) - t0))
done

for f in "$LT_TABLES"/*.table; do
	[ -f "$f" ] && cat "$f"
done

for f in $failed; do
	echo "---- $f"
	tail -n 20 "$out/$f.log"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
