#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: published-compare.sh CORPUS_DIR [LAZYTRACE]
#
# Runs `lazytrace report` and `trace-cmd report -l` over every *.dat of a
# directory of trace.dat files recorded by other people (never committed:
# see README) and prints one line per file:
#
#   FILE open=yes|no[: first error]  events lt=N tc=M  agree=P% nonr=R% base=Q%
#
# agree is the share of events whose timestamp, CPU, pid and flag field
# are the same in both outputs; nonr the same with the need-resched
# letter left out of the flags (libtraceevent knows no lazy letters, so
# on a PREEMPT_LAZY kernel only lazytrace prints L, l, B and b there);
# base the same without the flags, so that a flag difference is told
# apart from events lazytrace misses or invents. Events are matched as multisets (equal keys pair up
# whatever their order), since both tools order events of the same
# timestamp on different CPUs their own way; the share is over the larger
# of the two counts, so missing and extra events both lower it.
# trace-cmd prints comm, times and event fields its own way, so only these
# columns, which both print identically, are compared. A cached
# FILE.tc.lat.txt next to FILE (newer than it) is used instead of running
# trace-cmd again. Each tool gets 120 s per file.
# Exits 0; this is a measurement, not a test.

set -u

dir=${1:?usage: published-compare.sh CORPUS_DIR [LAZYTRACE]}
lt=${2:-$(dirname "$0")/../../lazytrace}
limit=120
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

command -v trace-cmd >/dev/null || { echo "published-compare: trace-cmd not found" >&2; exit 2; }
[ -x "$lt" ] || { echo "published-compare: $lt: not executable" >&2; exit 2; }

for f in "$dir"/*.dat; do
	[ -f "$f" ] || continue
	name=$(basename "$f")

	timeout $limit "$lt" report --color=never -i "$f" >"$tmp/lt" 2>"$tmp/lt.err"
	rc=$?
	if [ $rc -eq 0 ]; then
		open=yes
	else
		err=$(grep -m1 . "$tmp/lt.err" | sed "s|$dir/||")
		[ $rc -eq 124 ] && err="timeout after ${limit}s"
		open="no(rc=$rc): ${err:-no message}"
	fi

	tc=$f.tc.lat.txt
	if ! [ -s "$tc" ] || ! [ "$tc" -nt "$f" ]; then
		tc=$tmp/tc
		timeout $limit trace-cmd report -l "$f" >"$tc" 2>/dev/null
	fi

	python3 - "$tmp/lt" "$tc" "$name" "$open" <<'EOF'
import re
import sys
from collections import Counter

# lazytrace default format: "comm-pid [(tgid)] [CPU] FLAGS seconds: ..."
LT = re.compile(r'^.*?-(\d+) +(?:\(.{5,7}\) +)?\[(\d+)\] (\S+) +(\d+)\.(\d+): ')
# trace-cmd report -l: "[name: ]comm-pid CPUFLAGS seconds: ..."
TC = re.compile(r'^.*?-(\d+) +(\d+)([^\d\s]\S*) +(\d+)\.(\d+): ')


def keys(path, rx):
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            m = rx.match(line)
            if m:
                out.append(m.groups())
    return out


def share(a, b):
    n = max(len(a), len(b))
    if not n:
        return '-'
    same = sum((Counter(a) & Counter(b)).values())
    return '%.1f%%' % (100.0 * same / n)


lt = keys(sys.argv[1], LT)
tc = keys(sys.argv[2], TC)
# the two tools may print different numbers of decimals: compare the
# digits both give
if lt and tc:
    d = min(len(lt[0][4]), len(tc[0][4]))
else:
    d = 6
full_lt = [(p, int(c), fl, s, u[:d]) for p, c, fl, s, u in lt]
full_tc = [(p, int(c), fl, s, u[:d]) for p, c, fl, s, u in tc]
nonr_lt = [(p, c, fl[:1] + fl[2:], s, u) for p, c, fl, s, u in full_lt]
nonr_tc = [(p, c, fl[:1] + fl[2:], s, u) for p, c, fl, s, u in full_tc]
base_lt = [(p, c, s, u) for p, c, fl, s, u in full_lt]
base_tc = [(p, c, s, u) for p, c, fl, s, u in full_tc]
print('%s open=%s  events lt=%d tc=%d  agree=%s nonr=%s base=%s' %
      (sys.argv[3], sys.argv[4], len(lt), len(tc), share(full_lt, full_tc),
       share(nonr_lt, nonr_tc), share(base_lt, base_tc)))
EOF
done
exit 0
