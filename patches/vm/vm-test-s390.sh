#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-test-s390.sh - the series on s390x (make vm-test-s390): cross-build
# the patched kernel (vm/cross-build.sh s390: tinyconfig + vm/s390.config,
# PREEMPT_LAZY without PREEMPT_DYNAMIC, which s390 lacks in 6.12), boot it
# under qemu-system-s390x TCG (-M s390-ccw-virtio -cpu max, console
# ttysclp0) with a static busybox initramfs (Debian's busybox-static
# s390x .deb, fetched through tools/apt-newer.sh) and a static s390x
# lazyload, let vm/s390-init record a busy loop and three sleepers on
# CPU 1, and check the result on the host (vm/check-s390.py).
#
# Installs nothing: the cross compiler (gcc-s390x-linux-gnu) and qemu
# (qemu-system-misc) come from `make vm-deps`.
# Environment: BUILD (scratch, default patches/build), LAZYTRACE (the
# lazytrace binary, default ../lazytrace; `skip`: no lazytrace checks),
# S390_KERNEL (a prebuilt bzImage of cross-build.sh s390: no build),
# QEMU_TIMEOUT (default 900 seconds), S390_SECS (the recording's length,
# default 2), JOBS.
# Results: $BUILD/vm-s390/ (console.log, the guest's files, checks.txt).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
export BUILD=${BUILD:-$top/build}
LAZYTRACE=${LAZYTRACE:-$top/../lazytrace}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-900}
out=$BUILD/out-s390
vmout=$BUILD/vm-s390
debs=$BUILD/debs-s390

declare -a stages=()
now() { date +%s; }
stage() { # name start
	local s=$(($(now) - $2))
	stages+=("$(printf '  %-28s %3dm%02ds' "$1" $((s / 60)) $((s % 60)))")
}
report() {
	[ ${#stages[@]} -gt 0 ] || return 0
	echo
	echo "vm-test-s390 stage timings:"
	printf '%s\n' "${stages[@]}"
}
trap report EXIT
t0=$(now)

missing=
for tool in s390x-linux-gnu-gcc:gcc-s390x-linux-gnu qemu-system-s390x:qemu-system-misc \
	    apt-get:apt dpkg-deb:dpkg cpio:cpio gzip:gzip python3:python3; do
	command -v "${tool%%:*}" > /dev/null || missing="$missing ${tool#*:}"
done
if [ -n "$missing" ]; then
	echo "FAIL: missing host packages:$missing (apt-get install them, or run make vm-test-s390 at the top: its vm-deps installs them)" >&2
	exit 1
fi

t=$(now)
if [ -n "${S390_KERNEL:-}" ]; then
	echo "[s390] using the prebuilt kernel S390_KERNEL=$S390_KERNEL"
	kernel=$S390_KERNEL
	config=$(dirname "$S390_KERNEL")/../../../.config
else
	kernel=$("$here/cross-build.sh" s390 "$out" | tee /dev/stderr | tail -n 1) || exit 1
	[ -f "$kernel" ] || { echo "FAIL: no s390 kernel" >&2; exit 1; }
	config=$out/.config
fi
stage "kernel (tree+cross build)" "$t"

# The guest's user space: Debian's static busybox for s390x (bookworm,
# the host's suite), through apt-newer.sh's private list (the URI is the
# machine's own Debian source; nothing here names a mirror), cached in
# $debs; lazyload from vm/lazyload.c, static.
t=$(now)
mkdir -p "$debs"
chmod 777 "$debs" 2>/dev/null || true
if ! ls "$debs"/busybox-static_*_s390x.deb > /dev/null 2>&1; then
	(cd "$debs" && "$top/../tools/apt-newer.sh" --suites bookworm --arch s390x \
		apt-get download -q busybox-static:s390x) >&2 ||
		{ echo "FAIL: cannot download busybox-static:s390x" >&2; exit 1; }
fi
rm -rf "$debs/root" && mkdir -p "$debs/root"
dpkg-deb -x "$(ls "$debs"/busybox-static_*_s390x.deb | tail -n 1)" "$debs/root" || exit 1
ird=$BUILD/initramfs-s390
rm -rf "$ird" && mkdir -p "$ird"/{bin,dev,proc,sys,tmp,out}
cp "$debs/root/bin/busybox" "$ird/bin/busybox"
s390x-linux-gnu-gcc -static -O2 -Wall -o "$ird/bin/lazyload" "$here/lazyload.c" ||
	{ echo "FAIL: lazyload does not build for s390x" >&2; exit 1; }
cp "$here/s390-init" "$ird/init"
chmod +x "$ird/init"
(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -9) > "$BUILD/initramfs-s390.cpio.gz"
stage "initramfs (busybox, lazyload)" "$t"

# Boot. No -icount: with it bookworm's qemu 7.2 left the s390x guest
# silent (tests/vm/boot.sh); single-threaded TCG, guest time from the
# host's clock. The share is an explicit virtio-9p-ccw device: qemu 7.2
# makes -virtfs a virtio-9p-pci device behind zPCI on this machine, which
# a kernel without PCI does not see.
t=$(now)
rm -rf "$vmout" && mkdir -p "$vmout/share"
chmod 777 "$vmout/share"
echo "[s390] booting $kernel (qemu-system-s390x, TCG, 2 CPUs)"
timeout "$QEMU_TIMEOUT" qemu-system-s390x -M s390-ccw-virtio -cpu max \
	-accel tcg,thread=single -smp 2 -m 512 -nographic -no-reboot -net none \
	-kernel "$kernel" -initrd "$BUILD/initramfs-s390.cpio.gz" \
	-fsdev "local,id=out,path=$vmout/share,security_model=none" \
	-device virtio-9p-ccw,fsdev=out,mount_tag=out \
	-append "console=ttysclp0 panic=-1 loglevel=4 S390_SECS=${S390_SECS:-2}" \
	> "$vmout/console.log" 2>&1 < /dev/null
echo "qemu rc $?" >> "$vmout/console.log"
stage "qemu boot + recording" "$t"

t=$(now)
lt=$LAZYTRACE
[ "$lt" != skip ] && [ ! -x "$lt" ] && { echo "[s390] no lazytrace at $lt: its checks are skipped"; lt=skip; }
python3 "$here/check-s390.py" "$vmout" "$config" "$lt" | tee "$vmout/checks.txt"
rc=${PIPESTATUS[0]}
stage "checks" "$t"
stage "total" "$t0"
echo "vm-test-s390: $([ "$rc" = 0 ] && echo PASS || echo FAIL) (results in $vmout)"
exit "$rc"
