#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Hog call sites on our own patched 6.12 kernel (tests/data/vm, made by
# `make -C patches vm-test`; roles in its README), where the hog is the
# VM test's lazyhog module: its writers spin in lazyhog_write().
#  - lazyvm-tc-stacks.dat: `trace-cmd record -T` (a kernel stack after
#    every event) of two writers sharing CPU 1. lazytrace reads every
#    kernel_stack event trace-cmd wrote (as many, and the same frames, as
#    trace-cmd's own report of the file in the guest shows) and names
#    lazyhog_write as each writer's site.
#  - lazyvm-hogs-stacks.dat: `lazytrace record` in the guest, with its
#    'stacktrace if common_flags & 2' trigger on the tick: the three
#    writers' sites are lazyhog_write, and every stack was taken at a
#    tick with a lazy request pending.
# For both, --folded parsed back adds up to --json, and --stacks shows
# the abbreviated call chain.
. "$(dirname "$0")/lib.sh"

VM=$DATA/vm
log=$VM/lazyvm-stacks-guest.log
pids() { sed -n "s/^$1 hog pid //p" "$log" | tr '\n' ' '; }
tcpids=$(pids tc-stacks)
ltpids=$(pids stacks)
[ "$(echo $tcpids | wc -w)" = 2 ] && [ "$(echo $ltpids | wc -w)" = 3 ] ||
	fail "guest log: tc-stacks hogs '$tcpids', stacks hogs '$ltpids'"

# sites NAME "PIDS": hogs --json/--folded/--stacks of NAME.dat; the hogs
# are PIDS, each with lazyhog_write as its top site in >= 90 % of its
# episodes.
sites() {
	dat=$VM/lazyvm-$1.dat
	lt hogs -i "$dat" --json > "$TMPDIR/$1.json" || fail "$1: hogs --json"
	lt hogs -i "$dat" --folded > "$TMPDIR/$1.ep" || fail "$1: --folded"
	lt hogs -i "$dat" --folded=pending > "$TMPDIR/$1.pend" ||
		fail "$1: --folded=pending"
	python3 "$TOOLS/check-sites.py" "$TMPDIR/$1.json" "$TMPDIR/$1.ep" \
		"$TMPDIR/$1.pend" --comm sh --path lazyhog_write --share 0.9 ||
		fail "$1: folded weights or sites"
	python3 - "$TMPDIR/$1.json" $2 <<'PY' || fail "$1: hogs or sites"
import json, sys, ltjson
d = json.load(open(sys.argv[1]))
want = sorted(map(int, sys.argv[2:]))
hogs = {h["pid"]: h for h in ltjson.hogs_with_sites(d)}
assert sorted(hogs) == want, (sorted(hogs), want)
for p in want:
    h = hogs[p]
    top = h["sites"][0]
    at = sum(s["episodes"] for s in h["sites"] if s["function"] == "lazyhog_write")
    print("hog %d: lazyhog_write in %d of %d episodes" % (p, at, h["episodes"]))
    assert top["function"] == "lazyhog_write", top
    assert 10 * at >= 9 * h["episodes"], (at, h["episodes"])
    # the write(2) path the writer came by, outermost frames last
    assert top["stack"][-4:] == ["vfs_write", "ksys_write", "do_syscall_64",
                                 "entry_SYSCALL_64_after_hwframe"], top["stack"]
PY
	lt hogs -i "$dat" --stacks > "$TMPDIR/$1.stacks" || fail "$1: --stacks"
	grep -q 'lazyhog_write <- full_proxy_write <- vfs_write <- ksys_write' \
		"$TMPDIR/$1.stacks" || fail "$1: --stacks shows no lazyhog_write chain"
}

sites tc-stacks "$tcpids"
sites hogs-stacks "$ltpids"

# trace-cmd's own report of the -T recording (made in the guest): the
# same kernel_stack events, and each stack's frames as far as trace-cmd
# prints them (its kernel_stack format declares 8 callers, 0x0 past a
# shorter stack's end; lazytrace reads the whole record).
rep=$(kernel_text vm/lazyvm-tc-stacks.report.txt.xz)
lt report -i "$VM/lazyvm-tc-stacks.dat" > "$TMPDIR/tc.report" ||
	fail "report tc-stacks"
python3 - "$rep" "$TMPDIR/tc.report" "$TMPDIR/tc-stacks.json" <<'PY' ||
import json, re, sys

def stacks(path, head):
    out, cur = [], None
    for line in open(path):
        if re.search(head, line):
            ts = re.search(r"(\d+\.\d+):", line).group(1)
            cur = [ts]
            out.append(cur)
            # trace-cmd prints the first frame on the event's line
            m = re.search(r"=> (\S+)", line)
            if m:
                cur.append(m.group(1))
        elif cur is not None and line.strip().startswith("=>"):
            cur.append(line.strip()[2:].split()[0])
        else:
            cur = None
    return out

# trace-cmd prints its 8 callers even for a shorter stack: 0x0 after the end
tc = [a[:a.index("0x0")] if "0x0" in a else a
      for a in stacks(sys.argv[1], r"kernel_stack:")]
ours = stacks(sys.argv[2], r"<stack trace>")
n = json.load(open(sys.argv[3]))["meta"]["kernel_stacks"]
print("kernel stacks: trace-cmd report %d, lazytrace report %d, hogs %d"
      % (len(tc), len(ours), n))
assert len(tc) == len(ours) == n > 100
for a, b in zip(tc, ours):
    assert a[0] == b[0], (a[0], b[0])
    k = len(a) - 1
    assert k >= 1 and b[1:k + 1] == a[1:], (a, b[:k + 1])
PY
	fail "lazytrace and trace-cmd read different kernel stacks"

# lazytrace record's filtered trigger: every stack at a lazy tick.
python3 - "$TMPDIR/hogs-stacks.json" <<'PY' || fail "hogs-stacks: stacks outside lazy ticks"
import json, sys
d = json.load(open(sys.argv[1]))["meta"]
assert d["kernel_stacks"] > 100 and d["kernel_stacks_at_ticks"] == d["kernel_stacks"], d["kernel_stacks"]
PY
exit 0
