#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# record-stock.sh OUTDIR - remake the recordings of tests/data/stock in
# OUTDIR (NAME.txt.xz, NAME.lat.txt.xz, NAME.dat), as its README.md
# describes: three boots of Debian's 7.2 (amd64 lazy, amd64 full, arm64).
# Environment: BUILD, VMSTOCK_CACHE, KVER, LT_SECS as for vm-test-stock.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
dest=${1:?usage: record-stock.sh OUTDIR}
vm=$BUILD/vm-stock-rec
. "$here/stages.sh"

t=$(now)
amd64=$("$here/fetch.sh" amd64) && arm64=$("$here/fetch.sh" arm64) ||
	{ echo "record-stock: FAILED to download Debian's packages" >&2; exit 1; }
stage "download (cached)" "$t"
t=$(now)
mkdir -p "$BUILD" "$dest"
gcc -O2 -Wall -Wextra -static -o "$BUILD/lazyload" "$top/patches/vm/lazyload.c" || exit 1
"$here/mkinitramfs.sh" amd64 "$amd64" "$BUILD/stock-amd64.cpio.gz" "$top/lazytrace" "$BUILD/lazyload" || exit 1
"$here/mkinitramfs.sh" arm64 "$arm64" "$BUILD/stock-arm64.cpio.gz" || exit 1
stage "initramfs" "$t"
rm -rf "$vm"
t=$(now)
"$here/boot.sh" amd64 "$amd64" "$BUILD/stock-amd64.cpio.gz" "$vm/lazy" lazy \
	probe:on,rec:stock72-lazy-hrtick,all:stock72-allevents-x86,hrtick:off,stacks:stock72-lazy-nohrtick-stacks || exit 1
"$here/boot.sh" amd64 "$amd64" "$BUILD/stock-amd64.cpio.gz" "$vm/full" full \
	probe:on,rec:stock72-full || exit 1
"$here/boot.sh" arm64 "$arm64" "$BUILD/stock-arm64.cpio.gz" "$vm/arm64" lazy \
	all:stock72-allevents-arm64 || exit 1
stage "3 boots (qemu)" "$t"
t=$(now)
for d in "$vm"/*/; do
	for f in "$d"*.lat.txt; do
		[ -f "$f" ] || continue
		n=$(basename "$f" .lat.txt)
		xz -9 -c "$d$n.txt" > "$dest/$n.txt.xz"
		xz -9 -c "$d$n.lat.txt" > "$dest/$n.lat.txt.xz"
		cp "$d$n.dat" "$dest/"
		echo "$n: $(grep -m1 entries-in-buffer "$d$n.txt")"
	done
	grep -E 'pid|probe|trigger|function tracer' "$d/guest.log"
done
stage "compress" "$t"
