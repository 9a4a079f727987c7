#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The KernelShark plugin in a real window (Xvfb): KernelShark opens
# lazy612-hogs.dat once without the plugin and once with it. With it,
# the plugin's counts (LAZYTRACE_KSHARK_LOG) equal `lazytrace stats
# --json` and `hogs --json`, it drew every row of `lazytrace table
# episodes` as a hog frame (220), on the CPU graphs and each hog's task graph,
# the screenshot has the plugin's colours (and the one without has
# none), a double click on an upgrade marker puts the library's latency
# in KernelShark's information line, and KernelShark printed nothing it
# does not print without the plugin.
. "$(dirname "$0")/lib.sh"

# make deps installs all of it; only a non-root run may lack it.
missing=
for p in kernelshark Xvfb xwd convert xdotool python3; do
	command -v $p >/dev/null 2>&1 || missing="$missing $p"
done
plugin=${BUILD:-$TOP/build}/plugin-lazytrace.so
[ -f "$plugin" ] || missing="$missing plugin-lazytrace.so(libkshark-dev)"
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] && fail "missing:$missing (make deps installs them)"
	skip "missing:$missing; run make deps as root"
fi

# make asan builds the plugin with the sanitizers: their runtimes must
# come first in KernelShark, which is not built with them. Qt's own
# leaks at exit are not ours (and KernelShark is killed, not closed).
preload=
if readelf -d "$plugin" | grep -q 'NEEDED.*libasan'; then
	preload="$(${CC:-cc} -print-file-name=libasan.so) $(${CC:-cc} -print-file-name=libubsan.so)"
fi
# make asan's slow unwinder at every malloc would make Qt crawl.
ks_asan=${ASAN_OPTIONS:-}
[ -z "$preload" ] || ks_asan=detect_leaks=0
# Tenths of a second to wait for a window, for a drawing: KernelShark
# takes seconds to load on a busy machine, many more under the sanitizers.
limit=600
[ -z "$preload" ] || limit=3000

f=$DATA/lazy612-hogs.dat
W=$TMPDIR/kshark
mkdir -p "$W/cache"
# No "running as root" dialog, and no session of an earlier run.
printf '[General]\nnoRootWarn=true\n' > "$W/cache/setting.ini"
export KS_USER_CACHE_DIR=$W/cache XDG_RUNTIME_DIR=$W
chmod 700 "$W"

Xvfb -displayfd 3 -screen 0 1280x900x24 -nolisten tcp -noreset 3>"$W/display" \
	>"$W/xvfb.log" 2>&1 &
xvfb=$!
ks=
cleanup() {
	[ -n "$ks" ] && kill "$ks" 2>/dev/null
	kill "$xvfb" 2>/dev/null
}
trap cleanup EXIT
i=0
until [ -s "$W/display" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "Xvfb did not start: $(cat "$W/xvfb.log")"
	sleep 0.1
done
export DISPLAY=:$(cat "$W/display")

# run NAME [ARGS]: KernelShark on $f, its window made large; returns
# when it has drawn (the plugin's log says so, or 8 s without plugin).
run() {
	name=$1
	shift
	LD_PRELOAD=$preload ASAN_OPTIONS=$ks_asan \
		kernelshark -i "$f" "$@" >"$W/$name.out" 2>&1 &
	ks=$!
	i=0
	until win=$(xdotool search --name 'Kernel Shark \(' 2>/dev/null | head -n 1) &&
	      [ -n "$win" ]; do
		i=$((i + 1))
		[ $i -lt $limit ] || fail "$name: no KernelShark window: $(cat "$W/$name.out")"
		kill -0 $ks 2>/dev/null || fail "$name: KernelShark died: $(cat "$W/$name.out")"
		sleep 0.1
	done
	xdotool windowsize "$win" 1280 900 windowmove "$win" 0 0
	sleep 3
	if [ -n "${LAZYTRACE_KSHARK_LOG:-}" ]; then
		i=0
		until grep -q '^drew cpu' "$LAZYTRACE_KSHARK_LOG" 2>/dev/null; do
			i=$((i + 1))
			[ $i -lt $limit ] || fail "$name: the plugin drew nothing: $(cat "$W/$name.out")"
			sleep 0.1
		done
		sleep 2
	fi
	xwd -root -silent | convert xwd:- "$W/$name.png" ||
		fail "$name: no screenshot"
}

stop() {
	kill "$ks" 2>/dev/null
	wait "$ks" 2>/dev/null
	ks=
}

run stock
stop

log=$W/plugin.log
export LAZYTRACE_KSHARK_LOG=$log
# The hogs of this trace are all "sh": their task graphs too.
run plugin -p "$plugin" --task sh
# KSHARK_SHOT=FILE keeps the screenshot (docs/kshark.png is one).
[ -z "${KSHARK_SHOT:-}" ] || cp "$W/plugin.png" "$KSHARK_SHOT"

# The counts: the library's, as the CLI prints them.
lt stats --json -i "$f" > "$W/stats.json" || fail "stats --json"
lt hogs --json -i "$f" > "$W/hogs.json" || fail "hogs --json"
# The episodes: the library's table, one row each.
lt table episodes --csv -i "$f" > "$W/episodes.csv" || fail "table episodes"
python3 - "$log" "$W/stats.json" "$W/hogs.json" "$W/episodes.csv" <<'EOF' || fail "counts differ"
import csv, json, sys
log, st, hg = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
rows = list(csv.DictReader(open(sys.argv[4])))
per_pid = {}
for r in rows:
    per_pid[int(r["pid"])] = per_pid.get(int(r["pid"]), 0) + 1
kv, drew, tasks = {}, {}, {}
for line in open(log):
    w = line.split()
    if w[0] == "drew":
        (drew if w[1] == "cpu" else tasks)[int(w[2])] = \
            (int(w[4]), int(w[6]), int(w[8]))
    elif len(w) == 2 and w[0] != "loaded":
        kv[w[0]] = int(w[1])
tr = st["summary"]
ep = sum(h["episodes"] for h in hg["hogs"])
want = {
    "lazy_spans": tr["lazy"],
    "eager_spans": tr["eager"] + tr["upgrades"],
    "markers": tr["upgrades"],
    "hogs": len(hg["hogs"]),
    "hog_episodes": ep,
    "tick_ns": st["meta"]["tick_ns"],
}
for src in ("tick", "hrtick", "timer", "irq", "direct"):
    want["markers_" + src] = tr["upgrades_" + src]
bad = 0
for k, v in want.items():
    got = kv.get(k)
    print(f"{k:16} plugin {got} lazytrace {v}")
    if got != v:
        bad = 1
# Episode frames: the rows of the library's episodes table, exactly,
# and as many as the hogs report counts.
eb = kv.get("episode_spans", -1)
print(f"episode_spans    plugin {eb} rows {kv.get('episode_rows')} "
      f"table episodes {len(rows)} hogs' episodes {ep}")
if not (len(rows) > 0 and eb == len(rows) == kv.get("episode_rows") == ep):
    bad = 1
# The whole trace is in view at first: every episode box was drawn, on
# the CPU graphs together, and both CPUs got spans.
print("drawn per cpu (spans, markers, episodes):", drew)
if sorted(drew) != list(range(st["meta"]["nr_cpus"])) or \
   sum(d[2] for d in drew.values()) != eb or \
   not all(d[0] > 0 for d in drew.values()) or \
   sum(d[1] for d in drew.values()) == 0:
    bad = 1
# Each hog's task graph: its upgrades (one marker a pixel column at
# most) and its episodes, the table's rows of that task.
print("drawn per task (spans, markers, episodes):", tasks)
for h in hg["hogs"]:
    t = next(t for t in st["tasks"] if t["pid"] == h["pid"])
    d = tasks.get(h["pid"])
    print(f"hog {h['pid']}: drawn {d}, upgrades {t['upgrades']}, "
          f"episodes {h['episodes']}, table rows {per_pid.get(h['pid'])}")
    if not d or not 0 < d[1] <= t["upgrades"] or d[0] == 0 or \
       d[2] != per_pid.get(h["pid"]) or d[2] != h["episodes"]:
        bad = 1
sys.exit(bad)
EOF

# The plugin's colours: lazy, eager, hog episode, tick marker. They are
# there with the plugin, and not without.
colours() {
	convert "$1" rgb:- | python3 -c '
import sys
d = sys.stdin.buffer.read()
want = {(255, 204, 0): "lazy", (220, 0, 0): "eager",
        (204, 0, 204): "episode", (0, 0, 230): "tick"}
n = dict.fromkeys(want.values(), 0)
for i in range(0, len(d) - 2, 3):
    k = want.get((d[i], d[i + 1], d[i + 2]))
    if k:
        n[k] += 1
print(" ".join(f"{k}={v}" for k, v in n.items()))'
}
with=$(colours "$W/plugin.png")
without=$(colours "$W/stock.png")
echo "pixels with plugin: $with"
echo "pixels without: $without"
for k in lazy eager episode tick; do
	n=$(echo "$with" | tr ' ' '\n' | sed -n "s/^$k=//p")
	[ "$n" -ge 20 ] || fail "screenshot: $n $k pixels"
	n=$(echo "$without" | tr ' ' '\n' | sed -n "s/^$k=//p")
	[ "$n" -lt 20 ] || fail "screenshot without the plugin has $n $k pixels"
done

# Double-click a marker (a pixel of the tick's colour): KernelShark marks
# its entry, and the information line shows the library's latency.
xy=$(convert "$W/plugin.png" rgb:- | python3 -c '
import sys
d, w = sys.stdin.buffer.read(), 1280
for i in range(0, len(d) - 2, 3):
    if (d[i], d[i + 1], d[i + 2]) == (0, 0, 230):
        p = i // 3
        print(p % w, p // w + 1)
        break')
[ -n "$xy" ] || fail "no tick marker to click"
# The table asks for the info of the rows it shows too: only what
# comes after the click counts, and every such line must be right.
n0=$(grep -c '^info ' "$log")
xdotool mousemove $xy click --repeat 2 --delay 80 1
i=0
until [ "$(grep -c '^info ' "$log")" -gt "$n0" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "double click on a marker ($xy): no information line"
	sleep 0.1
done
sleep 1
grep '^info ' "$log" | tail -n +$((n0 + 1)) | sort -u > "$W/info"
head -n 3 "$W/info"
# info CPU TS [lazytrace: KIND by SOURCE, REQUEST request pending X ms...
# The same upgrades, with their source and latency, in `lazytrace timeline`.
lt timeline --json --kind upgrade,tick-upgrade -i "$f" > "$W/timeline.json" ||
	fail "timeline --json"
python3 - "$W/timeline.json" "$W/info" <<'EOF' || fail "information line"
import json, sys, re
tl = {(r["cpu"], r["ts_ns"]): r for r in json.load(open(sys.argv[1]))["transitions"]}
for line in open(sys.argv[2]):
    w = line.split(maxsplit=3)
    cpu, ts, info = int(w[1]), int(w[2]), w[3]
    m = re.match(r"\[lazytrace: (tick-upgrade|upgrade) by (\w+), (\w+) request pending ([0-9.]+) ms", info)
    r = tl.get((cpu, ts))
    if not m or not r:
        sys.exit(f"not an upgrade of the timeline: {line}")
    if (r["kind"], r["source"], r["request"], r["latency_ns"] // 1000) != \
       (m[1], m[2], m[3], round(float(m[4]) * 1000)):
        sys.exit(f"{line} but the timeline says {r}")
print("information lines as in the timeline:", sum(1 for _ in open(sys.argv[2])))
EOF
stop

# Nothing on KernelShark's output but what it prints without the plugin.
sort "$W/stock.out" | sed 's/"[^"]*"//' > "$W/stock.lines"
new=$(sort "$W/plugin.out" | sed 's/"[^"]*"//' | comm -13 "$W/stock.lines" -)
[ -z "$new" ] || fail "KernelShark printed with the plugin: $new"

# Call sites: a recording with kernel stacks at the ticks. Each upgrade
# the tick made has the site of its stack, the one `lazytrace hogs`
# names; the table's first rows show some of them.
f=$DATA/vm/lazyvm-hogs-stacks.dat
log=$W/stacks.log
export LAZYTRACE_KSHARK_LOG=$log
run stacks -p "$plugin"
stop
lt hogs --json -i "$f" > "$W/hogs-stacks.json" || fail "hogs --json"
python3 - "$log" "$W/hogs-stacks.json" <<'EOF' || fail "call sites"
import json, sys
kv, sites = {}, set()
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 2:
        kv[w[0]] = int(w[1])
    if w[0] == "info" and ", site " in line:
        sites.add(line.split(", site ")[1].split("]")[0])
hg = json.load(open(sys.argv[2]))
want = {s["function"] for s in hg["sites"]}
at_ticks = hg["meta"]["kernel_stacks_at_ticks"]
print("markers with a site", kv.get("markers_with_site"), "stacks at ticks",
      at_ticks, "sites shown", sites, "hogs' sites", want)
sys.exit(kv.get("markers_with_site") != at_ticks or
         not sites or not sites <= want)
EOF
echo ok
