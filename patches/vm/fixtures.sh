#!/bin/bash
# fixtures.sh VMOUT DEST - copy the recordings of the last vm-test into
# the test data directory: kernel text xz-compressed, trace.dat as is.
set -euo pipefail
src=$1
dst=$2
[ -f "$src/check.log" ] || { echo "no vm-test output in $src; run make vm-test first" >&2; exit 1; }
mkdir -p "$dst"
for name in hogs hogs-eager msg-lazy msg-eager; do
	for f in $name.txt $name.lat.txt; do
		xz -9 -T1 -c "$src/$f" > "$dst/lazyvm-$f.xz"
	done
	cp "$src/$name.dat" "$dst/lazyvm-$name.dat"
done
cp "$src/guest.log" "$dst/lazyvm-guest.log"
sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' "$src/check.log" > "$dst/lazyvm-check.log"
du -ch "$dst"/lazyvm-* | tail -1
