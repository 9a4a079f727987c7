#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cross-build.sh s390|ppc64le [OUT]
#
# The series' kernel for another architecture, cross-compiled: the tree of
# tools/kernel.sh (extracted and patched, reused while the series is
# unchanged), `make tinyconfig` plus the arch's fragment (vm/s390.config,
# vm/ppc64le.config), every =y of the fragment checked, then the image
# built with -Werror (s390: arch/s390/boot/bzImage; ppc64le: vmlinux).
# One exception, on s390: pristine 6.12 selects GENERIC_LOCKBREAK there
# with PREEMPTION (any preemptible model, CONFIG_PREEMPT as much as
# PREEMPT_LAZY), and kernel/locking/spinlock.c then defines its
# __raw_*_lock*() without prototypes; those -Wmissing-prototypes warnings
# stay warnings, and any other warning fails the build.
# Prints the image's path last. Installs nothing: a missing cross
# compiler is an error naming its Debian package.
# Environment: BUILD (scratch, default patches/build), JOBS, NICE (default 5).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
export BUILD=${BUILD:-$top/build}
JOBS=${JOBS:-$(($(nproc) + 1))}
arch=${1:?usage: cross-build.sh s390|ppc64le [OUT]}
case $arch in
s390)
	karch=s390 cross=s390x-linux-gnu- pkg=gcc-s390x-linux-gnu
	target=bzImage image=arch/s390/boot/bzImage
	kcflags="-Werror -Wno-error=missing-prototypes"
	allowed='kernel/locking/spinlock\.c:[0-9]+:[0-9]+: warning: no previous prototype for [^ ]*__raw_(spin|read|write)_(lock|lock_irqsave|lock_irq|lock_bh)[^ ]* \[-Wmissing-prototypes\]' ;;
ppc64le)
	karch=powerpc cross=powerpc64le-linux-gnu- pkg=gcc-powerpc64le-linux-gnu
	target=vmlinux image=vmlinux
	kcflags=-Werror allowed='^$' ;;
*)
	echo "cross-build.sh: unknown arch $arch" >&2
	exit 2 ;;
esac
out=${2:-$BUILD/out-$arch}
frag=$here/$arch.config
SRC=$BUILD/linux-6.12

command -v "${cross}gcc" > /dev/null || {
	echo "cross-build.sh: ${cross}gcc is missing: install $pkg" >&2
	exit 1
}
now() { date +%s; }
elapsed() { local s=$(($(now) - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

"$top/tools/kernel.sh" tree
t=$(now)
kmake() { # DIR ARGS...
	local o=$1
	shift
	nice -n "${NICE:-5}" make -s -C "$SRC" O="$o" ARCH=$karch CROSS_COMPILE=$cross "$@"
}
mkdir -p "$out"
# Configure into a scratch .config and keep the old one (and its time
# stamp) when nothing changed, so that a rerun rebuilds nothing.
cfg=$(mktemp -d)
trap 'rm -rf "$cfg"' EXIT
kmake "$cfg" tinyconfig > /dev/null
(cd "$SRC" && ARCH=$karch CROSS_COMPILE=$cross scripts/kconfig/merge_config.sh -m -O "$cfg" "$cfg/.config" "$frag") > /dev/null
kmake "$cfg" olddefconfig > /dev/null
bad=0
for opt in $(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1/p' "$frag"); do
	grep -qx "$opt=y" "$cfg/.config" || { echo "cross-build.sh: $opt=y did not stick" >&2; bad=1; }
done
for opt in $(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$frag"); do
	grep -q "^$opt=" "$cfg/.config" && { echo "cross-build.sh: $opt is set, the fragment says not" >&2; bad=1; }
done
[ $bad = 0 ] || exit 1
cmp -s "$cfg/.config" "$out/.config" || cp "$cfg/.config" "$out/.config"
echo "[cross] $arch: $(grep -oE '^CONFIG_(PREEMPT[A-Z_]*|HZ|HZ_PERIODIC|NO_HZ_IDLE|FUNCTION_TRACER)=[y0-9]+' "$out/.config" | tr '\n' ' ')"
if ! kmake "$out" -j"$JOBS" $target KCFLAGS="$kcflags" > "$out/build.log" 2>&1; then
	grep -v '^$' "$out/build.log" | tail -n 40 >&2
	echo "[cross] $arch: kernel build FAILED after $(elapsed "$t") (log: $out/build.log)" >&2
	exit 1
fi
others=$(grep ': warning: ' "$out/build.log" | grep -Ev "$allowed" || true)
if [ -n "$others" ]; then
	echo "$others" >&2
	echo "[cross] $arch: the build has warnings (log: $out/build.log)" >&2
	exit 1
fi
n=0
[ "$arch" = s390 ] && n=$(grep -cE "$allowed" "$out/build.log" || true)
[ "$n" = 0 ] || echo "[cross] $arch: $n -Wmissing-prototypes warnings of kernel/locking/spinlock.c (pristine 6.12 with PREEMPTION on s390)"
[ -f "$out/$image" ] || { echo "cross-build.sh: no $out/$image" >&2; exit 1; }
echo "[cross] $arch: built in $(elapsed "$t"): $out/$image"
echo "$out/$image"
