#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh ARCH ROOT OUT.cpio.gz [LAZYTRACE LAZYLOAD [STATIC...]]
#
# Initramfs for a distribution kernel unpacked in ROOT by fetch.sh.
# amd64: the patched-kernel VM's initramfs (patches/vm/mkinitramfs.sh:
# busybox-static, trace-cmd and its libraries from the host, lazyload)
# followed by a second cpio archive with what the stock kernel needs on
# top: its 9p/netfs modules, lazytrace, hackbench and tmux with their
# libraries, our init and guest script, and the STATIC programs (the
# case study's spinlock-fault). The kernel unpacks both archives in
# order, so ours replaces the patched VM's /init.
# arm64 (or any foreign ARCH): one archive made from ROOT alone: the
# arch's busybox-static, trace-cmd, hackbench and libraries.
set -euo pipefail
arch=$1
root=$2
out=$3
lazytrace=${4:-}
lazyload=${5:-}
static=("${@:6}")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# the kernel's release, as fetch.sh wrote it (older caches: VERSION-ARCH)
kver=$(cat "$root/.release" 2>/dev/null || echo "$(cat "$root/.done")-$arch")
mods=$root/usr/lib/modules/$kver
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ov=$tmp/root
mkdir -p "$ov"/{bin,modules,etc,tmp,out,dev,proc,sys}

# copy_host_bin BINARY: a host binary and its shared libraries, at the
# paths the host's loader resolves them to.
copy_host_bin() {
	local b lib
	b=$(command -v "$1") || { echo "mkinitramfs.sh: need $1" >&2; exit 1; }
	cp "$b" "$ov/bin/"
	ldd "$b" | awk '/=>/ { print $3 } $1 ~ /^\// { print $1 }' |
	while read -r lib; do
		[ -f "$lib" ] || continue
		mkdir -p "$ov$(dirname "$lib")"
		cp -L "$lib" "$ov$lib"
	done
}

# Modules: resolve the dependencies from each module's own modinfo
# ("depends=" string), since the package ships no modules.dep and the
# host may have no depmod; write them out decompressed, in load order.
declare -A done_mod
add_mod() {
	local m=$1 p dep
	[ -n "${done_mod[$m]:-}" ] && return 0
	p=$(grep -E "/$m\.ko(\.xz)?$" "$mods/modules.order" | head -n 1)
	p=${p%.xz}
	[ -n "$p" ] || { echo "mkinitramfs.sh: module $m not in $mods" >&2; exit 1; }
	p=$mods/$p
	if [ -f "$p" ]; then	# older packages: not compressed
		cp "$p" "$tmp/$m.ko"
	else
		xz -dc "$p.xz" > "$tmp/$m.ko" || { echo "mkinitramfs.sh: cannot unpack $p.xz" >&2; exit 1; }
	fi
	for dep in $(strings "$tmp/$m.ko" | sed -n 's/^depends=//p' | tr , ' '); do
		add_mod "$dep"
	done
	mv "$tmp/$m.ko" "$ov/modules/"
	echo "$m.ko" >> "$ov/modules/order"
	done_mod[$m]=1
}
: > "$ov/modules/order"
# virtio_pci and netfs where they are modules (5.10: virtio_pci is, and
# there is no netfs; 7.2 builds virtio_pci in)
for m in virtio_pci netfs 9pnet 9pnet_virtio 9p; do
	case $m in
	virtio_pci|netfs) grep -qE "/$m\.ko(\.xz)?$" "$mods/modules.order" || continue ;;
	esac
	# built in (the series' own kernel): nothing to load
	grep -qE "/$m\.ko$" "$mods/modules.builtin" 2>/dev/null && continue
	add_mod "$m"
done

cp "$here/init" "$ov/init"
cp "$here/stock-guest.sh" "$ov/stock-guest.sh"
chmod 755 "$ov/init" "$ov/stock-guest.sh"
echo "root:x:0:0:root:/:/bin/sh" > "$ov/etc/passwd"

if [ "$arch" = amd64 ]; then
	[ -n "$lazytrace" ] && [ -n "$lazyload" ] ||
		{ echo "mkinitramfs.sh: amd64 needs LAZYTRACE and LAZYLOAD" >&2; exit 1; }
	"$top/patches/vm/mkinitramfs.sh" "$tmp/base.cpio.gz" "$lazyload" >&2
	cp "$lazytrace" "$ov/bin/lazytrace"
	for b in "${static[@]}"; do
		cp "$b" "$ov/bin/"
	done
	# where Debian's package installs the config (lazytrace reads HZ there)
	mkdir -p "$ov/lib/modules/$kver"
	cp "$mods/config" "$ov/lib/modules/$kver/config"
	for b in "$lazytrace" hackbench tmux; do
		copy_host_bin "$b"
	done
	# the TUI and tmux need a terminal description
	mkdir -p "$ov/lib/terminfo/x" "$ov/lib/terminfo/s" "$ov/lib/terminfo/t"
	cp /lib/terminfo/x/xterm /lib/terminfo/x/xterm-256color "$ov/lib/terminfo/x/"
	cp /lib/terminfo/t/tmux* "$ov/lib/terminfo/t/" 2>/dev/null || true
	cp /lib/terminfo/s/screen* "$ov/lib/terminfo/s/" 2>/dev/null || true
	# tmux refuses to start without a UTF-8 locale
	mkdir -p "$ov/usr/lib/locale"
	cp -r /usr/lib/locale/C.utf8 "$ov/usr/lib/locale/"
else
	# Foreign user space from the arch's own packages; merged /usr, so
	# the loader's /lib path goes through a symlink.
	cp "$root/usr/bin/busybox" "$ov/bin/busybox"
	cp "$root/usr/bin/trace-cmd" "$root/usr/bin/hackbench" "$ov/bin/"
	mkdir -p "$ov/usr"
	cp -a "$root/usr/lib" "$ov/usr/lib"
	rm -rf "$ov/usr/lib/modules" "$ov/usr/lib/python3"* "$ov/usr/lib/linux"*
	ln -s usr/lib "$ov/lib"
fi
(cd "$ov" && find . | cpio -o -H newc --quiet) | gzip -1 > "$tmp/overlay.cpio.gz"
if [ -f "$tmp/base.cpio.gz" ]; then
	cat "$tmp/base.cpio.gz" "$tmp/overlay.cpio.gz" > "$out"
else
	cp "$tmp/overlay.cpio.gz" "$out"
fi
echo "initramfs: $out ($(du -h "$out" | cut -f1))"
