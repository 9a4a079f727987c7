#!/bin/bash
# vm-test.sh - build the patched kernel and an initramfs, boot it under
# qemu (TCG, 2 CPUs), record the hog and messaging scenarios, check them.
# Environment: BUILD, LAZYTRACE (path of the lazytrace binary), QEMU_TIMEOUT,
# QEMU_ICOUNT (default '-icount shift=3,sleep=off'; 'none' for MTTCG),
# KERNEL (a prebuilt bzImage: skip building the kernel).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build}
LAZYTRACE=${LAZYTRACE:-$top/../lazytrace}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-1200}
out=$BUILD/out-vm
vmout=$BUILD/vm-out
export BUILD

declare -a stages
now() { date +%s; }
stage() { # name start
	local s=$(($(now) - $2))
	stages+=("$(printf '  %-28s %3dm%02ds' "$1" $((s / 60)) $((s % 60)))")
}
report() {
	echo
	echo "vm-test stage timings:"
	printf '%s\n' "${stages[@]}"
}
trap report EXIT
t0=$(now)

for tool in qemu-system-x86_64 trace-cmd gcc cpio gzip; do
	command -v $tool > /dev/null || { echo "vm-test: $tool is missing" >&2; exit 1; }
done

t=$(now)
if [ -n "${KERNEL:-}" ]; then
	echo "[vm] using the prebuilt kernel KERNEL=$KERNEL"
	kernel=$KERNEL
else
	"$top/tools/kernel.sh" build "$out" || exit 1
	kernel=$out/arch/x86/boot/bzImage
fi
stage "kernel (extract+patch+build)" "$t"

t=$(now)
mkdir -p "$BUILD"
gcc -O2 -Wall -Wextra -static -o "$BUILD/lazyload" "$here/lazyload.c" || exit 1
"$here/mkinitramfs.sh" "$BUILD/initramfs.cpio.gz" "$BUILD/lazyload" || exit 1
stage "initramfs" "$t"

t=$(now)
rm -rf "$vmout"
mkdir -p "$vmout"
icount=${QEMU_ICOUNT:--icount shift=3,sleep=off}
[ "$icount" = none ] && icount=
echo "[vm] booting under qemu TCG ${icount:-(MTTCG)}, 2 CPUs (serial log: $vmout/console.log)"
# -icount: guest time follows the number of instructions executed, not the
# host clock, so a loaded host does not make ticks land in the middle of
# kernel code that would be short on real hardware (without it, the lazy
# run's preempted switches vary 10x with the host load). sleep=off lets
# idle time pass instantly.
timeout "$QEMU_TIMEOUT" qemu-system-x86_64 -M pc -accel tcg $icount -cpu max \
	-smp 2 -m 1024 -net none -nographic -no-reboot \
	-kernel "$kernel" -initrd "$BUILD/initramfs.cpio.gz" \
	-append "console=ttyS0 panic=-1 loglevel=4 ${GUEST_ENV:-}" \
	-virtfs local,path="$vmout",mount_tag=out,security_model=none,id=out \
	> "$vmout/console.log" 2>&1 < /dev/null
rc=$?
stage "boot + record (qemu)" "$t"
if [ $rc != 0 ] || ! grep -q 'guest.sh exit 0' "$vmout/console.log"; then
	echo "vm-test: the VM failed (qemu rc $rc); last console lines:" >&2
	tail -n 30 "$vmout/console.log" >&2
	exit 1
fi
grep '^===' "$vmout/guest.log" | sed 's/^/[vm] /'

t=$(now)
"$here/check.sh" "$vmout" "$LAZYTRACE" 2>&1 | tee "$vmout/check.log"
rc=${PIPESTATUS[0]}
stage "checks" "$t"
stage "total" "$t0"
exit $rc
