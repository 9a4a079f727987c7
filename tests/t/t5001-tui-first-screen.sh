#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The first screen of lazy612-hogs (tests/data/README.md): one timeline
# row per CPU of the trace, and the hog list names the three in-kernel
# hogs, 142 143 144, in the order `lazytrace hogs` ranks them.
T5_LIB=1 . "$(dirname "$0")/t5000-tui-basics.sh"

f=$DATA/lazy612-hogs.dat
ncpu=$(lt report -i "$f" | sed -n 's/.* \[\([0-9]*\)\] .*/\1/p' | sort -u | wc -l)
[ "$ncpu" -ge 2 ] || fail "report sees $ncpu CPUs"
want=$(lt hogs -i "$f" --csv | awk -F, 'NR > 1 { printf "%s ", $2 }')
[ "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" = "142 143 144 " ] ||
	fail "lazytrace hogs says '$want'"

tui_start -i "$f"
wait_for '^Hogs: '
s=$(screen)
rows=$(echo "$s" | grep -Ec '^cpu[0-9]+ ')
[ "$rows" = "$ncpu" ] || fail "$rows CPU rows, want $ncpu"
for c in $(seq 0 $((ncpu - 1))); do
	echo "$s" | grep -Eq "^cpu$c +[>]? ?[-.lef! ]+$" ||
		fail "no row for cpu $c"
done
echo "$s" | grep -q '^Hogs: 3 ' || fail "hog count"
got=$(echo "$s" | sed -n 's/^[ >] *[0-9]\{1,2\} \{1,\}\([0-9]\{1,\}\) sh .*/\1/p' |
	tr '\n' ' ')
[ "$got" = "$want" ] || fail "hog list '$got', hogs says '$want'"
# The ruler and the legend are there, with letters that read without colour.
echo "$s" | grep -Eq '^time +[0-9]' || fail "no ruler"
echo "$s" | grep -q '^\. idle - running l lazy pending e eager pending f folded' ||
	fail "no legend"
# The trace's CPU 1 is busy with hogs: lazy pending shows there.
echo "$s" | grep -E '^cpu1 ' | grep -q 'l' || fail "no lazy state on cpu1"
keys q
wait_exit 0
echo ok
