#!/bin/sh
# tests/tools/published-compare.sh, the measurement run over the corpus of
# others' trace.dat files, on our own recordings: trace-cmd (an independent
# reader) must see the same events at the same times on the same CPUs and
# pids, and files lazytrace refuses must be reported, not abort the run.
. "$(dirname "$0")/lib.sh"

command -v trace-cmd >/dev/null || skip "trace-cmd not installed: it is the reference"

d=$TMPDIR/published
rm -rf "$d"
mkdir -p "$d"
ln -s "$DATA/lazy612-hogs.dat" "$DATA/host618-hogs.dat" "$d/"
printf 'not a trace\n' > "$d/junk.dat"
head -c 5000 "$DATA/lazy612-hogs.dat" > "$d/short.dat"

"$TOOLS/published-compare.sh" "$d" "$LAZYTRACE" > "$TMPDIR/pc.out" ||
	fail "published-compare.sh exited $?"
cat "$TMPDIR/pc.out"
[ "$(wc -l < "$TMPDIR/pc.out")" = 4 ] || fail "want one line per file"

for n in lazy612-hogs host618-hogs; do
	l=$(grep "^$n.dat " "$TMPDIR/pc.out") || fail "$n: no line"
	echo "$l" | grep -q ' open=yes ' || fail "$n: not opened"
	lt=$(echo "$l" | sed -n 's/.* lt=\([0-9]*\) tc=.*/\1/p')
	tc=$(echo "$l" | sed -n 's/.* tc=\([0-9]*\) .*/\1/p')
	[ -n "$lt" ] && [ "$lt" -gt 1000 ] || fail "$n: lazytrace events '$lt'"
	[ "$lt" = "$tc" ] || fail "$n: lazytrace $lt events, trace-cmd $tc"
	echo "$l" | grep -q ' base=100.0%$' ||
		fail "$n: times, CPUs or pids differ from trace-cmd"
done
# the flags are compared too: lazy letters must lower 'agree' only
grep '^lazy612-hogs.dat ' "$TMPDIR/pc.out" | grep -q ' agree=100.0%' &&
	fail "lazy612-hogs: no lazy letter seen by the flag comparison"

for n in junk short; do
	grep "^$n.dat " "$TMPDIR/pc.out" | grep -q " open=no(rc=2): .*$n.dat" ||
		fail "$n: refusal not reported with the file's name"
done
exit 0
