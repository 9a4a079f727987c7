#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Inputs the fuzzers once crashed on (tests/fuzz/regress/HARNESS/), kept
# as regression tests: each harness is built with the normal compiler and
# a small main (tests/fuzz/replay.c) against the library under test and
# replays them; the text and trace.dat ones also go through report, stats
# and hogs of the real binary (exit 0, 1 for nothing found, or 2 with a
# message). No clang needed.
. "$(dirname "$0")/lib.sh"

: "${BUILD:=$TOP/build}"
LIB=$BUILD/liblazytrace.a
[ -f "$LIB" ] || skip "no $LIB"
F=$TOP/tests/fuzz
CC=${CC:-cc}
# Under make asan the library is instrumented: so must the driver be.
SAN=
nm "$LIB" 2> /dev/null | grep -q __asan_ && SAN="-fsanitize=address,undefined"
CFLAGS="-O1 -g -std=gnu11 -D_GNU_SOURCE -I$TOP/libdecode/include $SAN \
	$(pkg-config --cflags libtracecmd libtraceevent libtracefs)"
LIBS="$(pkg-config --libs libtracecmd libtraceevent libtracefs) -lzstd -lz -llzma -lm -lpthread"

# The first lines of a kernel text keep the text harness honest even
# when no input has ever crashed it.
head -n 60 "$(kernel_text lazy612-hogs.txt.xz)" > "$TMPDIR/text-seed"
head -c 2000 /dev/zero | tr '\0' '\1' > "$TMPDIR/analysis-seed"

n=0
for h in text dat analysis; do
	$CC $CFLAGS -o "$TMPDIR/replay-$h" "$F/fuzz-$h.c" "$F/replay.c" \
		"$LIB" $LIBS || fail "cannot build the $h replay driver"
	set -- $(ls "$F/regress/$h/"* 2> /dev/null)
	[ -f "$TMPDIR/$h-seed" ] && set -- "$@" "$TMPDIR/$h-seed"
	[ $# -gt 0 ] || continue
	${LAZYTRACE_WRAP:-} "$TMPDIR/replay-$h" "$@" > "$TMPDIR/replay.log" 2>&1 ||
		{ tail -n 30 "$TMPDIR/replay.log"; fail "$h harness fails on a kept input"; }
	n=$((n + $#))
	[ $h = analysis ] && continue
	for f in "$@"; do
		for cmd in report stats hogs; do
			timeout 60 ${LAZYTRACE_WRAP:-} "$LAZYTRACE" $cmd -i "$f" \
				> /dev/null 2> "$TMPDIR/err"
			rc=$?
			case $rc in
			0|1) ;;
			2) grep -qF "$f" "$TMPDIR/err" ||
				fail "$cmd $f: message does not name the file: $(cat "$TMPDIR/err")" ;;
			*) fail "$cmd $f: exit $rc: $(head -c 300 "$TMPDIR/err")" ;;
			esac
		done
	done
done
# A %c of 0 prints a NUL, and the kernel's line goes on after it:
# report writes the whole payload, not the text up to the NUL.
"$LAZYTRACE" report -i "$F/regress/dat/payload-text-after-nul" 2> /dev/null |
	tr '\0' '@' > "$TMPDIR/nul.txt"
nul=$(grep -c 'prev_prio=@' "$TMPDIR/nul.txt")
whole=$(grep -c 'prev_prio=@ prev_state=[^ ]* ==> ' "$TMPDIR/nul.txt")
[ "$nul" -gt 0 ] && [ "$whole" = "$nul" ] ||
	fail "report: $whole of $nul lines go on past their %c NUL (none shown: cut at it)"
echo "$n inputs replayed; $nul lines printed whole past a NUL"
