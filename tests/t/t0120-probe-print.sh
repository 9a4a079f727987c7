#!/bin/sh
# Probe events print as the kernel prints them: the stock 7.2 recordings
# (tests/data/stock/README.md) hold a tracepoint probe,
# t:lazytrace/set_need_resched with fetch args of its own (one a string),
# whose head the kernel prints as symbol+offset/size, not by the "(%lx)"
# of the format it synthesizes; the rest of each line too, against the
# kernel's own text of the same buffer, default and latency format.
. "$(dirname "$0")/lib.sh"

for n in stock72-lazy-hrtick stock72-full stock72-lazy-nohrtick-stacks; do
	xz -dc "$DATA/stock/$n.txt.xz" > "$TMPDIR/$n.txt" || fail "xz $n"
	xz -dc "$DATA/stock/$n.lat.txt.xz" > "$TMPDIR/$n.lat.txt" || fail "xz $n.lat"
	lt report -i "$DATA/stock/$n.dat" > "$TMPDIR/$n.out" || fail "report $n"
	lt report -l -i "$DATA/stock/$n.dat" > "$TMPDIR/$n.lat.out" ||
		fail "report -l $n"
	python3 "$TOOLS/compare-report.py" --min 100 \
		"$TMPDIR/$n.txt" "$TMPDIR/$n.out" || fail "$n: lines differ"
	python3 "$TOOLS/compare-report.py" --latency --min 100 \
		"$TMPDIR/$n.lat.txt" "$TMPDIR/$n.lat.out" ||
		fail "$n: latency lines differ"
	# not vacuous: the probe's lines are there, head and string arg
	grep -q 'set_need_resched: (__probestub_sched_set_need_resched_tp+0x[0-9a-f]*/0x[0-9a-f]*) pid=[0-9]* comm="[^"]*" cpu=' \
		"$TMPDIR/$n.out" || fail "$n: no tracepoint probe line"
done
