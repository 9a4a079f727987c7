#!/bin/sh
# The recordings `make -C patches vm-test` made on our own patched 6.12
# kernel (tests/data/vm, roles in its README): lazytrace prints exactly
# what that kernel printed, finds its three hogs, and the eager mode of
# the same kernel preempts at least 10x as often as the lazy mode.
. "$(dirname "$0")/lib.sh"

VM=$DATA/vm
for n in lazyvm-hogs lazyvm-msg-lazy lazyvm-msg-eager; do
	k=$TMPDIR/$n.txt
	xz -dc "$VM/$n.txt.xz" > "$k" || fail "xz $n"
	lt report -i "$VM/$n.dat" > "$TMPDIR/$n.out" || fail "report $n"
	python3 "$TOOLS/compare-report.py" "$k" "$TMPDIR/$n.out" || fail "$n differs"
	xz -dc "$VM/$n.lat.txt.xz" > "$k.lat" || fail "xz $n.lat"
	lt report -l -i "$VM/$n.dat" > "$TMPDIR/$n.lat.out" || fail "report -l $n"
	python3 "$TOOLS/compare-report.py" --latency "$k.lat" "$TMPDIR/$n.lat.out" ||
		fail "$n latency format differs"
done
# The kernel's own letters: lazy requests, and ticks upgrading them.
grep -q '^.\{32\}l' "$TMPDIR/lazyvm-hogs.txt" || fail "no 'l' in the kernel's text"
grep -q '^.\{32\}B' "$TMPDIR/lazyvm-hogs.txt" || fail "no 'B' in the kernel's text"
grep -q 'resched_curr <-sched_tick' "$TMPDIR/lazyvm-hogs.txt" || fail "no tick upgrade traced"

lt hogs --json -i "$VM/lazyvm-hogs.dat" > "$TMPDIR/hogs.json" || fail "hogs"
python3 - "$TMPDIR/hogs.json" <<'PY' || fail "hogs are not 66, 67, 68"
import json, sys
h = json.load(open(sys.argv[1]))["hogs"]
assert sorted(x["pid"] for x in h) == [66, 67, 68], h
for x in h:
    assert x["episodes"] > 0 and x["tick_upgrades"] > 0, x
    assert abs(x["cpu_share"] - 0.25) <= 0.05, x
PY

for m in lazy eager; do
	lt stats --json -i "$VM/lazyvm-msg-$m.dat" > "$TMPDIR/$m.json" || fail "stats $m"
done
python3 - "$TMPDIR/lazy.json" "$TMPDIR/eager.json" <<'PY' || fail "eager mode does not preempt 10x more"
import json, sys
lazy, eager = (json.load(open(f))["switches"]["preempted"] for f in sys.argv[1:])
print("preempted: lazy %d, eager %d (%.1fx)" % (lazy, eager, eager / lazy))
assert lazy > 0 and eager >= 10 * lazy
PY
