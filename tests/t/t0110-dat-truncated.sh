#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A trace.dat cut short in its CPU data (a full disk, an upload limit) is
# read up to each CPU's last whole page: for cuts at page boundaries and
# inside pages of each CPU, report prints exactly what it prints of the
# same file whose CPU table says what the cut file still holds whole, and
# as many events as trace-cmd reads from that file; one warning line
# names the offset where the kept data ends, and the exit status is 3.
# Cut in its headers, or a version 7 file (its CPU table comes after the
# data), it is bad input: exit 2. And an empty TRACECLOCK option, as
# trace-cmd 2.9 writes it, reads as the file without it.
. "$(dirname "$0")/lib.sh"

command -v python3 > /dev/null || skip "needs python3"
W=$TMPDIR/work
mkdir -p "$W"
trace-cmd convert -i "$DATA/lazy612-hogs.dat" --file-version 6 \
	-o "$W/v6.dat" > /dev/null 2>&1 || fail "trace-cmd convert"
lt report -i "$W/v6.dat" > "$W/whole.out" || fail "the whole file"

# The CPU table of the converted file: two CPUs, data page after page.
set -- $(python3 -c '
import sys; sys.path.insert(0, sys.argv[1])
cut = __import__("cut-dat")
d = open(sys.argv[2], "rb").read()
print(" ".join("%d %d" % c for c in cut.cpu_table(d)[1]))' "$TOOLS" "$W/v6.dat")
[ $# = 4 ] || fail "want 2 CPUs with data: $*"
c0=$1 s0=$2 c1=$3 s1=$4
[ "$s0" -gt 16384 ] && [ "$s1" -gt 16384 ] || fail "too little data: $*"

n=0
for cut in $c0 $((c0 + 4096)) $((c0 + 4097)) $((c0 + 3 * 4096 - 1)) \
	   $((c0 + s0 - 4096)) $c1 $((c1 + 4096)) $((c1 + 2 * 4096 + 2000)) \
	   $((c1 + s1 - 1)); do
	end=$(python3 "$TOOLS/cut-dat.py" "$W/v6.dat" "$W/cut.dat" "$W/ref.dat" $cut) ||
		fail "cannot cut at $cut"
	lt report -i "$W/cut.dat" > "$W/cut.out" 2> "$W/err"
	rc=$?
	lt report -i "$W/ref.dat" > "$W/ref.out" 2> /dev/null
	# A cut before any data leaves no event: exit 1, after the warning.
	want=3
	[ -s "$W/ref.out" ] || want=1
	[ $rc = $want ] || fail "cut at $cut: exit $rc, not $want: $(cat "$W/err")"
	grep -q "^lazytrace [a-z]*: warning: $W/cut.dat: truncated trace.dat: its CPU data is cut short at offset $end;" "$W/err" ||
		fail "cut at $cut: want the cut at $end: $(cat "$W/err")"
	[ "$(grep -c . "$W/err")" = $((want == 3 ? 1 : 2)) ] ||
		fail "cut at $cut: $(cat "$W/err")"
	cmp -s "$W/cut.out" "$W/ref.out" ||
		fail "cut at $cut: report differs from the whole pages' ($(wc -l < "$W/cut.out") and $(wc -l < "$W/ref.out") lines)"
	# trace-cmd reads the whole pages' file: as many events
	tc=$(trace-cmd report -i "$W/ref.dat" 2> /dev/null | grep -vc '^cpus=')
	[ "$tc" = "$(wc -l < "$W/cut.out")" ] ||
		fail "cut at $cut: $(wc -l < "$W/cut.out") events, trace-cmd $tc"
	# fewer events than the whole file, more with every page kept
	[ "$(wc -l < "$W/cut.out")" -lt "$(wc -l < "$W/whole.out")" ] ||
		fail "cut at $cut: nothing lost"
	echo "ok cut at $cut: $(wc -l < "$W/cut.out") events, data kept up to $end"
	n=$((n + 1))
done
[ $n = 9 ] || fail "$n cuts"

# Cut in the headers (the event formats): bad input.
head -c 20000 "$W/v6.dat" > "$W/head.dat"
expect_exit 2 lt report -i "$W/head.dat" > /dev/null 2> "$W/err"
grep -q "offset [0-9]" "$W/err" || fail "headers cut: $(cat "$W/err")"
# Version 7 keeps its CPU table last: cut, it cannot be read.
size=$(stat -c %s "$DATA/lazy612-hogs.dat")
head -c $((size - 1000)) "$DATA/lazy612-hogs.dat" > "$W/v7cut.dat"
expect_exit 2 lt report -i "$W/v7cut.dat" > /dev/null 2> "$W/err"
grep -q "v7cut.dat: .*offset [0-9]" "$W/err" || fail "v7 cut: $(cat "$W/err")"

# An empty TRACECLOCK option (trace-cmd 2.9): the same report.
python3 "$TOOLS/cut-dat.py" empty-clock "$W/v6.dat" "$W/clock.dat" ||
	fail "cannot empty the clock option"
lt report -i "$W/clock.dat" > "$W/clock.out" 2> "$W/err" ||
	fail "empty TRACECLOCK: $(cat "$W/err")"
cmp -s "$W/clock.out" "$W/whole.out" || fail "empty TRACECLOCK reads differently"
echo "truncated files read up to their last whole pages"
