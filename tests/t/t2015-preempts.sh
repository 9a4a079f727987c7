#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# lazytrace preempts and the preempts / preempt_groups tables (docs/model.md
# §9) on the bundled recordings: one row per R+ switch of the switches
# table and stats; each row's cost is the preempted task's next switch-in
# in the switches table; the places a stack at the switch gives agree with
# the frames lazytrace report prints after that switch (read here with
# awk); every grouping and the folded stacks add up to the rows; compare's
# breakdown is the two sides' groups.
. "$(dirname "$0")/lib.sh"

# check FILE: rows against the switches table and stats, cost per row
check() {
	f=$1
	lt table preempts --csv -i "$f" > "$TMPDIR/pre.csv" || fail "$f: table preempts"
	lt table switches --csv -i "$f" > "$TMPDIR/sw.csv" || fail "$f: table switches"
	lt stats --json -i "$f" > "$TMPDIR/st.json" || fail "$f: stats"
	python3 - "$f" "$TMPDIR/pre.csv" "$TMPDIR/sw.csv" "$TMPDIR/st.json" <<'PY' || fail "$f: preempts against switches"
import csv, json, sys
name = sys.argv[1]
pre = list(csv.DictReader(open(sys.argv[2])))
sw = list(csv.DictReader(open(sys.argv[3])))
st = json.load(open(sys.argv[4]))
n = lambda r, k: int(r[k]) if r[k] != "" else None
rplus = [s for s in sw if s["prev_state"] == "R+"]
assert len(pre) == len(rplus) == st["summary"]["switches_preempted"], \
    (name, len(pre), len(rplus), st["summary"]["switches_preempted"])
# the switches, in time order, and each R+ switch's row by (cpu, time)
sw.sort(key=lambda s: int(s["ts_ns"]))
rows = {(n(r, "cpu"), n(r, "ts_ns")): r for r in pre}
assert len(rows) == len(pre), name
places = {"user", "syscall", "page_fault", "irq", "softirq", "kthread",
          "kernel", "unknown"}
for i, s in enumerate(sw):
    if s["prev_state"] != "R+":
        continue
    r = rows[(int(s["cpu"]), int(s["ts_ns"]))]
    assert r["pid"] == s["prev_pid"] and r["instead_pid"] == s["next_pid"], (r, s)
    assert r["place"] in places, r
    pid, cpu, ts = int(s["prev_pid"]), int(s["cpu"]), int(s["ts_ns"])
    # its next switch-in, and the tasks switched in where it was before
    back, others = None, 0
    for t in sw[i + 1:]:
        if int(t["next_pid"]) == pid:
            back = t
            break
        if int(t["cpu"]) == cpu and t["next_pid"] != "0":
            others += 1
    if int(s["next_pid"]) != 0:
        others += 1
    if back is None:
        assert r["back_ns"] == r["off_cpu_ns"] == r["others_ran"] == "", r
        continue
    assert n(r, "back_ns") == int(back["ts_ns"]), (name, r, back)
    assert n(r, "back_cpu") == int(back["cpu"]), (name, r, back)
    assert n(r, "off_cpu_ns") == int(back["ts_ns"]) - ts, (name, r)
    assert n(r, "others_ran") == others, (name, r, others)
    if r["waited_ns"] != "":
        assert n(r, "waited_ns") == ts - n(r, "since_ns") >= 0, r
    assert (r["stack"] == "") == (r["site"] == "") == (r["stack_at"] == ""), r
    if r["place_from"] == "stack":
        assert r["stack"] != "", r
PY
}

for f in "$DATA"/*.dat "$DATA"/stock/*.dat "$DATA"/vm/*.dat; do
	check "$f"
done
check "$(kernel_text lazy612-hogs.lat.txt.xz)"

# The same trace as trace.dat and as the kernel's text (microseconds):
# the same rows, the times aside.
for rec in lazy612-msg-lazy lazy612-hogs; do
	lt table preempts --csv -i "$DATA/$rec.dat" > "$TMPDIR/a.csv"
	lt table preempts --csv -i "$(kernel_text $rec.txt.xz)" > "$TMPDIR/b.csv"
	python3 - "$TMPDIR/a.csv" "$TMPDIR/b.csv" <<'PY' || fail "$rec: preempts differ between trace.dat and text"
import csv, sys
times = {"ts_ns", "since_ns", "waited_ns", "back_ns", "off_cpu_ns"}
a, b = ([{k: v for k, v in r.items() if k not in times}
         for r in csv.DictReader(open(p))] for p in sys.argv[1:3])
assert len(a) > 100 and a == b, (len(a), len(b))
PY
done

# Places against the stacks lazytrace report prints after each R+ switch
# (trace-cmd record -T: a stack after every event), read here with awk
# and its own rules: a fault frame is page_fault; else a system call's
# entry is syscall; else kthread under ret_from_fork.
tc=$DATA/vm/lazyvm-tc-stacks.dat
lt report -i "$tc" | awk '
	/sched_switch:/ { if (want) out(); want = / prev_state=R\+ /; sub(/.*\[/, ""); cpu = $1 + 0; fault = sys = kt = 0; frames = 0; next }
	want && /^ => / { frames++; f = $2
		if (f ~ /^(asm_)?exc_page_fault$|^handle_mm_fault$|^do_user_addr_fault$/) fault = 1
		if (f ~ /^do_syscall_64$|^entry_SYSCALL_64/) sys = 1
		if (f == "kthread") kt = 1
		next }
	want && !/^ => / && !/<stack trace>/ { out() }
	function out() { print cpu, (fault ? "page_fault" : sys ? "syscall" : kt ? "kthread" : frames ? "other" : "none"); want = 0 }
	END { if (want) out() }' > "$TMPDIR/awk-places"
lt table preempts --csv -i "$tc" | python3 -c '
import csv, sys
rows = sorted(csv.DictReader(sys.stdin), key=lambda r: int(r["ts_ns"]))
for r in rows:
    print(r["cpu"], r["place"] if r["stack_at"] == "switch" else "none")
' > "$TMPDIR/lt-places"
[ "$(wc -l < "$TMPDIR/awk-places")" -ge 30 ] || fail "tc-stacks: too few R+ switches read"
diff "$TMPDIR/awk-places" "$TMPDIR/lt-places" > "$TMPDIR/places.diff" ||
	{ cat "$TMPDIR/places.diff"; fail "tc-stacks: places differ from the stacks' frames"; }
grep -q page_fault "$TMPDIR/awk-places" || fail "tc-stacks: no page fault among the preemptions"
grep -q syscall "$TMPDIR/awk-places" || fail "tc-stacks: no system call among the preemptions"

# Groups and folded stacks add up, with and without a filter; place and
# cause of the groups are the rows'.
st=$DATA/stock/stock72-lazy-nohrtick-stacks.dat
for filt in "" "--comm dd" "--pid 219,221"; do
	# shellcheck disable=SC2086
	lt table preempts --csv -i "$st" $filt > "$TMPDIR/rows.csv" || fail "rows $filt"
	total=$(($(wc -l < "$TMPDIR/rows.csv") - 1))
	[ "$total" -gt 0 ] || fail "no rows with '$filt'"
	for by in task place cause site stack; do
		# shellcheck disable=SC2086
		lt preempts --csv --by $by -i "$st" $filt > "$TMPDIR/g.csv" || fail "--by $by $filt"
		python3 - "$TMPDIR/g.csv" "$TMPDIR/rows.csv" "$by" "$total" <<'PY' || fail "--by $by $filt: groups"
import collections, csv, sys
g = list(csv.DictReader(open(sys.argv[1])))
rows = list(csv.DictReader(open(sys.argv[2])))
by, total = sys.argv[3], int(sys.argv[4])
assert all(r["by"] == by for r in g), by
assert sum(int(r["preemptions"]) for r in g) == total, (by, total)
key = {"task": "task_id", "place": "place", "cause": "cause", "site": "site"}.get(by)
if key:
    want = collections.Counter(r[key] for r in rows)
    got = {r[key]: int(r["preemptions"]) for r in g}
    assert got == dict(want), (by, got, want)
    off = collections.Counter()
    for r in rows:
        off[r[key]] += int(r["off_cpu_ns"] or 0)
    assert {r[key]: int(r["off_cpu_ns"]) for r in g} == dict(off), by
PY
	done
	# shellcheck disable=SC2086
	lt preempts --folded -i "$st" $filt > "$TMPDIR/folded" || fail "--folded $filt"
	awk -v total="$total" '
		{ n = split($1, f, ";"); if (n < 2 || f[2] !~ /^(user|syscall|page_fault|irq|softirq|kthread|kernel|unknown)$/) bad++; sum += $NF }
		END { if (bad || sum != total) { print "folded:", bad, sum, total; exit 1 } }' \
		"$TMPDIR/folded" || fail "--folded $filt does not add up"
done
lt preempts --folded=off_cpu -i "$st" | grep -q '^dd;page_fault;.*clear_highpages' ||
	fail "no dd page fault stack in --folded=off_cpu"

# The readers' page faults: most of their preemptions, as the README says
# of their hog episodes, and all by the tick.
lt preempts --csv --by place --comm dd -i "$st" > "$TMPDIR/pl.csv"
python3 - "$TMPDIR/pl.csv" <<'PY' || fail "dd readers: places"
import csv, sys
g = {r["place"]: int(r["preemptions"]) for r in csv.DictReader(open(sys.argv[1]))}
assert g.get("page_fault", 0) * 2 > sum(g.values()), g
PY

# compare: each side's breakdown is its groups, the difference B - A
a=$DATA/stock/stock72-lazy-hrtick.dat b=$DATA/stock/stock72-full.dat
lt compare --json "$a" "$b" > "$TMPDIR/cmp.json" || fail "compare --json"
lt preempts --csv --by cause -i "$a" > "$TMPDIR/ca.csv"
lt preempts --csv --by cause -i "$b" > "$TMPDIR/cb.csv"
python3 - "$TMPDIR/cmp.json" "$TMPDIR/ca.csv" "$TMPDIR/cb.csv" <<'PY' || fail "compare's preemptions"
import csv, json, sys
d = json.load(open(sys.argv[1]))["compare_preempts"]
side = [{r["cause"]: int(r["preemptions"]) for r in csv.DictReader(open(p))}
        for p in sys.argv[2:4]]
got = [r for r in d if r["by"] == "cause"]
assert {r["name"] for r in got} == set(side[0]) | set(side[1]), got
for r in got:
    assert r["count_a"] == side[0].get(r["name"], 0), r
    assert r["count_b"] == side[1].get(r["name"], 0), r
    assert r["difference"] == r["count_b"] - r["count_a"], r
for by in ("place", "site"):
    assert sum(r["count_a"] for r in d if r["by"] == by) == sum(side[0].values())
    assert sum(r["count_b"] for r in d if r["by"] == by) == sum(side[1].values())
# lazy with HRTICK: the slice timer's upgrades; full: eager requests
assert side[0].get("hrtick", 0) * 2 > sum(side[0].values()), side[0]
assert side[1].get("eager", 0) * 2 > sum(side[1].values()), side[1]
PY
lt compare "$a" "$b" | grep -q '^preemptions (R+)' || fail "compare text: no preemptions"

# Nothing to find, and mistakes
expect_exit 1 lt preempts -i "$DATA/stock/stock72-probes-x86.dat" > /dev/null 2>&1
expect_exit 2 lt preempts --by nowhere -i "$st" > /dev/null 2>&1
expect_exit 2 lt preempts --folded --json -i "$st" > /dev/null 2>&1
expect_exit 2 lt preempts --folded=weight -i "$st" > /dev/null 2>&1
lt preempts --by nowhere -i "$st" 2>&1 | grep -q "bad --by 'nowhere'" || fail "--by's message"
exit 0
