#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The function_graph tracer's events print as the kernel's own graph of
# the same buffer (tests/data/stock/README.md says how each was recorded):
# "func() {" for a call with calls inside, "func();" with its duration
# for an entry followed by its own return (the two events one line, as
# the kernel and trace-cmd print them), "}" with the duration and the
# overhead mark for a return. tests/tools/compare-fgraph.py matches each
# kernel line (time, CPU, pid, graph text) with report's; the kernel's
# decorations that are no event (task-switch banners, interrupt marks)
# are tabled apart.
. "$(dirname "$0")/lib.sh"

command -v python3 > /dev/null || skip "needs python3"
tables=${LT_TABLES:-$TMPDIR}
# 64-bit 7.2 and 32-bit ARM 5.10, whose buffer overwrote its start: its
# first returns have no entry in the trace, and name their function
set -- stock/stock72-fgraph-x86 100 old/bullseye510-fgraph-armhf 100
while [ $# -ge 2 ]; do
	n=$1 floor=$2
	shift 2
	b=$(basename "$n")
	xz -dc "$DATA/$n.txt.xz" > "$TMPDIR/$b.txt" || fail "xz $n"
	lt report -i "$DATA/$n.dat" > "$TMPDIR/$b.out" || fail "report $n"
	python3 "$TOOLS/compare-fgraph.py" --min "$floor" \
		--table "$tables/t0135-$b.table" \
		"$TMPDIR/$b.txt" "$TMPDIR/$b.out" ||
		fail "$n: below $floor % of the kernel's graph lines"
	# Not vacuous: leaves, nested calls and returns are all there, in
	# the kernel's text and in report's, and nothing prints raw.
	for pat in '();$' '() {$' '|  *}$'; do
		grep -q "$pat" "$TMPDIR/$b.txt" || fail "$n: kernel has no '$pat'"
		grep -q "$pat" "$TMPDIR/$b.out" || fail "$n: report has no '$pat'"
	done
	! grep -q -e '--> ' -e '<-- ' "$TMPDIR/$b.out" || fail "$n: raw graph events"
	if [ "$b" = bullseye510-fgraph-armhf ]; then
		grep -q '|  } /\* ksys_read \*/$' "$TMPDIR/$b.txt" ||
			fail "$n: no named return in the kernel's text"
	fi
	# one line per leaf: fewer lines than events (trace-cmd's raw
	# report has one per event), while the analysis sees every event
	ev=$(trace-cmd report -R -i "$DATA/$n.dat" 2>/dev/null | grep -c funcgraph_)
	[ "$(wc -l < "$TMPDIR/$b.out")" -lt "$ev" ] || fail "$n: leaves not folded"
	lt stats -i "$DATA/$n.dat" 2>&1 | grep -q ": $ev events on" ||
		fail "$n: stats does not count $ev events"
done
