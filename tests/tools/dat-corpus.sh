#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dat-corpus.sh [LAZYTRACE] DIR: read every DIR/*.dat with trace-cmd and
# lazytrace, one line per file: exit status and event lines of each, the
# print formats dropped, and lazytrace's first stderr line. Not a test
# (the files it is meant for are other people's and stay out of the
# repository): the numbers say how many files trace-cmd reads that
# lazytrace refuses, and how many lines differ in count.
set -u
lt=${LAZYTRACE:-$(dirname "$0")/../../lazytrace}
[ $# -ge 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
refused=0
total=0
printf 'file\ttc_rc\ttc_lines\tlt_rc\tlt_lines\tfailed_to_parse\tlt_stderr\n'
for f in "$dir"/*.dat; do
	total=$((total + 1))
	trace-cmd report -i "$f" > "$tmp/tc" 2> /dev/null
	tc=$?
	"$lt" report -i "$f" > "$tmp/lt" 2> "$tmp/err"
	rc=$?
	# trace-cmd prints "cpus=N" (and "version = 6") before the events
	tcn=$(grep -cv '^\(cpus=\|version = \)' "$tmp/tc")
	ltn=$(wc -l < "$tmp/lt")
	ftp=$(grep -c 'FAILED TO PARSE' "$tmp/lt")
	[ $tc = 0 ] && [ $rc = 2 ] && refused=$((refused + 1))
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$f")" $tc "$tcn" \
		$rc "$ltn" "$ftp" "$(head -n 1 "$tmp/err")"
done
echo "$refused of $total files refused where trace-cmd reads them"
