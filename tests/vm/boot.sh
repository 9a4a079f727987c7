#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh ARCH ROOT INITRAMFS OUTDIR PREEMPT LT_RUN
#
# Boots the distribution kernel unpacked in ROOT under qemu TCG, 2 CPUs
# (VM_SMP), 2 GiB, with preempt=PREEMPT, and has the guest run the steps LT_RUN
# (see stock-guest.sh) with OUTDIR shared over 9p. The console goes to
# OUTDIR/console.log. Exit 0 only when the guest script ran to its end.
# QEMU_TIMEOUT (seconds, default 1200), LT_SECS, LT_BUF_KB, LT_LIVE_SAVE
# pass through.
set -uo pipefail
arch=$1 root=$2 initrd=$3 out=$4 preempt=$5 run=$6
# the kernel's release, as fetch.sh wrote it (older caches: VERSION-ARCH)
kver=$(cat "$root/.release" 2>/dev/null || echo "$(cat "$root/.done")-$arch")
kdir=$root/usr/lib/modules/$kver
hz=$(sed -n 's/^CONFIG_HZ=//p' "$kdir/config" 2>/dev/null)
mkdir -p "$out"
env="LT_RUN=$run LT_HZ=$hz LT_SECS=${LT_SECS:-3} LT_LIVE_SAVE=${LT_LIVE_SAVE:-0}"
[ -n "${LT_BUF_KB:-}" ] && env="$env LT_BUF_KB=$LT_BUF_KB"
# -icount: guest time follows the instructions executed, not the loaded
# host's clock (see patches/vm/vm-test.sh); it also makes TCG single-
# threaded, which a guest that patches its own code (sched features are
# static keys) needs: multi-threaded TCG crashed 7.2 with "Oops: int3".
# s390x and i386: bookworm's qemu 7.2 with -icount left the guest
# silent (no console line in 2-3 minutes, where they boot in 12-20 s
# without); single-threaded TCG there, guest time from the host's clock.
# armhf (bullseye's 5.10 armmp): without -icount too, the way its one-CPU
# boot was seen to work (with 2 CPUs it stops before running /init,
# with -icount or without: see record-stock.sh).
icount=(-icount shift=3,sleep=off)
case $arch in
s390x|i386|armhf) icount=() ;;
esac
common=(-accel tcg,thread=single "${icount[@]}" -smp "${VM_SMP:-2}" -m 2048 -nographic
	-no-reboot -net none -kernel "$kdir/vmlinuz" -initrd "$initrd"
	-virtfs "local,path=$out,mount_tag=out,security_model=none,id=out")
case $arch in
amd64)
	cmd=(qemu-system-x86_64 -M pc -cpu max "${common[@]}"
	     -append "console=ttyS0 panic=-1 loglevel=4 preempt=$preempt $env") ;;
arm64)
	cmd=(qemu-system-aarch64 -M virt -cpu max "${common[@]}"
	     -append "console=ttyAMA0 panic=-1 loglevel=4 preempt=$preempt $env") ;;
armhf)
	# 32-bit ARM (Debian's armmp, no LPAE): no device above 4 GiB
	cmd=(qemu-system-arm -M virt,highmem=off -cpu max "${common[@]}"
	     -append "console=ttyAMA0 panic=-1 loglevel=4 preempt=$preempt $env") ;;
i386)
	cmd=(qemu-system-i386 -M pc -cpu max "${common[@]}"
	     -append "console=ttyS0 panic=-1 loglevel=4 preempt=$preempt $env") ;;
s390x)
	# big-endian; -virtfs becomes a virtio-9p-pci device here (bookworm's
	# qemu 7.2), which Debian's kernel sees: it has PCI (the series' own
	# s390 kernel has not: patches/vm/vm-test-s390.sh asks for virtio-9p-ccw)
	cmd=(qemu-system-s390x -M s390-ccw-virtio -cpu max "${common[@]}"
	     -append "console=ttysclp0 panic=-1 loglevel=4 preempt=$preempt $env") ;;
*)
	echo "boot.sh: unknown arch $arch" >&2
	exit 2 ;;
esac
timeout "${QEMU_TIMEOUT:-1200}" "${cmd[@]}" > "$out/console.log" 2>&1 < /dev/null
rc=$?
if [ $rc != 0 ] || ! grep -q 'stock-guest.sh exit 0' "$out/console.log"; then
	echo "boot.sh: the $arch VM (preempt=$preempt, $run) failed (qemu rc $rc); last console lines:" >&2
	tail -n 30 "$out/console.log" >&2
	exit 1
fi
exit 0
