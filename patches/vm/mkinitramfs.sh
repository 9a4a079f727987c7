#!/bin/bash
# mkinitramfs.sh OUT.cpio.gz LAZYLOAD_BINARY [LAZYHOG_MODULE [LAZYTRACE KCONFIG]]
# Initramfs for the test VM: busybox-static; trace-cmd, and hackbench and
# cyclictest from rt-tests, with the shared libraries they need (copied
# from the host); our lazyload, the lazyhog module, the series' kselftest
# preempt_lazy, init, guest.sh; the
# lazytrace binary under test (and the kernel's .config where Debian
# keeps it, /boot/config-RELEASE, for its HZ).
set -euo pipefail
out=$1
lazyload=$2
module=${3:-}	# none for the stock-kernel VM (tests/vm): built for ours
lazytrace=${4:-}
kconfig=${5:-}
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
hb=$(command -v hackbench) || { echo "need hackbench (apt-get install rt-tests)" >&2; exit 1; }
ct=$(command -v cyclictest) || { echo "need cyclictest (apt-get install rt-tests)" >&2; exit 1; }

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,out,etc,lib64,lib/modules}
cp "$bb" "$root/bin/busybox"
cp "$tc" "$root/bin/trace-cmd"
cp "$hb" "$root/bin/hackbench"
cp "$ct" "$root/bin/cyclictest"
[ -z "$module" ] || cp "$module" "$root/lib/modules/lazyhog.ko"
cp "$lazyload" "$root/bin/lazyload"
# kvmlazy, built next to lazyload, where the VM test built it
[ -x "$(dirname "$lazyload")/kvmlazy" ] && cp "$(dirname "$lazyload")/kvmlazy" "$root/bin/kvmlazy"
# the series' kselftest (sched/preempt_lazy, static), where the VM test built it
[ -x "$(dirname "$lazyload")/preempt_lazy" ] && cp "$(dirname "$lazyload")/preempt_lazy" "$root/bin/preempt_lazy"
bins="$tc $hb $ct"
if [ -n "$lazytrace" ]; then
	cp "$lazytrace" "$root/bin/lazytrace"
	bins="$bins $lazytrace"
	rel=$(cat "$(dirname "$kconfig")/include/config/kernel.release" 2> /dev/null ||
		sed -n 's/^# Linux\/x86 \([^ ]*\) Kernel Configuration$/\1/p' "$kconfig")
	mkdir -p "$root/boot"
	[ -z "$rel" ] || cp "$kconfig" "$root/boot/config-$rel"
fi
cp "$here/init" "$root/init"
cp "$here/guest.sh" "$root/guest.sh"
chmod 755 "$root/init" "$root/guest.sh"
# shared libraries of the host binaries, at the paths the loader expects
ldd $bins | awk '/=>/ { print $3 } $1 ~ /^\// { print $1 }' | while read -r lib; do
	[ -f "$lib" ] || continue
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
# libtraceevent plugins are optional; skip them (the text is the kernel's)
(cd "$root" && find . | cpio -o -H newc --quiet) | gzip -1 > "$out"
echo "initramfs: $out ($(du -h "$out" | cut -f1))"
