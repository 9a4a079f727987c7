#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lazytrace live --save DIR: every interval is also written as
# DIR/interval-N.dat, and stats on that file finds what live found in
# the interval: the same events, switches, transitions, upgrades by
# source and tick. The kernel's symbols are written once, as
# DIR/kallsyms, not into every interval: report on a saved interval
# names the tick's timer function from it, and the same file copied
# elsewhere, without it, shows the address.
. "$(dirname "$0")/lib.sh"

need_tracefs
command -v python3 > /dev/null || skip "needs python3"

cd "$TMPDIR" || fail "no TMPDIR"
mkdir saved
sh -c 'while :; do :; done' &
loop=$!
trap 'kill $loop 2>/dev/null' EXIT
${LAZYTRACE_WRAP:-} "$LAZYTRACE" live -d 3 --json --rows 1000 --save saved \
	> live.json 2> live.err || { cat live.err; fail "live --save failed"; }
kill $loop
n=$(grep -c '^{"version":3,"interval":{"interval":' live.json)
[ "$n" -ge 2 ] || fail "only $n intervals"
[ "$(ls saved | grep -c '^interval-[0-9]*\.dat$')" = "$n" ] ||
	fail "$n intervals, saved: $(ls saved)"
[ "$(ls saved | grep -vc '^interval-[0-9]*\.dat$')" = 1 ] && [ -s saved/kallsyms ] ||
	fail "not one kallsyms besides the intervals: $(ls saved)"
ksyms=$(stat -c %s saved/kallsyms)
for f in saved/interval-*.dat; do
	[ "$(stat -c %s "$f")" -lt "$ksyms" ] || fail "$f holds the symbols again"
done
"$LAZYTRACE" report -i saved/interval-1.dat | grep -m1 'hrtimer_expire_entry: .*function=' > sym.txt
if [ -s sym.txt ]; then
	# the tick's, or another timer's when the machine is busy: a name
	grep -qE 'function=[A-Za-z_][A-Za-z0-9_.]*( |$)' sym.txt ||
		fail "no symbol from saved/kallsyms: $(cat sym.txt)"
	cp saved/interval-1.dat alone-1.dat
	"$LAZYTRACE" report -i alone-1.dat | grep -m1 'hrtimer_expire_entry: .*function=' |
		grep -q 'function=0x' || fail "a copy without the kallsyms still names it"
else
	echo "note: no hrtimer_expire_entry in interval 1: symbols not checked"
fi
python3 - live.json "$LAZYTRACE" <<'PY' || fail "a saved interval differs from live's"
import json, subprocess, sys
for line in open(sys.argv[1]):
	d = json.loads(line)
	f = "saved/interval-%d.dat" % d["interval"]["interval"]
	out = subprocess.run([sys.argv[2], "stats", "--json", "-i", f],
			     capture_output=True, text=True, check=True).stdout
	s = json.loads(out)
	for k in ("events", "tick_ns", "tick_source", "lost_events"):
		assert d["interval"][k] == s["meta"][k], (f, k, d["interval"][k], s["meta"][k])
	for k, v in s["summary"].items():	# the counts; tasks are records
		assert k in ("tasks", "hogs") or d["summary"][k] == v, (f, k, d["summary"][k], v)
	print("ok:", f, d["interval"]["events"], "events")
PY
# A directory that does not exist yet is made, private; a file or a
# missing parent is exit 2 with its name.
"$LAZYTRACE" live -d 1 --interval 500ms --rows 1 --save fresh > /dev/null 2> err ||
	fail "--save fresh: $(cat err)"
[ "$(stat -c %a fresh)" = 700 ] || fail "--save made fresh mode $(stat -c %a fresh)"
[ -n "$(ls fresh)" ] || fail "--save fresh: nothing saved"
touch afile
"$LAZYTRACE" live -d 1 --save afile > /dev/null 2> err && fail "--save afile accepted"
grep -q "afile is not a directory" err || fail "--save afile: $(cat err)"
"$LAZYTRACE" live -d 1 --save no/such > /dev/null 2> err && fail "--save no/such accepted"
grep -q "cannot make no/such" err || fail "--save no/such: $(cat err)"
# Intervals take units; a bare number is milliseconds; 10ms to 1h.
for i in 500ms 1s 250; do
	"$LAZYTRACE" live -d 0.3 --interval $i --rows 1 > /dev/null 2> err ||
		fail "--interval $i refused: $(cat err)"
done
for i in 5 99999999 2h 1x; do
	"$LAZYTRACE" live -d 0.3 --interval $i > /dev/null 2> err && fail "--interval $i accepted"
	grep -q "bad interval '$i' (10ms to 1h" err || fail "--interval $i: $(cat err)"
done
echo "ok: $n intervals saved and read again"
