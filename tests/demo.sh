#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo: lazytrace on the bundled recordings of three in-kernel hogs
# and of a pipe-messaging load (Linux 6.12 with lazy preemption, under
# qemu; see tests/data/README.md). Every command is printed as it can be
# pasted into a shell at the top of the tree; bold only on a terminal.
set -e
LT=${1:-./lazytrace}
DAT=tests/data/lazy612-hogs.dat
VM=tests/data/vm

if [ -t 1 ]; then
	bold=$(printf '\033[1m')
	plain=$(printf '\033[0m')
else
	bold=
	plain=
fi

# say 'COMMAND': show it, then run it exactly as shown.
say() {
	printf '\n%s$ %s%s\n' "$bold" "$1" "$plain"
	eval "$1"
}

say "$LT flags 0x06 --abi mainline"
echo
echo "Events around a tick that upgrades hog 142's lazy request (l -> b/B):"
say "$LT report -i $DAT --cpu 1 | grep -B3 -A4 -m1 'sh-142 .*\] d[bB]h'"
if command -v trace-cmd > /dev/null; then
	echo
	echo "The same events as libtraceevent prints them: the lazy request and"
	echo "the tick's upgrade are invisible."
	say "trace-cmd report -l $DAT 2>/dev/null | grep -E '7\.6136(77|90|93|97)|7\.613724'"
fi
say "$LT hogs -i $DAT"
say "$LT stats -i $DAT"
echo
echo "The same message load on the lazy and the eager kernel:"
say "$LT compare $VM/lazyvm-msg-lazy.dat $VM/lazyvm-msg-eager.dat | head -n 12"
