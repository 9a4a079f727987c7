#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-test-stock.sh - lazytrace's record, live --json and tui --live inside
# Debian's stock 7.x kernel (qemu TCG, 2 CPUs), checked on the host.
# Boots: preempt=lazy (HRTICK on, then NO_HRTICK written while quiet) and
# preempt=full; then Debian's 6.12 (KVER612) with preempt=none, then
# voluntary, for the case study (docs/case-spinlock.md). Environment: BUILD (default ./build), LAZYTRACE (the
# binary to test, default ./lazytrace), VMSTOCK_CACHE (downloads, default
# /var/tmp/lazytrace-vmstock), KVER, QEMU_TIMEOUT, LT_SECS, LT_LIVE_SAVE.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
LAZYTRACE=${LAZYTRACE:-$top/lazytrace}
out=$BUILD/vm-stock
KVER612=${KVER612:-6.12.117+deb13}
. "$here/stages.sh"

for tool in qemu-system-x86_64 trace-cmd gcc cpio gzip xz strings python3 tmux hackbench; do
	command -v $tool > /dev/null ||
		{ echo "vm-test-stock: $tool is missing (make vm-deps)" >&2; exit 1; }
done

t=$(now)
root=$("$here/fetch.sh" amd64) ||
	{ echo "vm-test-stock: FAILED to download Debian's kernel packages" >&2; exit 1; }
stage "download (cached)" "$t"

t=$(now)
mkdir -p "$BUILD"
gcc -O2 -Wall -Wextra -static -o "$BUILD/lazyload" "$top/patches/vm/lazyload.c" || exit 1
gcc -O2 -Wall -Wextra -static -pthread -o "$BUILD/spinlock-fault" "$top/tools/spinlock-fault.c" || exit 1
"$here/mkinitramfs.sh" amd64 "$root" "$BUILD/stock-amd64.cpio.gz" "$LAZYTRACE" "$BUILD/lazyload" \
	"$BUILD/spinlock-fault" || exit 1
stage "initramfs" "$t"

# The case study's "before": Debian's stock 6.12 (trixie) with
# preempt=none, as most users ran it until 7.0.
t=$(now)
root612=$(KVER=$KVER612 "$here/fetch.sh" amd64) ||
	{ echo "vm-test-stock: FAILED to download Debian's 6.12 kernel" >&2; exit 1; }
"$here/mkinitramfs.sh" amd64 "$root612" "$BUILD/stock612-amd64.cpio.gz" "$LAZYTRACE" \
	"$BUILD/lazyload" "$BUILD/spinlock-fault" || exit 1
stage "6.12: download (cached), initramfs" "$t"

rm -rf "$out"
mkdir -p "$out"
t=$(now)
echo "[vm-stock] boot preempt=lazy: HRTICK, then NO_HRTICK (console: $out/lazy/console.log)"
"$here/boot.sh" amd64 "$root" "$BUILD/stock-amd64.cpio.gz" "$out/lazy" lazy \
	housekeeping:off,lt:lazy-hrtick,hrtick:off,lt:lazy-nohrtick,khist:lazy-nohrtick,stopabove:lazy-nohrtick,startup:lazy,case:lazy || exit 1
stage "boot lazy + 2 runs (qemu)" "$t"
t=$(now)
echo "[vm-stock] boot preempt=full (console: $out/full/console.log)"
"$here/boot.sh" amd64 "$root" "$BUILD/stock-amd64.cpio.gz" "$out/full" full housekeeping:off,lt:full,case:full || exit 1
stage "boot full + 1 run (qemu)" "$t"
t=$(now)
echo "[vm-stock] boot 6.12 preempt=none, then voluntary (console: $out/none612/console.log)"
"$here/boot.sh" amd64 "$root612" "$BUILD/stock612-amd64.cpio.gz" "$out/none612" none \
	housekeeping:off,case:none612,preempt:voluntary,case:voluntary612 || exit 1
stage "boot 6.12 none, voluntary: case study (qemu)" "$t"
grep -h '^===' "$out"/*/guest.log | sed 's/^/[vm-stock] guest /'

t=$(now)
# one directory for the checks: the guest logs are kept apart per boot
mkdir -p "$out/all"
cat "$out/lazy/guest.log" "$out/full/guest.log" > "$out/all/guest.log"
for f in "$out"/lazy/*-* "$out"/full/*-* "$out"/none612/*-*; do
	ln -sf "$f" "$out/all/"
done
python3 "$here/check.py" "$out/all" "$LAZYTRACE" lazy-hrtick lazy-nohrtick full 2>&1 |
	tee "$out/check.log"
rc=${PIPESTATUS[0]}
# hist in the kernel (step khist), record --stop-above (stopabove) and
# live's start-up (startup): their own checks
python3 "$here/prod_check.py" "$out/all" "$LAZYTRACE" lazy-nohrtick 2>&1 |
	tee "$out/prod-check.log"
[ "${PIPESTATUS[0]}" = 0 ] || rc=1
# the case study: what lazytrace preempts says of each kernel and mode
python3 "$here/case_check.py" "$out/all" "$LAZYTRACE" none612 voluntary612 full lazy 2>&1 |
	tee "$out/case-check.log"
[ "${PIPESTATUS[0]}" = 0 ] || rc=1
stage "checks" "$t"
exit $rc
