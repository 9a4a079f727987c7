#!/bin/sh
# Bad input: one line on stderr naming the file (and where), exit 2 (3
# for a trace.dat cut short in its data, read up to the cut), never
# a crash. Truncations and bit flips of real trace.dat files (versions 6
# and 7), empty files, text that is not a trace, random bytes.
. "$(dirname "$0")/lib.sh"

# check FILE [WHAT]: report must exit 0, 2 or 3 (a trace.dat cut short,
# read up to the cut); on 2 and 3, name FILE in one line.
check() {
	lt report -i "$1" > /dev/null 2> "$TMPDIR/err"
	rc=$?
	case $rc in
	0) ;;
	2|3)
		[ "$(wc -l < "$TMPDIR/err")" = 1 ] || fail "$1: not one line: $(cat "$TMPDIR/err")"
		grep -qF "$1" "$TMPDIR/err" || fail "$1: message does not name the file: $(cat "$TMPDIR/err")"
		[ $rc = 2 ] || grep -q 'truncated trace.dat: .* at offset [0-9]' "$TMPDIR/err" ||
			fail "$1: exit 3 without the truncation warning: $(cat "$TMPDIR/err")"
		;;
	*) fail "$1 (${2:-}): exit $rc: $(head -c 300 "$TMPDIR/err")" ;;
	esac
	return $rc
}

must_fail() {
	check "$@"
	[ $? = 2 ] || fail "$1 (${2:-}) was accepted"
}

: > "$TMPDIR/empty"
must_fail "$TMPDIR/empty" empty
grep -q 'empty input, not a trace' "$TMPDIR/err" || fail "empty file: $(cat "$TMPDIR/err")"
# Zero bytes are the same mistake from a device or a pipe.
must_fail /dev/null "/dev/null"
grep -q 'empty input, not a trace' "$TMPDIR/err" || fail "/dev/null: $(cat "$TMPDIR/err")"
expect_exit 2 lt report -i - < /dev/null > /dev/null 2> "$TMPDIR/err"
grep -q '<stdin>: empty input, not a trace' "$TMPDIR/err" || fail "empty stdin: $(cat "$TMPDIR/err")"
printf 'hello world\nthis is not a trace\n' > "$TMPDIR/prose.txt"
must_fail "$TMPDIR/prose.txt" prose
grep -q 'line 1 (offset 0): not a trace' "$TMPDIR/err" || fail "prose: $(cat "$TMPDIR/err")"
head -c 65536 /dev/urandom > "$TMPDIR/random.bin"
must_fail "$TMPDIR/random.bin" random
must_fail "$TMPDIR/does-not-exist" missing
grep -q 'No such file' "$TMPDIR/err" || fail "missing: $(cat "$TMPDIR/err")"
must_fail "$TMPDIR" directory
grep -q 'is a directory' "$TMPDIR/err" || fail "directory: $(cat "$TMPDIR/err")"

# The old PREEMPT_RT lazy text format is refused, not misread.
printf '# tracer: nop\n#                  _-----=> need-resched-lazy\n          sh-1       [000] d..2..   1.000000: sched_waking: comm=a pid=2 prio=120 target_cpu=000\n' > "$TMPDIR/rt.txt"
must_fail "$TMPDIR/rt.txt" "rt-lazy text"
grep -q 'not supported' "$TMPDIR/err" || fail "rt-lazy text: $(cat "$TMPDIR/err")"

# A text trace with garbage in the middle names the line.
k=$(kernel_text lazy612-hogs.txt.xz)
{ head -n 100 "$k"; echo 'garbage here'; tail -n 5 "$k"; } > "$TMPDIR/bad.txt"
must_fail "$TMPDIR/bad.txt" "garbage line"
grep -q 'line 101' "$TMPDIR/err" || fail "no line number: $(cat "$TMPDIR/err")"

# Truncated trace.dat, version 7 (compressed) and 6.
trace-cmd convert -i "$DATA/lazy612-hogs.dat" --file-version 6 \
	-o "$TMPDIR/v6.dat" > /dev/null 2>&1 || fail "trace-cmd convert"
lt report -i "$TMPDIR/v6.dat" | cmp - "$(lt report -i "$DATA/lazy612-hogs.dat" > "$TMPDIR/v7.out"; echo "$TMPDIR/v7.out")" ||
	fail "version 6 file reads differently"
for f in "$DATA/lazy612-hogs.dat" "$TMPDIR/v6.dat"; do
	size=$(stat -c %s "$f")
	for cut in 1 16 100 4096 65536 $((size / 3)) $((size / 2)) $((size - 4096)) $((size - 1)); do
		head -c $cut "$f" > "$TMPDIR/cut.dat"
		check "$TMPDIR/cut.dat" "truncated at $cut"
	done
done

# Bit flips, seeded so that a failure can be replayed.
for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	python3 "$TOOLS/flip-bits.py" "$TMPDIR/v6.dat" "$TMPDIR/flip.dat" $seed 20
	check "$TMPDIR/flip.dat" "v6 flip seed $seed"
done
echo "bad inputs handled"
