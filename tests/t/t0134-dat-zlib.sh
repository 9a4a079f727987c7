#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A version 7 trace.dat compressed with zlib (trace-cmd's other
# compression: `trace-cmd record/convert --compression zlib` where
# trace-cmd was built with zlib; Debian's has zstd only, and its
# libtracecmd refuses such a file's headers) reads exactly as the same
# recording uncompressed and compressed with zstd: report in both
# formats, stats. The zlib file is a trace-cmd v7 file recompressed by
# tests/tools/v7-recompress.py, whose zstd output trace-cmd itself reads
# as its own. A corrupt zlib chunk is bad input: one line, exit 2.
. "$(dirname "$0")/lib.sh"

command -v python3 > /dev/null || skip "needs python3"
command -v zstd > /dev/null || skip "zstd not installed (make deps)"
W=$TMPDIR/work
mkdir -p "$W"
R="python3 $TOOLS/v7-recompress.py"
src=$DATA/lazy612-msg-lazy.dat
for c in none zstd; do
	trace-cmd convert -i "$src" --file-version 7 --compression $c \
		-o "$W/$c.dat" > /dev/null 2>&1 || fail "trace-cmd convert $c"
done
$R "$W/zstd.dat" "$W/zlib.dat" zlib || fail "recompress zstd -> zlib"
$R "$W/none.dat" "$W/zlib2.dat" zlib || fail "recompress none -> zlib"
$R "$W/zstd.dat" "$W/rezstd.dat" zstd || fail "recompress zstd -> zstd"
# The script writes what trace-cmd writes: trace-cmd reads its zstd
# output as its own file.
trace-cmd report -i "$W/zstd.dat" > "$W/tc.zstd" 2>&1 || fail "trace-cmd report"
trace-cmd report -i "$W/rezstd.dat" 2>&1 | cmp - "$W/tc.zstd" ||
	fail "trace-cmd does not read the recompressed zstd file as its own"
# Not vacuous: the header names zlib, and the CPU data is in chunks.
head -c 40 "$W/zlib.dat" | grep -q zlib || fail "no zlib in the header"
[ "$(wc -l < "$W/tc.zstd")" -gt 80000 ] || fail "too few events"

lt report -i "$W/none.dat" > "$W/none.out" || fail "report uncompressed"
lt report -l -i "$W/none.dat" > "$W/none.lat" || fail "report -l uncompressed"
lt stats --json -i "$W/none.dat" > "$W/none.json" || fail "stats uncompressed"
for f in zstd zlib zlib2; do
	lt report -i "$W/$f.dat" > "$W/$f.out" || fail "report $f"
	cmp "$W/none.out" "$W/$f.out" || fail "$f: report differs"
	lt report -l -i "$W/$f.dat" | cmp "$W/none.lat" - ||
		fail "$f: report -l differs"
	lt stats --json -i "$W/$f.dat" > "$W/$f.json" || fail "stats $f"
	python3 - "$W/none.json" "$W/$f.json" <<'PY' || fail "$f: stats differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
a["meta"].pop("file"); b["meta"].pop("file")
assert a == b
PY
done

# section_at FILE ID: the offset of a version 7 file's first section ID
section_at() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
p = d.index(b"\0", 18) + 1
p = d.index(b"\0", p) + 1 + 8
while p < len(d):
    sid, fl, _, size = struct.unpack_from("<HHIQ", d, p)
    if sid == int(sys.argv[2]):
        sys.exit(print(p))
    p += 16 + size
sys.exit("no section " + sys.argv[2])
PY
}

# One byte of a compressed chunk of CPU data garbled: refused, one line.
at=$(section_at "$W/zlib.dat" 3) || fail "no BUFFER section"
python3 - "$W/zlib.dat" "$W/bad.dat" "$at" <<'PY' || fail "garble"
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
p = int(sys.argv[3])
# the flyrecord: the first CPU's data is the next page; its second chunk
q = (p + 16 + 4095) // 4096 * 4096 + 4
cs, = struct.unpack_from("<I", d, q)
q += 8 + cs
d[q + 8 + 100] ^= 0x55
open(sys.argv[2], "wb").write(d)
PY
lt report -i "$W/bad.dat" > /dev/null 2> "$W/bad.err"
rc=$?
[ $rc = 2 ] || fail "garbled chunk: exit $rc, want 2"
[ "$(wc -l < "$W/bad.err")" = 1 ] || fail "garbled chunk: not one line: $(cat "$W/bad.err")"
grep -q 'bad.dat' "$W/bad.err" || fail "garbled chunk: the file is not named"

# A kallsyms section that does not decompress (its zstd frame's magic
# zeroed) costs the names, not the file: the section is decompressed
# when a name is first needed. Every event prints; only the functions
# print as addresses, as trace-cmd prints them without kallsyms.
at=$(section_at "$W/zstd.dat" 19) || fail "no KALLSYMS section"
python3 - "$W/zstd.dat" "$W/badsyms.dat" "$at" <<'PY' || fail "garble kallsyms"
import sys
d = bytearray(open(sys.argv[1], "rb").read())
p = int(sys.argv[3])
# the section header (16 bytes), csize, usize, then the zstd frame
assert d[p + 2] & 1 and d[p + 24:p + 28] == b"\x28\xb5\x2f\xfd"
d[p + 24:p + 28] = bytes(4)
open(sys.argv[2], "wb").write(d)
PY
lt report -i "$W/zstd.dat" > "$W/syms.out" || fail "report zstd"
lt report -i "$W/badsyms.dat" > "$W/nosyms.out" ||
	fail "a kallsyms section that does not decompress refuses the file"
[ "$(wc -l < "$W/nosyms.out")" = "$(wc -l < "$W/syms.out")" ] ||
	fail "bad kallsyms: not every event printed"
diff "$W/syms.out" "$W/nosyms.out" > "$W/syms.diff"
n=$(grep -c '^>' "$W/syms.diff")
[ "$n" -gt 1000 ] || fail "bad kallsyms: only $n lines name no function"
grep '^>' "$W/syms.diff" | grep -v ': 0xffffffff\|function=0xffffffff' |
	head -3 | grep . && fail "bad kallsyms: lines differ in more than their functions"
grep '^<' "$W/syms.diff" | grep -q '0xffffffff' &&
	fail "intact kallsyms: a function printed as an address"
exit 0
