#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# record-stock.sh [amd64|s390x] - bench/data/stock72-big.dat: about 600k
# events of hackbench recorded by lazytrace record in Debian's stock 7.2
# kernel (qemu TCG, 2 CPUs, preempt=lazy), with the kernel's whole
# kallsyms: the distribution-kernel trace of bench.sh's goals. With s390x,
# bench/data/stock72-big-s390x.dat: the same load and events recorded by
# trace-cmd in Debian's s390x 7.2 (big-endian; the guest has no lazytrace
# of its arch). Downloads the kernel as make vm-test-stock does (cached).
# BUILD, LAZYTRACE, BENCH_DATA as bench.sh.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
D=${BENCH_DATA:-$top/bench/data}
LAZYTRACE=${LAZYTRACE:-$top/lazytrace}
arch=${1:-amd64}
case $arch in
amd64)	name=stock72-big step=big ;;
s390x)	name=stock72-big-s390x step=bigtc ;;
*)	echo "usage: record-stock.sh [amd64|s390x]" >&2; exit 2 ;;
esac
initrd=$BUILD/bench-stock-$arch.cpio.gz
root=$("$top/tests/vm/fetch.sh" "$arch") || { echo "record-stock: no stock kernel" >&2; exit 2; }
mkdir -p "$BUILD"
if [ "$arch" = amd64 ]; then
	gcc -O2 -Wall -Wextra -static -o "$BUILD/lazyload" "$top/patches/vm/lazyload.c" || exit 2
	"$top/tests/vm/mkinitramfs.sh" amd64 "$root" "$initrd" "$LAZYTRACE" "$BUILD/lazyload" || exit 2
else
	"$top/tests/vm/mkinitramfs.sh" "$arch" "$root" "$initrd" || exit 2
fi
out=$BUILD/bench-stock-$arch
rm -rf "$out"
"$top/tests/vm/boot.sh" "$arch" "$root" "$initrd" "$out" lazy "$step:$name" ||
	{ echo "record-stock: the VM failed (console: $out/console.log)" >&2; exit 1; }
grep -q '^record exit 0' "$out/$name.log" ||
	{ echo "record-stock: the record failed: $(tail -n 3 "$out/$name.log")" >&2; exit 1; }
n=$("$LAZYTRACE" table meta --json -i "$out/$name.dat" |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["meta"]["events"])')
[ "${n:-0}" -gt 100000 ] ||
	{ echo "record-stock: $out/$name.dat holds ${n:-no} events: $(head -n 5 "$out/$name.log")" >&2; exit 1; }
mkdir -p "$D"
cp "$out/$name.dat" "$D/$name.dat"
echo "record-stock: $D/$name.dat, $("$LAZYTRACE" stats -i "$D/$name.dat" | head -n 1)"
