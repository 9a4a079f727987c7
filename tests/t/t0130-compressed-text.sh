#!/bin/sh
# Kernel text compressed with xz, gzip or zstd reads as the kernel printed
# it, whatever the file is called (the first bytes say what it is), from a
# file or standard input; a corrupt or cut stream is one line naming the
# file and the offset, exit 2; memory does not grow with the input.
. "$(dirname "$0")/lib.sh"

for z in gzip zstd; do
	command -v $z >/dev/null || skip "$z not installed (make deps)"
done
n=lazy612-hogs
k=$(kernel_text $n.txt.xz)
grep -v '^#' "$k" > "$TMPDIR/body"
gzip -c "$k" > "$TMPDIR/t.gz"
zstd -q -c "$k" > "$TMPDIR/t.zst"
cp "$DATA/$n.txt.xz" "$TMPDIR/t.xz"
for f in t.gz t.zst t.xz; do
	lt report -i "$TMPDIR/$f" > "$TMPDIR/$f.out" || fail "report $f"
	cmp "$TMPDIR/body" "$TMPDIR/$f.out" || fail "$f: not the kernel's text"
	# by content, not by name
	cp "$TMPDIR/$f" "$TMPDIR/noname"
	lt report -i "$TMPDIR/noname" | cmp "$TMPDIR/body" - ||
		fail "$f renamed: not read by its content"
	lt report -i - < "$TMPDIR/$f" | cmp "$TMPDIR/body" - ||
		fail "$f on standard input"
	cat "$TMPDIR/$f" | lt report -i - | cmp "$TMPDIR/body" - ||
		fail "$f through a pipe"
done
# The analysis sees the same trace.
lt stats --json -i "$k" > "$TMPDIR/plain.json" || fail "stats on text"
lt stats --json -i "$TMPDIR/t.zst" > "$TMPDIR/zst.json" || fail "stats on zstd"
python3 - "$TMPDIR/plain.json" "$TMPDIR/zst.json" <<'PY' || fail "stats differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
a["meta"].pop("file"); b["meta"].pop("file")
assert a == b
PY

# Concatenated streams (cat a.gz b.gz) are one input.
cat "$TMPDIR/t.gz" "$TMPDIR/t.gz" > "$TMPDIR/two.gz"
lines=$(lt report -i "$TMPDIR/two.gz" | wc -l) || fail "two gzip members"
[ "$lines" = $((2 * $(wc -l < "$TMPDIR/body"))) ] ||
	fail "two gzip members: $lines lines"

# Corrupt and cut streams: exit 2, one line, the file and an offset.
bad() {	# file what
	lt report -i "$1" > /dev/null 2> "$TMPDIR/err"
	st=$?
	[ $st = 2 ] || fail "$2: exit $st, want 2"
	[ "$(wc -l < "$TMPDIR/err")" = 1 ] || fail "$2: not one line: $(cat "$TMPDIR/err")"
	grep -q "$1: .*offset [0-9]" "$TMPDIR/err" ||
		fail "$2: no file and offset: $(cat "$TMPDIR/err")"
}
for f in t.gz t.zst t.xz; do
	size=$(wc -c < "$TMPDIR/$f")
	head -c $((size / 2)) "$TMPDIR/$f" > "$TMPDIR/cut-$f"
	bad "$TMPDIR/cut-$f" "$f cut in half"
	cp "$TMPDIR/$f" "$TMPDIR/flip-$f"
	printf '\377\000\377\000\377\000\377\000' |
		dd of="$TMPDIR/flip-$f" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
	bad "$TMPDIR/flip-$f" "$f with 8 bytes overwritten"
done
printf '\037\213' > "$TMPDIR/magic.gz"
bad "$TMPDIR/magic.gz" "a gzip magic alone"
# A compressed trace.dat is not text: say so.
xz -c "$DATA/$n.dat" > "$TMPDIR/dat.xz"
expect_exit 2 lt report -i "$TMPDIR/dat.xz" 2> "$TMPDIR/err" > /dev/null
grep -q "compressed trace.dat" "$TMPDIR/err" || fail "dat.xz: $(cat "$TMPDIR/err")"
# An empty compressed file is an empty input.
gzip -c < /dev/null > "$TMPDIR/empty.gz"
expect_exit 2 lt report -i "$TMPDIR/empty.gz" 2> "$TMPDIR/err"
grep -q "empty input" "$TMPDIR/err" || fail "empty.gz: $(cat "$TMPDIR/err")"

# Memory: 16 copies of the trace (16 xz streams) peak as one does.
[ -x /usr/bin/time ] || skip "needs GNU time (/usr/bin/time) for the memory check"
if [ -n "${LAZYTRACE_WRAP:-}" ] || ldd "$LAZYTRACE" 2> /dev/null | grep -q libasan; then
	echo "memory not measured under a wrapper or AddressSanitizer"
	exit 0
fi
i=0
: > "$TMPDIR/big.xz"
while [ $i -lt 16 ]; do
	cat "$DATA/$n.txt.xz" >> "$TMPDIR/big.xz"
	i=$((i + 1))
done
rss() {	# file -> peak RSS in KiB
	/usr/bin/time -f "%M" -o "$TMPDIR/rss" "$LAZYTRACE" report -i "$1" \
		> /dev/null || fail "report $1"
	cat "$TMPDIR/rss"
}
one=$(rss "$TMPDIR/t.xz")
big=$(rss "$TMPDIR/big.xz")
echo "peak RSS: one copy ${one} KiB, 16 copies ${big} KiB"
[ "$big" -lt $((one + 1024)) ] || fail "memory grows with the input: $one KiB -> $big KiB"
exit 0
