#!/bin/bash
# mkinitramfs.sh OUT.cpio.gz LAZYLOAD_BINARY
# Initramfs for the test VM: busybox-static, trace-cmd with the shared
# libraries it needs (copied from the host), our lazyload, init, guest.sh.
set -euo pipefail
out=$1
lazyload=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

bb=
for c in /bin/busybox /usr/bin/busybox; do
	if [ -x "$c" ] && ! ldd "$c" >/dev/null 2>&1; then
		bb=$c
		break
	fi
done
[ -n "$bb" ] || { echo "need a static busybox (apt-get install busybox-static)" >&2; exit 1; }
tc=$(command -v trace-cmd) || { echo "need trace-cmd" >&2; exit 1; }

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,out,etc,lib64}
cp "$bb" "$root/bin/busybox"
cp "$tc" "$root/bin/trace-cmd"
cp "$lazyload" "$root/bin/lazyload"
cp "$here/init" "$root/init"
cp "$here/guest.sh" "$root/guest.sh"
chmod 755 "$root/init" "$root/guest.sh"
# shared libraries of trace-cmd, at the paths the loader expects
ldd "$tc" | awk '/=>/ { print $3 } $1 ~ /^\// { print $1 }' | while read -r lib; do
	[ -f "$lib" ] || continue
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
# libtraceevent plugins are optional; skip them (the text is the kernel's)
(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out"
echo "initramfs: $out ($(du -h "$out" | cut -f1))"
