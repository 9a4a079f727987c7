#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# record-stock.sh - bench/data/stock72-big.dat: about 600k events of
# hackbench recorded by lazytrace record in Debian's stock 7.2 kernel
# (qemu TCG, 2 CPUs, preempt=lazy), with the kernel's whole kallsyms: the
# distribution-kernel trace of bench.sh's goals. Downloads the kernel as
# make vm-test-stock does (cached). BUILD, LAZYTRACE, BENCH_DATA as
# bench.sh.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
D=${BENCH_DATA:-$top/bench/data}
LAZYTRACE=${LAZYTRACE:-$top/lazytrace}
initrd=$BUILD/bench-stock.cpio.gz
root=$("$top/tests/vm/fetch.sh" amd64) || { echo "record-stock: no stock kernel" >&2; exit 2; }
mkdir -p "$BUILD"
gcc -O2 -Wall -Wextra -static -o "$BUILD/lazyload" "$top/patches/vm/lazyload.c" || exit 2
"$top/tests/vm/mkinitramfs.sh" amd64 "$root" "$initrd" "$LAZYTRACE" "$BUILD/lazyload" || exit 2
out=$BUILD/bench-stock
rm -rf "$out"
"$top/tests/vm/boot.sh" amd64 "$root" "$initrd" "$out" lazy big:stock72-big ||
	{ echo "record-stock: the VM failed (console: $out/console.log)" >&2; exit 1; }
grep -q '^record exit 0' "$out/stock72-big.log" ||
	{ echo "record-stock: lazytrace record failed: $(tail -n 3 "$out/stock72-big.log")" >&2; exit 1; }
mkdir -p "$D"
cp "$out/stock72-big.dat" "$D/stock72-big.dat"
echo "record-stock: $D/stock72-big.dat, $("$LAZYTRACE" stats -i "$D/stock72-big.dat" | head -n 1)"
