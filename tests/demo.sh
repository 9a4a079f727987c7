#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo: lazytrace on the bundled recording of three in-kernel hogs
# (Linux 6.12 with lazy preemption, under qemu; see tests/data/README.md).
set -e
LT=${1:-./lazytrace}
DAT=tests/data/lazy612-hogs.dat

say() {
	printf '\n\033[1m$ %s\033[0m\n' "$*"
	"$@"
}

say $LT flags 0x06 --abi mainline
echo
echo "Events around a tick that upgrades hog 142's lazy request (l -> b/B):"
# shellcheck disable=SC2086
say sh -c "$LT report -i $DAT --cpu 1 | grep -B3 -A4 -m1 'sh-142 .*\] d[bB]h'"
if command -v trace-cmd > /dev/null; then
	echo
	echo "The same events as libtraceevent prints them: the lazy request and"
	echo "the tick's upgrade are invisible."
	say sh -c "trace-cmd report -l $DAT 2>/dev/null | grep -E '7\.6136(77|90|93|97)|7\.613724'"
fi
for cmd in hogs stats; do
	if $LT $cmd --help > /dev/null 2>&1; then
		say $LT $cmd -i $DAT
	fi
done
