#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# -j N (threads reading a trace.dat's chunks ahead of the decoding,
# report's parts, and an analysis' segments) changes nothing in the output: report, report -l, a cut window, stats --json,
# hogs --stacks and the requests table of every bundled recording are byte
# for byte those of -j1, as are the error of a chunk that does not
# decompress and the warning of a file cut short. strace, where installed,
# shows -j2 starts its worker, which opens a compressed file again to read
# its segments, and -j1 none.
. "$(dirname "$0")/lib.sh"

cd "$TMPDIR" || fail "cd"
n=0
for f in $(find "$DATA" -name '*.dat' | sort); do
	name=${f#"$DATA"/}
	first=$(lt table meta -i "$f" --csv | python3 -c '
import csv, sys
m = next(csv.DictReader(sys.stdin))
print(int(m["first_ns"]) / 1e9 + 0.2)')
	for cmd in "report" "report -l" "report --from $first --to $first" \
		   "stats --json" "hogs --stacks" "table requests --csv"; do
		# shellcheck disable=SC2086
		lt $cmd -j 1 -i "$f" > one.out 2>&1
		r1=$?
		for j in 2 3; do
			# shellcheck disable=SC2086
			lt $cmd -j $j -i "$f" > more.out 2>&1
			rj=$?
			[ "$r1" = "$rj" ] || fail "$name: '$cmd' exits $r1 with -j1, $rj with -j$j"
			cmp -s one.out more.out || fail "$name: '$cmd' differs with -j$j: $(diff one.out more.out | head -4)"
		done
	done
	[ -s one.out ] || fail "$name: no output"
	n=$((n + 1))
done
[ "$n" -ge 10 ] || fail "only $n recordings"
echo "$n recordings: the same output with -j1, -j2, -j3"

# same_output WHAT FILE CMD: CMD prints the same and exits the same (0,
# or 1: nothing found) with -j 1, 2, 3 and 5.
same_output() {
	# shellcheck disable=SC2086
	lt $3 -j 1 -i "$2" > one.out 2>&1
	r1=$?
	[ "$r1" -le 1 ] || fail "$1: '$3' exits $r1"
	for j in 2 3 5; do
		# shellcheck disable=SC2086
		lt $3 -j $j -i "$2" > more.out 2>&1
		[ $? = "$r1" ] || fail "$1: '$3' exits otherwise with -j$j"
		cmp -s one.out more.out || fail "$1: '$3' differs with -j$j: $(diff one.out more.out | head -4)"
	done
}

# The compressed recordings and their uncompressed copies (trace-cmd
# convert): their parts are segments in time, each reading every CPU
# from the chunk or block before its start; report's lines are the
# same, leaves of the graph and lost events included.
command -v trace-cmd > /dev/null || fail "trace-cmd is not installed (make deps)"
n=0
for f in "$DATA"/lazy612-*.dat "$DATA"/host618-hogs.dat \
	 "$DATA"/stock/stock72-allevents-x86.dat \
	 "$DATA"/stock/stock72-allevents-arm64.dat "$DATA"/old/*fgraph*.dat; do
	# (not s390x: convert writes a big-endian file's offsets in host order)
	name=${f#"$DATA"/}
	trace-cmd convert --file-version 6 -i "$f" -o v6.dat > /dev/null 2>&1 ||
		fail "$name: trace-cmd convert --file-version 6"
	for cmd in "report" "report -l" "report -t"; do
		same_output "$name" "$f" "$cmd"
		same_output "$name (v6)" v6.dat "$cmd"
	done
	# both are read in segments in time, the compressed ones with each
	# worker decompressing its own
	for cmd in "stats --json" "hogs --stacks" "table episodes --csv"; do
		same_output "$name" "$f" "$cmd"
		same_output "$name (v6)" v6.dat "$cmd"
	done
	n=$((n + 1))
done
echo "$n recordings and their uncompressed copies: the same report, stats and hogs with -j1, -j2, -j3, -j5"

# Times that go back inside a page (an absolute time stamp; pages still
# start in order, so the file opens): the records after it belong before
# cuts that threads read on either side of. A reader in parts or
# segments stops there, and one reader reads on: the same output.
trace-cmd convert --file-version 6 -i "$DATA/lazy612-hogs.dat" -o v6.dat \
	> /dev/null 2>&1 || fail "trace-cmd convert"
python3 "$TOOLS/back-in-time.py" v6.dat back.dat || fail "back-in-time.py"
lt report -j 1 -i v6.dat > one.out || fail "report"
lt report -j 1 -i back.dat > more.out || fail "report, back in time"
cmp -s one.out more.out && fail "the time stamp changes nothing"
for cmd in "report" "report -l" "stats --json" "hogs --stacks" \
	   "table requests --csv" "table episodes --csv"; do
	same_output "back in time" back.dat "$cmd"
done
echo "times back inside a page: the same report, stats, hogs and tables with -j1, -j2, -j3, -j5"

# same_error WHAT FILE CMD J...: CMD fails (exit 2) with -j 1, and with
# each -j J prints the same lines and the same error.
same_error() {
	what=$1 file=$2 cmd=$3
	shift 3
	# shellcheck disable=SC2086
	lt $cmd -j 1 -i "$file" > one.out 2> one.err
	r1=$?
	[ "$r1" = 2 ] || fail "$what: '$cmd' exits $r1, want 2: $(cat one.err)"
	for j in "$@"; do
		# shellcheck disable=SC2086
		lt $cmd -j "$j" -i "$file" > more.out 2> more.err
		rj=$?
		[ "$rj" = 2 ] || fail "$what: '$cmd -j$j' exits $rj: $(cat more.err)"
		cmp -s one.out more.out && cmp -s one.err more.err ||
			fail "$what: '$cmd' differs with -j$j ($(wc -l < one.out) and $(wc -l < more.out) lines)"
	done
}

# A page that fails its check as it is read, in the middle of an
# uncompressed file: the lines one reader prints before the error, the
# error and the exit code, whichever part meets the page first.
trace-cmd convert --file-version 6 -i "$DATA/lazy612-hogs.dat" -o v6.dat \
	> /dev/null 2>&1 || fail "trace-cmd convert"
found=
for pct in 50 60 70 75 80 85 90 95; do
	python3 - v6.dat bad6.dat "$pct" <<'PY' || fail "corrupting"
import sys
b = bytearray(open(sys.argv[1], "rb").read())
at = len(b) * int(sys.argv[3]) // 100 // 4096 * 4096
b[at + 8:at + 12] = b"\xff\x7f\x00\x00"	# the page's commit
open(sys.argv[2], "wb").write(b)
PY
	lt report -j 1 -i bad6.dat > one.out 2> one.err
	r1=$?
	[ "$r1" = 2 ] && [ -s one.out ] || continue
	found=$pct
	for cmd in "report" "report -l" "stats" "hogs"; do
		same_error "bad page at $pct %" bad6.dat "$cmd" 2 3
	done
done
[ -n "$found" ] || fail "no page fails mid-stream"
echo "bad pages read mid-stream: the same lines and error with -j2, -j3 ($(tail -1 one.err | cut -c1-60)...)"

# The environment default is the same as -j.
LAZYTRACE_JOBS=2 lt report -i "$DATA/lazy612-msg-full.dat" > env.out ||
	fail "LAZYTRACE_JOBS=2 report"
lt report -j 1 -i "$DATA/lazy612-msg-full.dat" > one.out || fail "report -j1"
cmp -s one.out env.out || fail "LAZYTRACE_JOBS=2 differs"

# A chunk that does not decompress, past each CPU's first: the same error
# (naming its offset) with the workers as without.
f=$DATA/lazy612-msg-full.dat
size=$(stat -c %s "$f")
cp "$f" bad.dat
python3 - bad.dat "$size" <<'PY' || fail "corrupting"
import sys
p, size = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read())
# zstd frames in the second half of the file: the CPU data, past the
# first chunks; garble the middle of one frame
magic = b"\x28\xb5\x2f\xfd"
at = b.find(magic, size // 2)
assert at > 0
for i in range(at + 40, at + 80):
    b[i] ^= 0x5a
open(p, "wb").write(b)
PY
# report's parts in time skip it when they look for their segments, and
# the part that reads it stops the merge: one reader's lines and error.
for cmd in "stats" "report" "report -l"; do
	same_error "corrupt chunk" bad.dat "$cmd" 2 3 5
done
echo "corrupt chunk: $(tail -1 one.err)"

# Cut short (version 6 keeps its data last; uncompressed pages): read up
# to the cut, the same warning and events either way.
f=$DATA/old/bullseye510-allevents-i686.dat
size=$(stat -c %s "$f")
head -c $((size * 3 / 4)) "$f" > cut.dat
lt report -j 1 -i cut.dat > one.out 2> one.err
r1=$?
lt report -j 2 -i cut.dat > more.out 2> more.err
r2=$?
[ "$r1" = "$r2" ] || fail "cut file: exit $r1 and $r2"
cmp -s one.out more.out && cmp -s one.err more.err ||
	fail "cut file: output differs with -j2"
[ -s one.out ] || fail "cut file: no event read"
echo "cut file: exit $r1, $(wc -l < one.out) events either way"

if command -v strace > /dev/null; then
	# threads only: LeakSanitizer clones its tracer without CLONE_THREAD
	threads() {
		strace -f -qq -e trace=clone,clone3 "$LAZYTRACE" stats "$@" \
			-i "$DATA/lazy612-msg-full.dat" 2>&1 > /dev/null |
			grep -c 'CLONE_THREAD'
	}
	[ "$(threads -j 2)" -ge 1 ] || fail "-j2 started no thread"
	[ "$(threads -j 1)" = 0 ] || fail "-j1 started a thread"
	echo "threads: -j2 starts its worker, -j1 none"
	# the file is compressed: the worker opens it to read segments of
	# its own, where a thread decompressing ahead would not
	opens() {
		strace -f -qq -e trace=openat "$LAZYTRACE" stats "$@" \
			-i "$DATA/lazy612-msg-full.dat" 2>&1 > /dev/null |
			grep -c 'lazy612-msg-full.dat'
	}
	[ "$(opens -j 2)" -gt "$(opens -j 1)" ] ||
		fail "-j2: no worker reads a compressed file's segments"
else
	echo "strace not installed: whether -j2 starts a thread is not checked"
fi
echo "ok"
