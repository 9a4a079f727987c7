#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# No invented tick. A trace without tick events (the kernel's text of
# lazy612-hogs with its local timer and hrtimer lines taken out) says the
# tick is unknown, in text and JSON (schema-valid), names no hog and says
# why in one note line; tick-upgrades are still counted, as many as with
# the ticks. --hz N and the HZ a setup line records give the tick; the
# trace with its ticks keeps the tick it measures.
. "$(dirname "$0")/lib.sh"

SCHEMA=$TOP/tests/schema
cd "$TMPDIR" || fail "no TMPDIR"
k=$(kernel_text lazy612-hogs.txt.xz)
grep -v -E ': (local_timer_(entry|exit)|hrtimer_expire_(entry|exit)):' "$k" > notick.txt
[ "$(grep -c -E 'local_timer_entry|hrtimer_expire_entry' "$k")" -gt 1000 ] ||
	fail "the bundled trace should have its ticks"

lt stats -i notick.txt > st.txt || fail "stats"
grep -qx 'tick: unknown, requests: flags' st.txt || fail "stats text: $(grep tick st.txt)"
[ "$(grep -c '^note: .*hog detection needs the tick' st.txt)" = 1 ] ||
	fail "stats: no one-line note on what an unknown tick means"
grep -q 'estimate\|4\.000ms' st.txt && fail "stats invents a tick: $(grep tick st.txt)"

for cmd in stats hogs; do
	lt $cmd --json -i notick.txt > $cmd.json
	python3 "$SCHEMA/tables.py" $cmd.json ||
		fail "$cmd --json does not match docs/json.md"
done
lt stats --json -i "$k" > ticks.json || fail "stats with ticks"
lt stats --json --hz 100 -i notick.txt > hz100.json || fail "stats --hz 100"
python3 - stats.json hogs.json ticks.json hz100.json <<'PY' || fail "JSON"
import json, sys
st, hg, ticks, hz = (json.load(open(p)) for p in sys.argv[1:])
for d in (st, hg):
	assert d["meta"]["tick_ns"] is None and d["meta"]["tick_source"] == "unknown", d["meta"]
assert hg["hogs"] == [], hg["hogs"]
assert not any(t["hog"] for t in st["tasks"])
# the ticks' trace: measured from the tick's timer function, 250 Hz
ticks["meta"]["summary"] = ticks["summary"]
st["meta"]["summary"] = st["summary"]
st, ticks, hz = st["meta"], ticks["meta"], hz["meta"]
assert ticks["tick_source"] == "timer_function", ticks["tick_source"]
assert abs(ticks["tick_ns"] - 4000000) < 40000, ticks["tick_ns"]
# tick-upgrades come from the upgrade events, ticks or not
assert st["summary"]["tick_upgrades"] == ticks["summary"]["tick_upgrades"] > 0
assert hz["tick_ns"] == 10000000 and hz["tick_source"] == "hz_option", hz
PY

# hogs: none, and why (exit 1, one note); with the ticks, the three sh.
lt hogs -i notick.txt > hogs.txt 2> hogs.err
st=$?
[ $st = 1 ] || fail "hogs without a tick exited $st"
grep -q 'no hogs: the tick is unknown' hogs.err || fail "hogs: $(cat hogs.err)"
grep -q '^.*tick unknown (no ticks and no HZ in the trace)' hogs.txt ||
	fail "hogs header: $(head -1 hogs.txt)"
lt hogs --json -i "$k" | python3 -c 'import json,sys; sys.exit(len(json.load(sys.stdin)["hogs"]) != 3)' ||
	fail "the trace with ticks has not its three hogs"

# A setup line with the kernel's HZ, as record and live write it.
{
	sed -n '/^#/p' notick.txt
	echo '       trace-cmd-136     [000] .....     7.261000: tracing_mark_write: lazytrace-setup: release=6.12.0 preempt=lazy hz=300'
	grep -v '^#' notick.txt
} > setup.txt
lt stats --json -i setup.txt | python3 -c '
import json, sys
d = json.load(sys.stdin)["meta"]
assert d["tick_source"] == "setup" and d["tick_ns"] == 3333333, d["tick_ns"]' ||
	fail "the setup line's HZ is not the tick"
# --hz before the setup line: the caller knows better
lt stats --json --hz 1000 -i setup.txt | python3 -c '
import json, sys
d = json.load(sys.stdin)["meta"]
assert d["tick_source"] == "hz_option" and d["tick_ns"] == 1000000, d' ||
	fail "--hz does not override the setup line"

# --hz on every analysis command; a bad one is a usage error.
lt timeline --hz 250 -i notick.txt > /dev/null || fail "timeline --hz"
lt compare --hz 250 notick.txt notick.txt > /dev/null || fail "compare --hz"
lt export --hz 250 --perfetto pf.json -i notick.txt || fail "export --hz"
python3 -c '
import json
d = json.load(open("pf.json"))["otherData"]
assert d["tick_ns"] == 4000000 and d["tick_source"] == "hz_option", d' ||
	fail "export: the tick of --hz"
lt export --perfetto pf.json -i notick.txt || fail "export"
python3 -c '
import json
d = json.load(open("pf.json"))["otherData"]
assert d["tick_ns"] is None and d["tick_source"] == "unknown", d' ||
	fail "export invents a tick"
for bad in 0 25x -4 1e3 100001; do
	expect_exit 2 lt stats --hz "$bad" -i notick.txt 2> /dev/null > /dev/null
	expect_exit 2 lt export --hz "$bad" --perfetto - -i notick.txt 2> /dev/null > /dev/null
done
lt tui --help | grep -q -- '--hz N' || fail "tui takes no --hz"
exit 0
