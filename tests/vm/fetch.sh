#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# fetch.sh ARCH
#
# Downloads Debian's stock kernel for ARCH (amd64 or arm64) and, for arm64,
# the guest's user space (busybox-static, trace-cmd, hackbench and their
# libraries), through tools/apt-newer.sh, and unpacks them. Everything is
# cached under $VMSTOCK_CACHE (default /var/tmp/lazytrace-vmstock); a
# complete unpack leaves ARCH/.done and is not fetched again. Prints the
# unpacked root. A failed download is an error (exit 1), never a skip.
# KVER selects the kernel (default 7.2.13+deb14).
set -eu
arch=${1:?usage: fetch.sh amd64|arm64}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${VMSTOCK_CACHE:-/var/tmp/lazytrace-vmstock}
kver=${KVER:-7.2.13+deb14}
root=$cache/$arch
debs=$cache/deb

if [ -f "$root/.done" ]; then
	echo "$root"
	exit 0
fi

k=$kver-$arch
# linux-image-* is a metapackage: the kernel is in linux-binary-*, the
# config in linux-base-*, the 9p/netfs modules in linux-modules-*.
pkgs="linux-binary-$k:$arch linux-modules-$k:$arch linux-base-$k:$arch"
if [ "$arch" != amd64 ]; then
	# The amd64 guest runs the host's own binaries; a foreign guest needs
	# its own, with every library they load.
	pkgs="$pkgs busybox-static:$arch trace-cmd:$arch libc6:$arch
	      libtraceevent1:$arch libtracefs1:$arch libzstd1:$arch
	      zlib1g:$arch rt-tests:$arch libnuma1:$arch libcpupower1:$arch"
fi
mkdir -p "$debs/$arch"
# apt drops privileges to _apt for downloads when it can
chmod 777 "$debs/$arch" 2>/dev/null || true
# shellcheck disable=SC2086
if ! (cd "$debs/$arch" && "$top/tools/apt-newer.sh" apt-get download -q $pkgs) >&2; then
	echo "fetch.sh: downloading $pkgs failed" >&2
	exit 1
fi
rm -rf "$root"
mkdir -p "$root"
for d in "$debs/$arch"/*.deb; do
	dpkg-deb -x "$d" "$root" || { echo "fetch.sh: cannot unpack $d" >&2; exit 1; }
done
[ -f "$root/usr/lib/modules/$k/vmlinuz" ] ||
	{ echo "fetch.sh: no vmlinuz in $root/usr/lib/modules/$k" >&2; exit 1; }
echo "$kver" > "$root/.done"
echo "$root"
