#!/bin/sh
# An event whose type the file has no format for is one event nobody can
# decode, not a corrupt file: trace-cmd reads such a file and prints
# "[UNKNOWN EVENT]" for it. The file here is Debian's stock 7.2 on s390x
# (big-endian, every event enabled) shrunk by tests/fuzz/mkseed.py to the
# formats the analysis knows, so most of its events lose their format.
# lazytrace must read it whole: every event of trace-cmd's, each unknown
# one named by the type id the original file's format gave its event.
. "$(dirname "$0")/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd not installed: it is the reference"

src=$DATA/stock/stock72-allevents-s390x.dat
trace-cmd convert -i "$src" --file-version 6 -o "$TMPDIR/v6.dat" \
	>/dev/null 2>&1 || fail "trace-cmd convert"
python3 "$TOP/tests/fuzz/mkseed.py" "$TMPDIR/v6.dat" "$TMPDIR/seed.dat" 1 ||
	fail "mkseed.py"
trace-cmd report -i "$TMPDIR/seed.dat" > "$TMPDIR/tc" 2>/dev/null ||
	fail "trace-cmd does not read the shrunk file"
lt report -i "$TMPDIR/seed.dat" > "$TMPDIR/lt" ||
	fail "lazytrace refuses what trace-cmd reads"
tc_unknown=$(grep -c 'UNKNOWN EVENT' "$TMPDIR/tc")
lt_unknown=$(grep -c ': \[UNKNOWN EVENT\]: type=' "$TMPDIR/lt")
[ "$tc_unknown" -gt 100 ] || fail "too few unknown events to test: $tc_unknown"
[ "$lt_unknown" = "$tc_unknown" ] ||
	fail "unknown events: lazytrace $lt_unknown, trace-cmd $tc_unknown"
# the known ones are trace-cmd's, in the same order at the same times
grep -v 'UNKNOWN EVENT' "$TMPDIR/tc" |
	sed -n 's/.*\] *\([0-9]*\.[0-9]*\): \([a-z_0-9]*\):.*/\1 \2/p' > "$TMPDIR/tc.known"
grep -v 'UNKNOWN EVENT' "$TMPDIR/lt" |
	sed -n 's/.*\] [^ ]* *\([0-9]*\.[0-9]*\): \([a-z_0-9]*\):.*/\1 \2/p' > "$TMPDIR/lt.known"
[ -s "$TMPDIR/tc.known" ] || fail "no known events"
cmp "$TMPDIR/tc.known" "$TMPDIR/lt.known" || fail "known events differ"
# each unknown event's type is the id of the event the original file
# holds at that time (a syscall's line is named sys_NAME, entry and exit)
trace-cmd dump --events -i "$src" 2>/dev/null |
	awk '/^name: /{n=$2} /^ID: /{print $2, n}' |
	sed 's/ sys_e[a-z]*_/ sys_/' | sort > "$TMPDIR/ids"
lt report -i "$src" |
	sed -n 's/.*\] [^ ]* *\([0-9]*\.[0-9]*\): \([a-z_0-9]*\)[:( ].*/\1 \2/p' |
	sort -u > "$TMPDIR/orig"
sed -n 's/.*\] [^ ]* *\([0-9]*\.[0-9]*\): \[UNKNOWN EVENT\]: type=\([0-9]*\)$/\2 \1/p' \
	"$TMPDIR/lt" | sort > "$TMPDIR/unk"
join "$TMPDIR/unk" "$TMPDIR/ids" | awk '{print $2, $3}' | sort -u > "$TMPDIR/named"
[ "$(wc -l < "$TMPDIR/named")" -ge "$(sort -u -k2 "$TMPDIR/unk" | wc -l)" ] ||
	fail "an unknown type is no event of the original file"
missing=$(comm -23 "$TMPDIR/named" "$TMPDIR/orig" | wc -l)
[ "$missing" = 0 ] ||
	fail "$missing unknown events are not the original's event at that time"
# the analysis reads the file too
lt stats -i "$TMPDIR/seed.dat" > /dev/null || fail "stats refuses the file"
exit 0
