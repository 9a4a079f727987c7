#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hog call sites from kernel stacks, on Debian's stock 7.2 kernel with
# NO_HRTICK and a 'stacktrace if common_flags & 2' trigger on the tick
# (tests/data/stock): the three dd readers of /dev/zero are hogs whose
# sites run through read_zero; the folded output parsed back adds up to
# the JSON's weights; the trace.dat and the kernel's text give the same
# sites; stacks without symbols, cut short, or cut off by the end of the
# trace give addresses or fewer sites, never a crash.
. "$(dirname "$0")/lib.sh"

rec=stock/stock72-lazy-nohrtick-stacks
dat=$DATA/$rec.dat
check() { # INPUT TAG [check-sites options]
	in=$1 tag=$2
	shift 2
	lt hogs -i "$in" --json > "$TMPDIR/$tag.json" || fail "$tag: hogs --json"
	lt hogs -i "$in" --folded > "$TMPDIR/$tag.ep" || fail "$tag: --folded"
	lt hogs -i "$in" --folded=pending > "$TMPDIR/$tag.pend" ||
		fail "$tag: --folded=pending"
	python3 "$TOOLS/check-sites.py" "$TMPDIR/$tag.json" "$TMPDIR/$tag.ep" \
		"$TMPDIR/$tag.pend" "$@" > "$TMPDIR/$tag.log" ||
		{ cat "$TMPDIR/$tag.log"; fail "$tag: sites"; }
}

check "$dat" dat --comm dd --path read_zero --share 0.9
cat "$TMPDIR/dat.log"
[ "$(grep -c '"comm":"dd"' "$TMPDIR/dat.json")" = 1 ] ||
	grep -o '"pid":[0-9]*,"comm":"dd"' "$TMPDIR/dat.json" | wc -l |
	grep -qx 3 || fail "not three dd hogs"
python3 - "$TMPDIR/dat.json" <<'PY' || fail "dd sites"
import json, sys, ltjson
d = json.load(open(sys.argv[1]))
assert d["meta"]["kernel_stacks"] >= 400, d["meta"]["kernel_stacks"]
dd = [h for h in ltjson.hogs_with_sites(d) if h["comm"] == "dd"]
assert len(dd) == 3, [h["pid"] for h in d["hogs"]]
for h in dd:
    # every episode has its stack: the trigger fires at each such tick
    assert sum(s["episodes"] for s in h["sites"]) == h["episodes"], h["pid"]
    assert all(s["function"] != "[no stack]" for s in h["sites"])
    # the page fault that first touches dd's buffer, under read_zero
    top = h["sites"][0]
    assert "read_zero" in top["stack"] and "exc_page_fault" in top["stack"]
PY

# The kernel's text of the same buffer: the same sites, stack by stack.
for fmt in txt lat.txt; do
	txt=$(kernel_text $rec.$fmt.xz)
	check "$txt" $fmt
	python3 - "$TMPDIR/dat.json" "$TMPDIR/$fmt.json" <<'PY' ||
import json, sys, ltjson
a, b = (ltjson.hogs_with_sites(json.load(open(p))) for p in sys.argv[1:])
key = lambda d: [[(s["function"], s["episodes"], s["stack"], s["truncated"])
                  for s in h["sites"]] for h in d]
assert key(a) == key(b)
# text times are in us: pending within 2 us per episode
for ha, hb in zip(a, b):
    for sa, sb in zip(ha["sites"], hb["sites"]):
        assert abs(sa["pending_ns"] - sb["pending_ns"]) <= 2000 * sa["episodes"]
PY
		fail "$fmt: sites differ from the trace.dat's"
	cmp -s "$TMPDIR/dat.ep" "$TMPDIR/$fmt.ep" ||
		fail "$fmt: folded stacks differ from the trace.dat's"
done

# A kernel without kallsyms access prints addresses: the same sites, named
# by address (the entry frames then cannot be told apart: the site is the
# innermost frame), and nothing invented.
txt=$(kernel_text $rec.txt.xz)
python3 - "$txt" > "$TMPDIR/nosym.txt" <<'PY'
import sys, zlib
for line in open(sys.argv[1]):
    if line.startswith(" => "):
        name = line[4:].strip()
        line = " => 0xffffffff%08x\n" % (zlib.crc32(name.encode()) | 1 << 31)
    sys.stdout.write(line)
PY
check "$TMPDIR/nosym.txt" nosym
grep -q '"function":"0xffffffff[0-9a-f]\{8\}"' "$TMPDIR/nosym.json" ||
	fail "no address sites"
grep -q '"function":"[a-z_]' "$TMPDIR/nosym.json" &&
	fail "a name where there was only an address"

# Cut off in the middle of a stack, and stacks with frames lost: no crash,
# the same hogs or fewer, nothing beyond the full trace's episodes.
n=$(grep -n '^ => ' "$txt" | sed -n '2000p' | cut -d: -f1)
head -n "$n" "$txt" > "$TMPDIR/cut.txt"
lt hogs -i "$TMPDIR/cut.txt" --stacks > "$TMPDIR/cut.out"
[ $? -le 1 ] || fail "cut trace: exit status"
awk 'NR % 7 != 0 || !/^ => /' "$txt" > "$TMPDIR/holes.txt"
check "$TMPDIR/holes.txt" holes
lt hogs -i "$dat" --stacks > "$TMPDIR/text.out" || fail "--stacks"
grep -q 'rep_stos_alternative <- read_zero <- vfs_read' "$TMPDIR/text.out" ||
	fail "--stacks: no abbreviated read_zero stack"

# Without stacks the sites are empty and --stacks says so.
lt hogs -i "$DATA/lazy612-hogs.dat" --json | grep -q '"sites":\[\]' ||
	fail "sites without stacks"
lt hogs -i "$DATA/lazy612-hogs.dat" --stacks | grep -q 'no kernel stacks' ||
	fail "--stacks without stacks"
expect_exit 2 lt hogs -i "$dat" --folded=bogus 2>/dev/null

# Memory grows with tasks and distinct stacks, not with events: the same
# trace ten times over has ten times the dd episodes at the same sites,
# and a peak RSS within 25 % (each copy's dd are new task records: they
# exec from sh, which mk-long-text.py cannot undo).
python3 "$TOP/bench/mk-long-text.py" 10 < "$txt" > "$TMPDIR/x10.txt" ||
	fail "mk-long-text.py"
rss() {	# file -> peak RSS in KB, hogs --json in $TMPDIR/rss.json
	/usr/bin/time -f "%M" -o "$TMPDIR/rss" "$LAZYTRACE" hogs -i "$1" \
		--json > "$TMPDIR/rss.json" || fail "hogs $1"
	cat "$TMPDIR/rss"
}
small=$(rss "$txt")
cp "$TMPDIR/rss.json" "$TMPDIR/x1.json"
large=$(rss "$TMPDIR/x10.txt")
python3 - "$TMPDIR/x1.json" "$TMPDIR/rss.json" <<'PY' || fail "10x trace"
import json, sys, ltjson
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert b["meta"]["kernel_stacks"] == 10 * a["meta"]["kernel_stacks"]
def sites(d):
    out = {}
    for h in ltjson.hogs_with_sites(d):
        if h["comm"] == "dd":
            for s in h["sites"]:
                out[s["function"]] = out.get(s["function"], 0) + s["episodes"]
    return out
x1, x10 = sites(a), sites(b)
assert x1 and {k: 10 * v for k, v in x1.items()} == x10, (x1, x10)
PY
echo "peak RSS of hogs: 1x $small KB, 10x $large KB"
if [ -x /usr/bin/time ] && [ -z "${LAZYTRACE_WRAP:-}" ] &&
   ! ldd "$LAZYTRACE" 2> /dev/null | grep -q libasan; then
	[ $((large * 4)) -le $((small * 5)) ] ||
		fail "peak RSS grew from $small KB to $large KB on a 10x longer trace"
fi
exit 0
