#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# apt-newer.sh [--suites "sid trixie"] [--arch ARCH] [--source-only] APT-GET-OR-APT-CACHE ARGS...
#
# Runs apt-get or apt-cache against Debian's newer suites through a private
# package list, without touching the machine's own: the URI is the one the
# machine already uses for Debian (/etc/apt/sources.list.d/*.sources or
# /etc/apt/sources.list), so no mirror is named here. The lists live in
# $APT_NEWER_DIR (default /var/tmp/lazytrace-apt; a --suites list other than
# the default gets its own subdirectory, so that callers asking for different
# suites at the same time do not rewrite each other's list) and are refreshed
# once a day. --suites also takes the machine's own suite, for a deb-src entry
# it lacks. --source-only lists source packages only (much smaller lists, in
# a directory of their own), for apt-get source. --arch adds an architecture
# besides amd64 and arm64 (s390x, i386, armhf kernels for qemu), in a list
# directory of its own. Examples:
#   tools/apt-newer.sh apt-get download linux-image-7.2.13-amd64
#   tools/apt-newer.sh apt-get source --download-only libtraceevent=1:1.8.4-2
#   tools/apt-newer.sh --suites bookworm apt-get source --download-only libtraceevent
set -eu
suites="sid trixie"
dir=${APT_NEWER_DIR:-/var/tmp/lazytrace-apt}
if [ "${1:-}" = --suites ]; then
	if [ $# -lt 2 ] || [ -z "$2" ]; then
		echo "apt-newer.sh: --suites needs a list" >&2
		exit 2
	fi
	if [ "$2" != "$suites" ]; then
		suites=$2
		dir=$dir/$(echo "$suites" | tr -s ' ' '-')
	fi
	shift 2
fi
archs="amd64 arm64"
if [ "${1:-}" = --arch ]; then
	[ $# -ge 2 ] && [ -n "$2" ] || { echo "apt-newer.sh: --arch needs an architecture" >&2; exit 2; }
	archs="$archs $2"
	dir=$dir-$2
	shift 2
fi
binaries=yes
if [ "${1:-}" = --source-only ]; then
	binaries=
	dir=$dir-src
	shift
fi
[ $# -ge 1 ] || { echo "usage: apt-newer.sh [--suites LIST] [--arch ARCH] [--source-only] apt-get|apt-cache ARGS..." >&2; exit 2; }

uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
	tr ' ' '\n' | grep -v -- '-security' | grep . | head -n 1)
[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $2 !~ /security/ { print $2; exit }' \
	/etc/apt/sources.list 2>/dev/null)
[ -n "$uri" ] || { echo "apt-newer.sh: no Debian URI in /etc/apt" >&2; exit 2; }

mkdir -p "$dir/lists/partial"
list=$dir/sources.list
new=$(for s in $suites; do
	[ -z "$binaries" ] || echo "deb $uri $s main"
	echo "deb-src $uri $s main"
done)
if [ ! -f "$list" ] || [ "$new" != "$(cat "$list")" ]; then
	echo "$new" > "$list"
	rm -f "$dir/stamp"
fi
set -- "$@"
tool=$1
shift
opts="-o Dir::Etc::sourcelist=$list -o Dir::Etc::sourceparts=- -o Dir::State::Lists=$dir/lists"
# Architectures other than the host's (arm64 kernels for qemu) need no dpkg
# foreign architecture: apt-get download takes NAME:ARCH with this option.
for a in $archs; do
	opts="$opts -o APT::Architectures::=$a"
done
if [ -z "$(find "$dir/stamp" -mmin -1440 2>/dev/null)" ]; then
	# shellcheck disable=SC2086
	apt-get $opts update -qq && touch "$dir/stamp"
fi
# shellcheck disable=SC2086
exec "$tool" $opts "$@"
