#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cross-bisect.sh [s390] [ppc64le]
#
# Every step of the series cross-built for another architecture: a fresh
# pristine tree (its own, under BUILD/xbisect-ARCH), the patches applied
# one at a time, `make tinyconfig` plus the arch's fragment
# (vm/ARCH.config) after each, and the image built with -Werror (s390:
# the GENERIC_LOCKBREAK prototypes of kernel/locking/spinlock.c stay
# warnings, see cross-build.sh). Before patch 3 the fragment's
# PREEMPT_LAZY does not exist yet and the step builds as tinyconfig
# leaves it (PREEMPT_NONE); each line says which model it built.
# Environment: BUILD, TARBALL, JOBS, NICE (default 5).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build}
TARBALL=${TARBALL:-/usr/src/linux-source-6.12.tar.xz}
JOBS=${JOBS:-$(($(nproc) + 1))}
S=$top/linux-6.12
now() { date +%s; }
rc=0
for arch in ${@:-s390 ppc64le}; do
	case $arch in
	s390) ka=s390 cc=s390x-linux-gnu- tgt=bzImage kc="-Werror -Wno-error=missing-prototypes" ;;
	ppc64le) ka=powerpc cc=powerpc64le-linux-gnu- tgt=vmlinux kc=-Werror ;;
	*) echo "cross-bisect.sh: unknown arch $arch" >&2; exit 2 ;;
	esac
	command -v ${cc}gcc > /dev/null ||
		{ echo "cross-bisect.sh: ${cc}gcc is missing" >&2; exit 1; }
	w=$BUILD/xbisect-$arch o=$BUILD/xbisect-$arch/out
	t0=$(now)
	rm -rf "$w"
	mkdir -p "$w"
	tar -C "$w" -xf "$TARBALL" && mv "$w/linux-source-6.12" "$w/src" || exit 1
	i=0
	for p in $(grep -v '^\s*#' "$S/series" | grep -v '^\s*$'); do
		i=$((i + 1))
		t=$(now)
		(cd "$w/src" && GIT_CEILING_DIRECTORIES=$w git apply --whitespace=error-all "$S/$p") ||
			{ echo "$arch patch $i $p: does not apply"; rc=1; break; }
		km() { nice -n "${NICE:-5}" make -s -C "$w/src" O="$o" ARCH=$ka CROSS_COMPILE=$cc "$@"; }
		km tinyconfig > /dev/null &&
		(cd "$w/src" && scripts/kconfig/merge_config.sh -m -O "$o" "$o/.config" "$here/$arch.config") > /dev/null 2>&1 &&
		km olddefconfig > /dev/null || { echo "$arch patch $i: configure failed"; rc=1; break; }
		if km -j"$JOBS" $tgt KCFLAGS="$kc" > "$w/build-$i.log" 2>&1; then
			echo "$arch patch $i $p: builds ($(( $(now) - t )) s; $(grep -o 'CONFIG_PREEMPT\(_NONE\|_LAZY\|\)=y' "$o/.config" | tr '\n' ' '))"
		else
			echo "$arch patch $i $p: BUILD FAILED ($w/build-$i.log)"
			tail -n 5 "$w/build-$i.log"
			rc=1
			break
		fi
	done
	echo "$arch: $([ $rc = 0 ] && echo PASS || echo FAIL) in $(( $(now) - t0 )) s"
done
exit $rc
