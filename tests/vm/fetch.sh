#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fetch.sh ARCH
#
# Downloads Debian's stock kernel for ARCH (amd64, arm64 or s390x: 7.2;
# i386 or armhf: bullseye's 5.10) and, for a foreign ARCH, the guest's
# user space (busybox-static, trace-cmd, hackbench and their
# libraries), through tools/apt-newer.sh, and unpacks them. Everything is
# cached under $VMSTOCK_CACHE (default /var/tmp/lazytrace-vmstock); a
# complete unpack leaves ARCH/.done and is not fetched again. Prints the
# unpacked root. A failed download is an error (exit 1), never a skip.
# KVER selects the kernel (default 7.2.13+deb14; 5.10.0-32 for i386/armhf;
# amd64 also 6.12.117+deb13, trixie's, the case study's "before"); one
# other than the default is cached apart, in ARCH-KVER.
set -eu
arch=${1:?usage: fetch.sh amd64|arm64|s390x|i386|armhf}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${VMSTOCK_CACHE:-/var/tmp/lazytrace-vmstock}
kver=${KVER:-7.2.13+deb14}
name=$arch${KVER:+-$KVER}
root=$cache/$name
debs=$cache/deb/$name

if [ -f "$root/.done" ]; then
	echo "$root"
	exit 0
fi

k=$kver-$arch
suite=
case $arch:$kver in
i386:*|armhf:*)
	# Debian bullseye's 5.10 (Debian has no 7.2 for them): one
	# linux-image package with kernel, config and modules; bullseye's
	# trace-cmd 2.9.1 has libtraceevent built in.
	suite=bullseye
	kver=${KVER:-5.10.0-32}
	k=$kver-$([ "$arch" = i386 ] && echo 686 || echo armmp)
	pkgs="linux-image-$k:$arch busybox-static:$arch trace-cmd:$arch
	      libc6:$arch rt-tests:$arch libnuma1:$arch" ;;
amd64:6.*)
	# 6.x: one unsigned image package holds the kernel, its config
	# and every module
	pkgs="linux-image-$k-unsigned:$arch" ;;
*)
	# linux-image-* is a metapackage: the kernel is in linux-binary-*,
	# the config in linux-base-*, the 9p/netfs modules in
	# linux-modules-*.
	pkgs="linux-binary-$k:$arch linux-modules-$k:$arch linux-base-$k:$arch"
	if [ "$arch" != amd64 ]; then
		# The amd64 guest runs the host's own binaries; a foreign
		# guest needs its own, with every library they load.
		pkgs="$pkgs busybox-static:$arch trace-cmd:$arch libc6:$arch
		      libtraceevent1:$arch libtracefs1:$arch libzstd1:$arch
		      zlib1g:$arch rt-tests:$arch libnuma1:$arch libcpupower1:$arch"
	fi ;;
esac
mkdir -p "$debs"
# apt drops privileges to _apt for downloads when it can
chmod 777 "$debs" 2>/dev/null || true
# shellcheck disable=SC2086
# apt-newer.sh knows amd64 and arm64; other architectures by --arch
archopt=
case $arch in
amd64|arm64) ;;
*) archopt="--arch $arch" ;;
esac
[ -n "$suite" ] && archopt="--suites $suite $archopt"
if ! (cd "$debs" && "$top/tools/apt-newer.sh" $archopt apt-get download -q $pkgs) >&2; then
	echo "fetch.sh: downloading $pkgs failed" >&2
	exit 1
fi
rm -rf "$root"
mkdir -p "$root"
for d in "$debs"/*.deb; do
	dpkg-deb -x "$d" "$root" || { echo "fetch.sh: cannot unpack $d" >&2; exit 1; }
done
# Older packages: no merged /usr, the kernel and its config in /boot.
# Laid out as the newer ones, for mkinitramfs.sh and boot.sh.
for d in bin sbin lib; do
	if [ -d "$root/$d" ] && [ ! -L "$root/$d" ]; then
		mkdir -p "$root/usr/$d"
		cp -a "$root/$d/." "$root/usr/$d/" && rm -rf "${root:?}/$d"
	fi
done
for f in vmlinuz config; do
	[ -f "$root/boot/$f-$k" ] && cp "$root/boot/$f-$k" "$root/usr/lib/modules/$k/$f"
done
[ -f "$root/usr/lib/modules/$k/vmlinuz" ] ||
	{ echo "fetch.sh: no vmlinuz in $root/usr/lib/modules/$k" >&2; exit 1; }
echo "$k" > "$root/.release"
echo "$kver" > "$root/.done"
echo "$root"
