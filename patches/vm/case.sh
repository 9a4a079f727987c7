#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# case.sh - the spinlock case study (docs/case-spinlock.md) on the
# series' own 6.12: one kernel booted with preempt=none, then switched to
# lazy and to full while the guest is quiet, each running the case
# (tests/vm/stock-guest.sh, step case:TAG) and checked on the host by
# tests/vm/case_check.py. Debian's stock kernels run the same case in
# `make vm-test-stock`; this is the comparison on one kernel, where only
# the model differs. Environment: BUILD, LAZYTRACE, KERNEL (a prebuilt
# bzImage of the series, with its .config three directories up),
# QEMU_TIMEOUT, LT_SECS.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
repo=$(cd "$top/.." && pwd)
BUILD=${BUILD:-$top/build}
LAZYTRACE=${LAZYTRACE:-$repo/lazytrace}
out=$BUILD/out-vm
vmout=$BUILD/vm-case
. "$repo/tests/vm/stages.sh"

for tool in qemu-system-x86_64 gcc cpio gzip python3 tmux hackbench; do
	command -v $tool > /dev/null ||
		{ echo "vm-case: $tool is missing (make vm-deps)" >&2; exit 1; }
done

t=$(now)
if [ -n "${KERNEL:-}" ]; then
	kernel=$KERNEL
	out=$(cd "$(dirname "$KERNEL")/../../.." && pwd)
else
	"$top/tools/kernel.sh" build "$out" || exit 1
	kernel=$out/arch/x86/boot/bzImage
fi
stage "kernel (series applied, built)" "$t"

# tests/vm/ boots a kernel from a Debian package's tree: lay the series'
# kernel out the same way (its 9p and virtio are built in: no modules)
t=$(now)
kver=$(cat "$out/include/config/kernel.release") || exit 1
root=$BUILD/case-root
kdir=$root/usr/lib/modules/$kver
rm -rf "$root"
mkdir -p "$kdir"
cp "$kernel" "$kdir/vmlinuz"
cp "$out/.config" "$kdir/config"
cp "$out/modules.builtin" "$kdir/modules.builtin"
: > "$kdir/modules.order"
echo "$kver" > "$root/.release"
gcc -O2 -Wall -Wextra -static -o "$BUILD/lazyload" "$here/lazyload.c" || exit 1
gcc -O2 -Wall -Wextra -static -pthread -o "$BUILD/spinlock-fault" \
	"$repo/tools/spinlock-fault.c" || exit 1
"$repo/tests/vm/mkinitramfs.sh" amd64 "$root" "$BUILD/case.cpio.gz" "$LAZYTRACE" \
	"$BUILD/lazyload" "$BUILD/spinlock-fault" || exit 1
stage "initramfs" "$t"

t=$(now)
rm -rf "$vmout"
echo "[vm-case] boot preempt=none, then lazy, then full (console: $vmout/console.log)"
"$repo/tests/vm/boot.sh" amd64 "$root" "$BUILD/case.cpio.gz" "$vmout" none \
	housekeeping:off,case:none612p,preempt:lazy,case:lazy612p,preempt:full,case:full612p ||
	exit 1
stage "boot none, lazy, full: case study (qemu)" "$t"
grep '^===\|^preempt: ' "$vmout/guest.log" | sed 's/^/[vm-case] guest /'

t=$(now)
python3 "$repo/tests/vm/case_check.py" "$vmout" "$LAZYTRACE" none612p lazy612p full612p 2>&1 |
	tee "$vmout/case-check.log"
rc=${PIPESTATUS[0]}
stage "checks" "$t"
exit $rc
