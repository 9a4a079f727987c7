#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# export --sqlite / --ndjson / --csv on the bundled recordings (trace.dat
# and the kernel's text of the same buffers):
#  - the database's counts equal `stats --json` (transitions by kind, per
#    task) and every table equals `lazytrace table` on the same trace,
#    row for row in the aggregate tables, in count in the streamed ones;
#  - the schema is the library's (`table --list --json`), with trace_id,
#    the table traces and the table columns; the indexes exist;
#  - a hundred traces in one database answer one GROUP BY query;
#  - a trace that cannot be read is named, left out whole, the others
#    written, exit 2; the run options apply to every trace;
#  - NDJSON and CSV directories hold the table command's rows, each led
#    by its trace.
. "$(dirname "$0")/lib.sh"

command -v sqlite3 > /dev/null ||
	skip "no sqlite3 command (Debian's sqlite3, in make deps)"
cd "$TMPDIR" || fail "cd $TMPDIR"

files=""
for r in $RECORDINGS; do
	files="$files $DATA/$r.dat $(kernel_text $r.txt.xz)"
done

lt export --sqlite all.db $files 2> err || fail "export --sqlite: $(cat err)"
[ ! -s err ] || fail "export --sqlite said: $(cat err)"

# What the other commands say about each trace.
i=0
for f in $files; do
	i=$((i + 1))
	lt stats -i "$f" --json > stats.$i.json || fail "stats $f"
	lt table meta summary tasks hogs sites stacks latency lost "$f" \
		--json > tables.$i.json || fail "table $f"
	echo "$i $f" >> list
done

lt table --list --json > list.json || fail "table --list"
python3 - all.db list list.json <<'PY' || fail "the database against stats, table and the schema"
import json, sqlite3, sys

db = sqlite3.connect(sys.argv[1])
traces = [l.split(None, 1) for l in open(sys.argv[2]).read().splitlines()]

def rows(sql, *args):
    return db.execute(sql, args).fetchall()

def same(a, b, what):
    if isinstance(a, float) or isinstance(b, float):
        ok = a is not None and b is not None and \
            abs(a - b) <= 1e-5 * max(abs(a), abs(b), 1e-9)
    else:
        ok = a == b
    assert ok, f"{what}: database {a!r}, command {b!r}"

def sql_value(v):
    return int(v) if isinstance(v, bool) else v

def table_rows(name, tid):
    cur = db.execute(f'SELECT * FROM "{name}" WHERE trace_id = ? '
                     f'ORDER BY rowid', (tid,))
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur]

kinds = {"lazy": "lazy", "eager": "eager", "tick-upgrade": "tick_upgrades",
         "fold": "folds", "preempted": "preempted", "yielded": "yielded",
         "blocked": "blocked", "cleared": "cleared", "truncated": "truncated"}
assert rows("SELECT count(*) FROM traces")[0][0] == len(traces)
for tid, path in traces:
    tid = int(tid)
    stats = json.load(open(f"stats.{tid}.json"))
    tables = json.load(open(f"tables.{tid}.json"))
    tr = table_rows("traces", tid)
    assert len(tr) == 1, (path, tr)
    same(tr[0]["path"], path, "traces.path")
    for k, v in tables["meta"].items():
        same(tr[0][k], sql_value(v), f"{path}: traces.{k}")
    same(tr[0]["events"], stats["meta"]["events"], f"{path}: events")

    # the one-row and aggregate tables: every row, every cell
    for name in ("summary", "tasks", "hogs", "sites", "stacks", "latency",
                 "lost"):
        want = tables[name]
        want = [want] if isinstance(want, dict) else want
        got = table_rows(name, tid)
        assert len(got) == len(want), (path, name, len(got), len(want))
        for g, w in zip(got, want):
            assert set(g) == {"trace_id"} | set(w), (name, set(g) ^ set(w))
            for k, v in w.items():
                same(g[k], sql_value(v), f"{path}: {name}.{k}")

    # the streamed transitions against stats: by kind, and per task
    by_kind = dict(rows("SELECT kind, count(*) FROM transitions "
                        "WHERE trace_id = ? GROUP BY kind", tid))
    for kind, key in kinds.items():
        same(by_kind.get(kind, 0), stats["summary"][key],
             f"{path}: transitions {kind}")
    summary = tables["summary"]
    # upgrades count the tick's too, in every output
    ups = by_kind.get("upgrade", 0) + by_kind.get("tick-upgrade", 0)
    same(ups, summary["upgrades"], f"{path}: upgrades")
    same(ups, stats["summary"]["upgrades"], f"{path}: upgrades")
    per_task = {}
    for task, kind, n in rows("SELECT task_id, kind, count(*) FROM "
                              "transitions WHERE trace_id = ? AND pid != 0 "
                              "GROUP BY 1, 2", tid):
        per_task.setdefault(task, {})[kind] = n
    db_tasks = {t["task_id"]: t for t in table_rows("tasks", tid)}
    assert set(db_tasks) == {t["task_id"] for t in stats["tasks"]}, path
    assert set(per_task) <= set(db_tasks), path
    for t in stats["tasks"]:
        d = db_tasks[t["task_id"]]
        same(d["pid"], t["pid"], f"{path}: task {t['task_id']} pid")
        same(d["comm"], t["comm"], f"{path}: task {t['task_id']} comm")
        mine = per_task.get(t["task_id"], {})
        for kind, key in kinds.items():
            same(d[key], t[key], f"{path}: task {t['task_id']} {key}")
            same(mine.get(kind, 0), t[key],
                 f"{path}: task {t['task_id']} transitions {kind}")
        same(d["upgrades"], t["upgrades"], f"{path}: task {t['task_id']} upgrades")
        same(mine.get("upgrade", 0) + mine.get("tick-upgrade", 0),
             t["upgrades"], f"{path}: task {t['task_id']} transitions upgrade")
    # requests and switches against the summary
    by_kind = dict(rows("SELECT kind, count(*) FROM requests "
                        "WHERE trace_id = ? GROUP BY kind", tid))
    same(by_kind.get("lazy", 0), summary["lazy"], f"{path}: lazy requests")
    same(by_kind.get("eager", 0), summary["eager"], f"{path}: eager requests")
    by_how = dict(rows("SELECT how, count(*) FROM switches "
                       "WHERE trace_id = ? GROUP BY how", tid))
    for how in ("preempted", "yielded", "blocked"):
        same(by_how.get(how, 0), summary["switches_" + how],
             f"{path}: switches {how}")
print(f"{len(traces)} traces: every table equal")

# The schema is the library's: each table, each column, in order, with
# trace_id first (and path in traces); the columns table says the same.
lib = json.load(open(sys.argv[3]))["tables"]
sql = {"int": "INTEGER", "uint": "INTEGER", "bool": "INTEGER",
       "timestamp": "INTEGER", "duration": "INTEGER", "double": "REAL",
       "string": "TEXT"}
names = {r[0] for r in db.execute("SELECT name FROM sqlite_master "
                                  "WHERE type = 'table'")}
want = {"traces" if t == "meta" else t for t in lib if t != "events"}
assert names == want | {"columns"}, names ^ (want | {"columns"})
for t, cols in lib.items():
    if t == "events":
        continue
    name = "traces" if t == "meta" else t
    info = db.execute(f'PRAGMA table_info("{name}")').fetchall()
    lead = [("trace_id", "INTEGER")] + ([("path", "TEXT")] if t == "meta"
                                         else [])
    exp = lead + [(c["name"], sql[c["type"]]) for c in cols]
    assert [(r[1], r[2]) for r in info] == exp, (name, info)
    doc = db.execute("SELECT name, type, sql_type, unit, doc FROM columns "
                     "WHERE table_name = ? ORDER BY rowid", (name,)).fetchall()
    assert [(d[0], d[2]) for d in doc] == exp, (name, doc)
    assert [(d[1], d[3], d[4]) for d in doc[len(lead):]] == \
        [(c["type"], c["unit"], c["doc"]) for c in cols], name
    idx = {r[1] for r in db.execute(f'PRAGMA index_list("{name}")')}
    have = {c["name"] for c in cols}
    for col in ("trace_id", "pid", "comm"):
        if t != "meta" and (col == "trace_id" or col in have):
            assert f"{name}_{col}" in idx, (name, col, idx)
plan = " ".join(r[3] for r in db.execute(
    "EXPLAIN QUERY PLAN SELECT count(*) FROM requests WHERE pid = 142"))
assert "requests_pid" in plan, plan
print("schema: the library's")
PY

[ "$(sqlite3 all.db 'PRAGMA user_version')" = 3 ] || fail "user_version"

# Private unless asked otherwise: stacks may hold kernel addresses.
[ "$(stat -c %a all.db)" = 600 ] || fail "all.db is $(stat -c %a all.db)"
(umask 022; lt export --sqlite wr.db --world-readable "$DATA/lazy612-hogs.dat") ||
	fail "--world-readable"
[ "$(stat -c %a wr.db)" = 644 ] || fail "wr.db is $(stat -c %a wr.db)"

# A hundred traces, the same three many times (the kernel's text cut to
# its first lines, each still a trace), into one database and one query.
i=0
for r in lazy612-hogs host618-hogs lazy612-msg-lazy; do
	i=$((i + 1))
	head -n 4000 "$(kernel_text $r.txt.xz)" > small$i.txt
	lt table requests small$i.txt --csv > req$i.csv || fail "table small$i"
done
mkdir fleet
n=0
while [ $n -lt 100 ]; do
	n=$((n + 1))
	ln -s ../small$((n % 3 + 1)).txt fleet/host$n.txt
done
lt export --sqlite fleet.db fleet/*.txt || fail "export of 100 traces"
sqlite3 -csv fleet.db "SELECT comm, count(*) FROM requests GROUP BY comm
	ORDER BY comm" > fleet.csv || fail "the query"
python3 - fleet.csv req1.csv req2.csv req3.csv <<'PY' || fail "100 traces"
import collections, csv, sys
got = {r[0]: int(r[1]) for r in csv.reader(open(sys.argv[1]))}
want = collections.Counter()
# host1..host100: n % 3 + 1 -> small1 34 times, small2 33, small3 33
times = {1: 33, 2: 34, 3: 33}
for i, f in enumerate(sys.argv[2:], 1):
    for r in csv.DictReader(open(f)):
        want[r["comm"]] += times[i]
assert got == dict(want), (got, dict(want))
print(f"100 traces: {sum(got.values())} requests of {len(got)} comms")
PY
[ "$(sqlite3 fleet.db 'SELECT count(*) FROM traces')" = 100 ] ||
	fail "fleet.db: not 100 traces"

# Bad traces among good ones: each named on one line, left out whole;
# the good ones are written as if alone. midbad.txt fails half-way.
k=$(kernel_text lazy612-hogs.txt.xz)
awk 'NR == 5000 { print "garbage, not a trace line" } { print }' "$k" > midbad.txt
echo "not a trace" > junk.txt
good="$DATA/lazy612-hogs.dat small2.txt"
lt export --sqlite good.db $good || fail "export of the good ones"
lt export --sqlite mixed.db "$DATA/lazy612-hogs.dat" midbad.txt junk.txt \
	small2.txt 2> err
[ $? = 2 ] || fail "a bad trace among good ones: not exit 2"
[ "$(wc -l < err)" = 2 ] || fail "not one line per bad trace: $(cat err)"
grep -q 'midbad.txt: line 5000' err || fail "midbad.txt not named: $(cat err)"
grep -q 'junk.txt' err || fail "junk.txt not named: $(cat err)"
[ "$(sqlite3 mixed.db 'SELECT group_concat(trace_id) FROM traces')" = 1,4 ] ||
	fail "trace ids: $(sqlite3 mixed.db 'SELECT trace_id FROM traces')"
for t in transitions requests switches tasks summary latency; do
	a=$(sqlite3 good.db "SELECT trace_id, count(*) FROM $t GROUP BY 1")
	b=$(sqlite3 mixed.db "SELECT trace_id, count(*) FROM $t GROUP BY 1" |
		sed 's/^4|/2|/')
	[ "$a" = "$b" ] || fail "$t: alone '$a', among bad ones '$b'"
done
# Nothing readable: exit 2 and no database.
lt export --sqlite none.db junk.txt 2> /dev/null
[ $? = 2 ] || fail "only a bad trace: not exit 2"
[ ! -e none.db ] || fail "only a bad trace: a database was made"
ls | grep -q 'none.db.' && fail "a temporary file was left: $(ls)"
lt export --ndjson none junk.txt 2> /dev/null
[ $? = 2 ] && [ ! -e none ] || fail "only a bad trace: --ndjson made none/"

# A trace with no event is written (its traces row) with a note; with
# no event in any trace, the exit status is 1.
grep '^#' "$k" > header.txt
lt export --sqlite e.db header.txt 2> err
[ $? = 1 ] && [ "$(cat err)" = "lazytrace export: note: header.txt: no events" ] ||
	fail "a trace of no event: $(cat err)"
[ "$(sqlite3 e.db 'SELECT path, events FROM traces')" = "header.txt|0" ] ||
	fail "e.db: $(sqlite3 e.db 'SELECT * FROM traces')"
lt export --sqlite e.db header.txt small1.txt 2> err || fail "header.txt and small1.txt"

# trace.dat files cut short: read up to the cut, one warning each, exit
# 3; their rows are those of the file of their whole pages (cut-dat.py).
trace-cmd convert -i "$DATA/lazy612-hogs.dat" --file-version 6 -o v6.dat \
	> /dev/null 2>&1 || fail "trace-cmd convert"
set -- $(python3 -c '
import sys; sys.path.insert(0, sys.argv[1])
cut = __import__("cut-dat")
d = open(sys.argv[2], "rb").read()
print(" ".join("%d %d" % c for c in cut.cpu_table(d)[1]))' "$TOOLS" v6.dat)
python3 "$TOOLS/cut-dat.py" v6.dat cut1.dat ref1.dat $(($1 + $2 - 4096)) > /dev/null &&
python3 "$TOOLS/cut-dat.py" v6.dat cut2.dat ref2.dat $(($3 + 4096)) > /dev/null ||
	fail "cut-dat.py"
lt export --sqlite cut.db cut1.dat small1.txt cut2.dat 2> err
[ $? = 3 ] || fail "cut traces: not exit 3: $(cat err)"
[ "$(grep -c 'truncated trace.dat' err)" = 2 ] && grep -q cut1.dat err &&
	grep -q cut2.dat err && [ "$(wc -l < err)" = 2 ] || fail "cut traces: $(cat err)"
lt export --sqlite ref.db ref1.dat small1.txt ref2.dat || fail "ref traces"
for t in transitions requests switches tasks latency; do
	a=$(sqlite3 ref.db "SELECT trace_id, count(*) FROM $t GROUP BY 1")
	b=$(sqlite3 cut.db "SELECT trace_id, count(*) FROM $t GROUP BY 1")
	[ "$a" = "$b" ] || fail "$t: cut '$b', whole pages '$a'"
done

# The run options apply to every trace: rows of pid 142 in its window.
lt export --sqlite f.db --pid 142,143 --from 8 --to 10 \
	"$DATA/lazy612-hogs.dat" "$(kernel_text lazy612-hogs.txt.xz)" ||
	fail "export with filters"
for tid in 1 2; do
	f=$(sqlite3 f.db "SELECT path FROM traces WHERE trace_id = $tid")
	for t in transitions requests tasks; do
		want=$(lt table $t "$f" --pid 142,143 --from 8 --to 10 --csv |
			tail -n +2 | wc -l)
		got=$(sqlite3 f.db "SELECT count(*) FROM $t WHERE trace_id = $tid")
		[ "$got" = "$want" ] || fail "$f: $t: $got rows, table says $want"
		[ "$want" -gt 0 ] || fail "$f: $t: no row to compare"
	done
done
[ "$(sqlite3 f.db "SELECT count(*) FROM transitions WHERE pid NOT IN (142, 143)
	OR ts_ns < 8000000000 OR ts_ns > 10000000000")" = 0 ] || fail "filters not applied"

# --events: every event, one row each.
lt export --sqlite ev.db --events small1.txt small2.txt || fail "--events"
for tid in 1 2; do
	want=$(lt table events small$tid.txt --csv | tail -n +2 | wc -l)
	got=$(sqlite3 ev.db "SELECT count(*) FROM events WHERE trace_id = $tid")
	m=$(sqlite3 ev.db "SELECT events FROM traces WHERE trace_id = $tid")
	[ "$got" = "$want" ] && [ "$got" = "$m" ] ||
		fail "events of small$tid: $got rows, table $want, meta $m"
done

# docs/sql.md: its list of tables names every table of a database with
# --events, and no other; every column name works unquoted; its example
# queries run. (docs/json.md lists the columns: t2011.)
python3 - ev.db "$TOP/docs/sql.md" <<'PY' || fail "docs/sql.md"
import re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
doc = open(sys.argv[2]).read()
sec = doc[doc.index("## The tables"):]
listed = set(re.findall(r"^\| (?:`\w+` )?\| `(\w+)`", sec, re.M))
have = set()
for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
    have.add(t)
    for r in db.execute(f"PRAGMA table_info({t})"):
        db.execute(f"SELECT {r[1]} FROM {t} LIMIT 0")
assert listed == have, f"docs/sql.md lists {sorted(listed)}, the database has {sorted(have)}"
ex = doc[doc.index("## Questions, answered"):doc.index("## The tables")]
queries = re.findall(r"\n((?:    .*\n)+)", ex)
assert len(queries) == 3, queries
for q in queries:
    db.execute(q).fetchall()
print(f"docs/sql.md: {len(have)} tables, {len(queries)} queries")
PY

# NDJSON and CSV: the table command's rows, each led by its trace; the
# rows of a bad trace are cut off again.
set -- "$DATA/lazy612-hogs.dat" small1.txt small2.txt small3.txt
lt export --ndjson nd "$@" || fail "export --ndjson"
lt export --csv cs "$@" || fail "export --csv"
lt export --csv cs2 "$1" midbad.txt small1.txt small2.txt junk.txt small3.txt \
	2> /dev/null
[ $? = 2 ] || fail "--csv with bad traces: not exit 2"
for t in meta summary transitions requests switches tasks hogs sites stacks \
	 latency lost; do
	: > want.$t
	for f in "$@"; do
		lt table $t "$f" --csv | tail -n +2 | sed "s|^|$f,|" >> want.$t
	done
	tail -n +2 cs/$t.csv > got.csv
	cmp -s want.$t got.csv || fail "cs/$t.csv differs from the table command"
	cmp -s cs/$t.csv cs2/$t.csv || fail "cs2/$t.csv: a bad trace left rows"
	[ "$(wc -l < nd/$t.ndjson)" = "$(wc -l < want.$t)" ] ||
		fail "nd/$t.ndjson: $(wc -l < nd/$t.ndjson) rows, want $(wc -l < want.$t)"
done
python3 - nd "$@" <<'PY' || fail "ndjson rows"
import json, sys
order = sys.argv[2:]
for t in ("transitions", "tasks", "meta"):
    seen = []
    for line in open(f"{sys.argv[1]}/{t}.ndjson"):
        row = json.loads(line)
        assert list(row)[0] == "trace", row
        if not seen or seen[-1] != row["trace"]:
            seen.append(row["trace"])
    assert seen == order, (t, seen)
PY
# Mistakes: exit 2, the mistake on one line and the hint, nothing made.
usage() {
	lt export "$@" > out 2> err < /dev/null
	[ $? = 2 ] || fail "'export $*': not exit 2"
	[ "$(wc -l < err)" = 2 ] && [ "$(sed -n 2p err)" = "try 'lazytrace export --help'" ] ||
		fail "'export $*': $(cat err)"
	grep -q -- "$pattern" err || fail "'export $*': $(head -n 1 err)"
	[ ! -e u.db ] && [ ! -e ud ] || fail "'export $*' made an output"
}
f=small1.txt
pattern='one output at a time';	usage --sqlite u.db --perfetto p.json "$f"
pattern='one output at a time';	usage --perfetto p.json --csv ud "$f"
pattern='--sqlite given twice';	usage --sqlite u.db --sqlite u.db "$f"
pattern='not standard output';	usage --sqlite - "$f"
pattern='standard input';	usage --sqlite u.db -
pattern='--no-addresses is for --perfetto'; usage --ndjson ud --no-addresses "$f"
pattern='--events is for';	usage --perfetto p.json --events -i "$f"
pattern='--pid is not for --perfetto'; usage --perfetto p.json --pid 1 -i "$f"
pattern='--hog-episodes is not for --perfetto'; usage --perfetto p.json --hog-episodes 2 -i "$f"
pattern='pid given twice';	usage --sqlite u.db --pid 1 --pid 2 "$f"
pattern='bad --from';		usage --csv ud --from soon "$f"
[ ! -e p.json ] || fail "a usage error made p.json"
# --perfetto cuts as the tables do: only CPU 1's track, every event in
# the window, and the transitions table's upgrades and folds of the cut.
h=$DATA/lazy612-hogs.dat
lt export --perfetto cut.json --cpu 1 --from 7.6 --to 7.7 "$h" ||
	fail "export --perfetto with a cut"
lt table transitions "$h" --cpu 1 --from 7.6 --to 7.7 --csv > cut.csv ||
	fail "table transitions with the cut"
python3 - cut.json cut.csv <<'PY' || fail "--perfetto's cut"
import csv, json, sys
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] != "M"]
run = [e for e in ev if e.get("cat") == "running"]
assert run and {e["tid"] for e in run} == {1073741824 + 1}, {e["tid"] for e in run}
assert all(7.6e6 <= e["ts"] and e["ts"] + e.get("dur", 0) <= 7.7e6 for e in ev), \
    min(e["ts"] for e in ev)
# its instants: each upgrade and fold of the transitions table
kinds = ("upgrade", "tick-upgrade", "fold")
up = sorted(e["name"] for e in ev if e.get("cat") == "transition")
rows = sorted(r["kind"] for r in csv.DictReader(open(sys.argv[2]))
              if r["kind"] in kinds)
assert up == rows and up, (up, rows)
print("perfetto cut: %d events, %d upgrades and folds, CPU 1 only" % (len(ev), len(up)))
PY
# A CPU the trace lacks is that trace's mistake: named, nothing readable.
lt export --sqlite u.db --cpu 5 "$f" 2> err
[ $? = 2 ] && grep -q -- "--cpu.* 5.*$f" err && [ ! -e u.db ] ||
	fail "--cpu 5: $(cat err)"
: > notadir
lt export --csv notadir "$f" 2> err
[ $? = 2 ] && grep -q "notadir.*not a directory" err || fail "--csv onto a file: $(cat err)"
echo "ok"
exit 0
