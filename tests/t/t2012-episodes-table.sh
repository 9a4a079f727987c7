#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The episodes table: one row per hog episode (docs/model.md §7), by the
# rule that counts them. On real recordings, its rows per task are the
# tasks table's episodes and, for each hog, the hogs table's; the columns
# agree with one another; the call sites are the sites table's; every
# format, filter and export has it. Numbers come from the tables only.
. "$(dirname "$0")/lib.sh"

# check FILE [TOTAL]: rows per task and columns; TOTAL: the rows wanted.
check() {
	f=$1
	lt table episodes --csv -i "$f" > "$TMPDIR/ep.csv" || fail "$f: table episodes"
	lt table tasks --idle --csv -i "$f" > "$TMPDIR/tasks.csv" || fail "$f: table tasks"
	lt table hogs --csv -i "$f" > "$TMPDIR/hogs.csv" || fail "$f: table hogs"
	lt table sites --csv -i "$f" > "$TMPDIR/sites.csv" || fail "$f: table sites"
	python3 - "$f" "${2:-}" "$TMPDIR/ep.csv" "$TMPDIR/tasks.csv" \
		"$TMPDIR/hogs.csv" "$TMPDIR/sites.csv" <<'PY' || fail "$f: episodes"
import collections, csv, sys
name, total = sys.argv[1], sys.argv[2]
ep, tasks, hogs, sites = (list(csv.DictReader(open(p))) for p in sys.argv[3:7])
per_task = collections.Counter(r["task_id"] for r in ep)
want = {t["task_id"]: int(t["episodes"]) for t in tasks if int(t["episodes"])}
assert per_task == want, (name, per_task, want)
for h in hogs:
    assert per_task[h["task_id"]] == int(h["episodes"]), (name, h)
assert sum(int(h["episodes"]) for h in hogs) <= len(ep)
if total:
    assert len(ep) == int(total), (name, len(ep), total)
n = lambda r, k: int(r[k]) if r[k] != "" else None
for r in ep:
    since, after, tick = n(r, "since_ns"), n(r, "after_ns"), n(r, "last_tick_ns")
    served, up = n(r, "served_ns"), n(r, "upgrade_ns")
    assert after <= since <= tick, r
    assert 0 < n(r, "pending_ns") <= tick - since, r
    assert n(r, "ticks") >= 1, r
    assert r["how"] in ("preempted", "yielded", "blocked", "cleared",
                        "truncated"), r
    assert (served is None) == (r["how"] == "truncated"), r
    assert (up is None) == (r["upgrade_source"] == ""), r
    if served is not None:
        assert tick <= served, r
        assert n(r, "latency_ns") == served - since, r
        assert n(r, "latency_max_ns") == served - after, r
        if up is not None:
            assert since <= up <= served, r
    else:
        assert r["latency_ns"] == "" and r["latency_max_ns"] == "", r
# a hog's call sites: as many episodes at each as the sites table says
at = collections.Counter((r["task_id"], r["site"]) for r in ep if r["site"])
for s in sites:
    assert at[(s["task_id"], s["function"])] == int(s["episodes"]), (name, s)
print("%s: %d episodes, %d tasks with some, %d hogs, %d with a site" %
      (name, len(ep), len(per_task), len(hogs), sum(at.values())))
PY
}

check "$DATA/lazy612-hogs.dat" 220
check "$(kernel_text lazy612-hogs.txt.xz)" 220
check "$DATA/lazy612-msg-lazy.dat" 15
check "$DATA/lazy612-msg-full.dat" 0
check "$DATA/host618-hogs.dat" 0
check "$DATA/stock/stock72-allevents-arm64.dat" 62
check "$DATA/stock/stock72-lazy-nohrtick-stacks.dat" 269
check "$DATA/vm/lazyvm-hogs-stacks.dat" 251
check "$DATA/vm/lazyvm-msg-lazy.dat" 74

d=$DATA/lazy612-hogs.dat
# The three hogs, each its own rows: the filters work on the table.
for p in 142:73 143:74 144:73; do
	n=$(lt table episodes --csv --pid ${p%:*} -i "$d" | tail -n +2 | wc -l)
	[ "$n" = ${p#*:} ] || fail "--pid ${p%:*}: $n episodes, want ${p#*:}"
done
n=$(lt table episodes --csv --comm 'sh' -i "$d" | tail -n +2 | wc -l)
[ "$n" = 220 ] || fail "--comm sh: $n episodes"
# The hog rules are the analysis' options: a stricter episode, fewer rows,
# still the tasks' count.
lt table episodes --csv --episode-ticks 0.99 -i "$d" > "$TMPDIR/strict.csv" ||
	fail "--episode-ticks"
lt table tasks --csv --episode-ticks 0.99 -i "$d" > "$TMPDIR/strict-tasks.csv" ||
	fail "tasks --episode-ticks"
python3 - "$TMPDIR/strict.csv" "$TMPDIR/strict-tasks.csv" <<'PY' || fail "--episode-ticks 0.99"
import csv, sys
ep, tasks = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
want = sum(int(t["episodes"]) for t in tasks)
assert len(ep) == want and 0 < want < 220, (len(ep), want)
print("--episode-ticks 0.99:", want)
PY

# Every format: the same rows.
lt table episodes --json -i "$d" > "$TMPDIR/ep.json" || fail "--json"
lt table episodes --ndjson -i "$d" > "$TMPDIR/ep.ndjson" || fail "--ndjson"
lt table episodes -i "$d" > "$TMPDIR/ep.txt" || fail "text"
python3 - "$TMPDIR/ep.json" "$TMPDIR/ep.ndjson" <<'PY' || fail "json, ndjson"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["version"] == 3 and len(j["episodes"]) == 220, len(j["episodes"])
nd = [json.loads(l) for l in open(sys.argv[2])]
assert nd == j["episodes"]
r = nd[0]
assert isinstance(r["ticks"], int) and isinstance(r["how"], str), r
assert r["site"] is None, r
PY
[ "$(tail -n +2 "$TMPDIR/ep.txt" | wc -l)" = 220 ] || fail "text: not 220 rows"
head -n 1 "$TMPDIR/ep.txt" | grep -q 'SINCE_NS.*LAST_TICK_NS.*HOW.*SITE' ||
	fail "text header: $(head -n 1 "$TMPDIR/ep.txt")"

# It is listed and documented where the tables are.
lt table --list | grep -q '^episodes$' || fail "table --list: no episodes"
lt table --list --json | python3 -c '
import json, sys
tables = json.load(sys.stdin)["tables"]
cols = [c["name"] for c in tables["episodes"]]
assert cols[:4] == ["pid", "comm", "task_id", "cpu"] and "site" in cols, cols
# a name other tables have keeps its type here
for c in tables["episodes"]:
    for t, other in tables.items():
        for o in other:
            assert o["name"] != c["name"] or o["type"] == c["type"], (c, t, o)' ||
	fail "table --list --json"
grep -q 'episodes' "$TOP/docs/completion/lazytrace" || fail "completion"
grep -q '^\.I episodes' "$TOP/docs/man/lazytrace.1" || fail "lazytrace.1"
grep -q '| `episodes` | `episodes` |' "$TOP/docs/sql.md" || fail "sql.md"

# export: in the database, the CSV and the NDJSON, one row each.
lt export --sqlite "$TMPDIR/all.db" "$d" "$DATA/vm/lazyvm-hogs-stacks.dat" ||
	fail "export --sqlite"
python3 - "$TMPDIR/all.db" <<'PY' || fail "export --sqlite: episodes"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
got = dict(db.execute("SELECT t.path, count(*) FROM episodes e "
                      "JOIN traces t USING (trace_id) GROUP BY t.path"))
got = {k.rsplit("/", 1)[1]: v for k, v in got.items()}
assert got == {"lazy612-hogs.dat": 220, "lazyvm-hogs-stacks.dat": 251}, got
n = db.execute("SELECT count(*) FROM columns WHERE table_name = 'episodes'").fetchone()[0]
assert n >= 15, n
PY
mkdir -p "$TMPDIR/csv" "$TMPDIR/nd"
lt export --csv "$TMPDIR/csv" "$d" || fail "export --csv"
lt export --ndjson "$TMPDIR/nd" "$d" || fail "export --ndjson"
[ "$(tail -n +2 "$TMPDIR/csv/episodes.csv" | wc -l)" = 220 ] || fail "export --csv: episodes.csv"
[ "$(wc -l < "$TMPDIR/nd/episodes.ndjson")" = 220 ] || fail "export --ndjson: episodes.ndjson"

# Standard input cannot be read twice: there the analysis keeps the
# requests a tick saw until the end. The rows are the same.
k=$(kernel_text lazy612-hogs.txt.xz)
for opts in "" "--from 9 --to 10.5 --cpu 1" "--episode-ticks 0.8"; do
	# shellcheck disable=SC2086
	lt table episodes --csv -t $opts -i "$k" > "$TMPDIR/file.csv" ||
		fail "episodes $opts"
	# shellcheck disable=SC2086
	lt table episodes --csv -t $opts -i - < "$k" > "$TMPDIR/stdin.csv" ||
		fail "episodes $opts -i -"
	cmp -s "$TMPDIR/file.csv" "$TMPDIR/stdin.csv" ||
		fail "episodes $opts: a file and standard input differ"
done
# Nor a named pipe: read once, the same rows.
mkfifo "$TMPDIR/fifo" || fail "mkfifo"
cat "$k" > "$TMPDIR/fifo" &
lt table episodes --csv -t -i "$TMPDIR/fifo" > "$TMPDIR/fifo.csv" ||
	fail "episodes from a named pipe"
wait
lt table episodes --csv -t -i "$k" > "$TMPDIR/file.csv" || fail "episodes"
cmp -s "$TMPDIR/file.csv" "$TMPDIR/fifo.csv" ||
	fail "episodes: a file and a named pipe differ"

# Memory: the table adds nothing per episode to what the analysis itself
# holds. On a trace ten times as long (bench/mk-long-text.py), ten times
# the episodes, its peak RSS grows at most 512 KB more than stats' does
# on the same two inputs (the analysis' own growth is t2007's to judge;
# here 1x to 10x moved stats by ~280 KB and the table by ~440 KB).
if [ -x /usr/bin/time ] && [ -z "${LAZYTRACE_WRAP:-}" ] &&
   ! ldd "$LAZYTRACE" 2> /dev/null | grep -q libasan; then
	python3 "$TOP/bench/mk-long-text.py" 10 < "$k" > "$TMPDIR/x10.txt" ||
		fail "mk-long-text.py"
	rss() {	# rss FILE ARGS...: peak RSS in KB of lazytrace ARGS -i FILE
		f=$1
		shift
		/usr/bin/time -f "%M" -o "$TMPDIR/rss" "$LAZYTRACE" "$@" \
			-i "$f" > "$TMPDIR/rows.csv" || fail "$* $f"
		cat "$TMPDIR/rss"
	}
	small=$(rss "$k" table episodes --csv)
	large=$(rss "$TMPDIR/x10.txt" table episodes --csv)
	n=$(tail -n +2 "$TMPDIR/rows.csv" | wc -l)
	[ "$n" = 2200 ] || fail "10x trace: $n episodes, want 2200"
	s_small=$(rss "$k" stats)
	s_large=$(rss "$TMPDIR/x10.txt" stats)
	echo "peak RSS 1x -> 10x: table episodes $small -> $large KB, stats $s_small -> $s_large KB"
	[ $((large - small)) -le $((s_large - s_small + 512)) ] ||
		fail "episodes grow with the trace: $small KB -> $large KB (stats $s_small -> $s_large KB)"
fi
echo ok
