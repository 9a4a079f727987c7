#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""compare-fgraph.py [--min PCT] [--table FILE] KERNEL.txt REPORT.out

The function_graph tracer's text as the kernel printed it (trace file,
options funcgraph-abstime, funcgraph-cpu and funcgraph-proc on) against
lazytrace report's lines of the same buffer's funcgraph events. Each side
becomes (time in us, CPU, pid, graph text): the kernel's line past its
"TIME | CPU) TASK-PID |" columns, report's payload past "funcgraph_*: ".
Lines match when all four agree (report's time may be the kernel's
plus 1 us: the graph's time column truncates to the microsecond, report
rounds as the kernel's event lines do). Identical % = matched lines / (kernel's
function lines + report's lines that match none). The kernel's own
decorations, which are no event (the "---" task-switch banner and its
"comm-pid => comm-pid" line, the "==========>" interrupt marks), are
counted apart, in the table. Exit 1 below --min.
"""
import argparse
import collections
import re
import sys

KLINE = re.compile(r'^\s*(\d+)\.(\d{6}) \|\s+(\d+)\)\s+(.*)-(\d+)\s+\| (.*)$')
RLINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d{6}): '
                   r'(?:funcgraph_entry|funcgraph_exit|fgraph_retaddr_entry): '
                   r'(.*)$')
DECOR = (('banner', re.compile(r'^\s*-{20,}\s*$')),
         ('task switch', re.compile(r'\)\s.*=>')),
         ('interrupt mark', re.compile(r'[=<]{10}')))


def kernel_lines(path, table):
    out = []
    for line in open(path, errors='replace'):
        line = line.rstrip('\n')
        if not line.strip() or line.startswith('#'):
            continue
        m = KLINE.match(line)
        if m and not any(r.search(m.group(6)) for _, r in DECOR):
            out.append((int(m.group(1)) * 1000000 + int(m.group(2)),
                        int(m.group(3)), int(m.group(5)), m.group(6)))
            continue
        kind = next((k for k, r in DECOR if r.search(line)), 'unparsed')
        table['kernel only: ' + kind] += 1
    return out


def report_lines(path):
    out = []
    for line in open(path, errors='replace'):
        m = RLINE.match(line.rstrip('\n'))
        if m:
            out.append((int(m.group(4)) * 1000000 + int(m.group(5)),
                        int(m.group(3)), int(m.group(2)), m.group(6)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--min', type=float, default=0)
    ap.add_argument('--table')
    ap.add_argument('kernel')
    ap.add_argument('report')
    a = ap.parse_args()
    table = collections.Counter()
    k = kernel_lines(a.kernel, table)
    r = report_lines(a.report)
    left = collections.Counter(r)
    same = 0
    unmatched = []
    for x in k:
        # the graph's time column cuts to the microsecond, report's
        # event time rounds as the kernel's event lines do
        for y in (x, (x[0] + 1,) + x[1:]):
            if left[y]:
                left[y] -= 1
                same += 1
                break
        else:
            unmatched.append(x)
    extra = sum(left.values())
    ours = collections.defaultdict(list)
    for x, n in left.items():
        ours[x[:3]].extend([x[3]] * n)
    for x in unmatched:
        got = ours.get(x[:3])
        table['differs: kernel "%s", lazytrace %s' %
              (x[3].strip(), '"%s"' % got[0].strip() if got else
               'no line at its time')] += 1
    for x, n in left.items():
        if n:
            table['lazytrace only: "%s"' % x[3].strip()] += n
    total = len(k) + extra
    pct = 100.0 * same / total if total else 0.0
    print('%s: %d kernel function lines, %d report lines, %d identical '
          '(%.3f %%)' % (a.kernel, len(k), len(r), same, pct))
    rows = sorted(table.items(), key=lambda t: -t[1])
    for what, n in rows[:20]:
        print('  %6d  %s' % (n, what))
    if a.table:
        with open(a.table, 'w') as f:
            for what, n in rows:
                f.write('%d\t%s\n' % (n, what))
    if not k:
        print('no function lines in the kernel\'s text')
        return 1
    return 0 if pct >= a.min else 1


if __name__ == '__main__':
    sys.exit(main())
