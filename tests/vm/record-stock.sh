#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# record-stock.sh OUTDIR [ARCH...] - remake the recordings of
# tests/data/stock in OUTDIR (NAME.txt.xz, NAME.lat.txt.xz, NAME.dat), as
# its README.md describes, for each ARCH (default: amd64 arm64):
#   amd64  two boots of Debian's 7.2 (lazy, full): the hog recordings and
#          stock72-allevents-x86
#   arm64  stock72-allevents-arm64
#   s390x  stock72-allevents-s390x (big-endian)
#   i386   bullseye510-allevents-i686 (Debian bullseye's 5.10, 32-bit:
#          tests/data/old)
#   armhf  bullseye510-allevents-armhf and bullseye510-fgraph-armhf
#          (bullseye's 5.10 armmp, 32-bit ARM, qemu -M virt, one CPU:
#          tests/data/old)
#   fgraph stock72-fgraph-x86: the function_graph tracer on the amd64
#          7.2 kernel (the host's kernel has no function_graph)
# Environment: BUILD, VMSTOCK_CACHE, KVER, LT_SECS as for vm-test-stock.sh.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
dest=${1:?usage: record-stock.sh OUTDIR [amd64|arm64|s390x|i386|armhf|fgraph...]}
shift
archs=${*:-amd64 arm64}
vm=$BUILD/vm-stock-rec
. "$here/stages.sh"

declare -A root
t=$(now)
for a in $archs; do
	case $a in
	amd64|arm64|s390x|i386|armhf) ;;
	fgraph) a=amd64 ;;
	*) echo "record-stock: unknown arch $a" >&2; exit 2 ;;
	esac
	root[$a]=$("$here/fetch.sh" "$a") ||
		{ echo "record-stock: FAILED to download Debian's $a packages" >&2; exit 1; }
done
stage "download (cached)" "$t"
t=$(now)
mkdir -p "$BUILD" "$dest"
for a in $archs; do
	[ "$a" = fgraph ] && a=amd64
	if [ "$a" = amd64 ]; then
		gcc -O2 -Wall -Wextra -static -o "$BUILD/lazyload" "$top/patches/vm/lazyload.c" || exit 1
		"$here/mkinitramfs.sh" amd64 "${root[$a]}" "$BUILD/stock-amd64.cpio.gz" "$top/lazytrace" "$BUILD/lazyload" || exit 1
	else
		"$here/mkinitramfs.sh" "$a" "${root[$a]}" "$BUILD/stock-$a.cpio.gz" || exit 1
	fi
done
stage "initramfs" "$t"
rm -rf "$vm"
for a in $archs; do
	t=$(now)
	i=$BUILD/stock-$a.cpio.gz
	case $a in
	amd64)
		"$here/boot.sh" amd64 "${root[$a]}" "$i" "$vm/lazy" lazy \
			probe:on,rec:stock72-lazy-hrtick,all:stock72-allevents-x86,hrtick:off,stacks:stock72-lazy-nohrtick-stacks || exit 1
		"$here/boot.sh" amd64 "${root[$a]}" "$i" "$vm/full" full \
			probe:on,rec:stock72-full || exit 1 ;;
	arm64)
		"$here/boot.sh" arm64 "${root[$a]}" "$i" "$vm/arm64" lazy \
			all:stock72-allevents-arm64 || exit 1 ;;
	s390x)
		# 4 CPUs: a cross call to two others is an IPI to a cpumask
		# (to one, ipi_send_cpu), the trace's bitmasks
		VM_SMP=4 "$here/boot.sh" s390x "${root[$a]}" "$i" "$vm/s390x" lazy \
			allipi:stock72-allevents-s390x || exit 1 ;;
	armhf)
		# 1 CPU: with 2, 5.10 armmp under qemu 7.2's TCG opens the
		# console after its last initcall and then stops before
		# "Freeing unused kernel memory" (20 minutes, with or
		# without -icount, -cpu max or cortex-a15); with 1 it runs
		# /init 9.5 s into the boot
		VM_SMP=1 "$here/boot.sh" armhf "${root[$a]}" "$i" "$vm/armhf" voluntary \
			all:bullseye510-allevents-armhf,fgraph:bullseye510-fgraph-armhf || exit 1 ;;
	fgraph)
		"$here/boot.sh" amd64 "${root[amd64]}" "$BUILD/stock-amd64.cpio.gz" \
			"$vm/fgraph" lazy fgraph:stock72-fgraph-x86 || exit 1 ;;
	i386)
		"$here/boot.sh" i386 "${root[$a]}" "$i" "$vm/i386" voluntary \
			all:bullseye510-allevents-i686 || exit 1 ;;
	esac
	stage "$a boots (qemu)" "$t"
done
t=$(now)
for d in "$vm"/*/; do
	for f in "$d"*.dat; do
		[ -f "$f" ] || continue
		n=$(basename "$f" .dat)
		xz -9 -c "$d$n.txt" > "$dest/$n.txt.xz"
		# the function graph's text has no latency format of its own
		[ -f "$d$n.lat.txt" ] && xz -9 -c "$d$n.lat.txt" > "$dest/$n.lat.txt.xz"
		cp "$d$n.dat" "$dest/"
		echo "$n: $(grep -m1 entries-in-buffer "$d$n.txt")"
	done
	grep -E 'pid|probe|trigger|function tracer' "$d/guest.log"
done
stage "compress" "$t"
