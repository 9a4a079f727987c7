#!/bin/bash
# fixtures.sh VMOUT DEST [SET...] - copy the recordings of the last vm-test
# into the test data directory: kernel text xz-compressed, trace.dat as
# is. SETs (default all three):
#   base       lazyvm-{hogs,hogs-eager,msg-lazy,msg-eager}, lazyvm-guest.log,
#              lazyvm-check.log
#   stacks     lazyvm-hogs-stacks.dat (lazytrace record with kernel stacks),
#              lazyvm-tc-stacks.dat (trace-cmd record -T) and trace-cmd's
#              report of it, lazyvm-stacks-guest.log, lazyvm-stacks-check.log
#   allevents  lazy612vm-allevents (every event)
# The logs of a partial copy go under the stacks names, so that the base
# set keeps the log of the run that made it.
set -euo pipefail
src=$1
dst=$2
shift 2
sets=${*:-base stacks allevents}
[ -f "$src/check.log" ] || { echo "no vm-test output in $src; run make vm-test first" >&2; exit 1; }
mkdir -p "$dst"
text() { # NAME DESTNAME
	for f in $1.txt $1.lat.txt; do
		xz -9 -T1 -c "$src/$f" > "$dst/$2${f#"$1"}.xz"
	done
	cp "$src/$1.dat" "$dst/$2.dat"
}
log() { # GUEST CHECK
	cp "$src/guest.log" "$dst/$1"
	sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' "$src/check.log" > "$dst/$2"
}
for set in $sets; do
	case $set in
	base)
		for name in hogs hogs-eager msg-lazy msg-eager; do
			text $name lazyvm-$name
		done
		log lazyvm-guest.log lazyvm-check.log
		;;
	stacks)
		cp "$src/hogs-stacks.dat" "$dst/lazyvm-hogs-stacks.dat"
		cp "$src/tc-stacks.dat" "$dst/lazyvm-tc-stacks.dat"
		xz -9 -T1 -c "$src/tc-stacks.report.txt" > "$dst/lazyvm-tc-stacks.report.txt.xz"
		log lazyvm-stacks-guest.log lazyvm-stacks-check.log
		;;
	allevents)
		text allevents lazy612vm-allevents
		;;
	*) echo "fixtures.sh: unknown set $set" >&2; exit 2 ;;
	esac
done
du -ch "$dst"/lazyvm-* "$dst"/lazy612vm-* 2> /dev/null | tail -1
